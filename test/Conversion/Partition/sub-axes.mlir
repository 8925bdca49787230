// Sub-axes reach the partitioner as parts of mesh axes: it splits each
// such axis into mesh axes, one per part (named as the sub-axes are), so
// that a reshape that splits or merges a sharded dimension runs locally.
// RUN: trellis-opt %s --split-input-file --trellis-propagate --trellis-partition | FileCheck %s
// RUN: trellis-opt %s --split-input-file --trellis-propagate --trellis-partition=report-reshards -o /dev/null | FileCheck %s --check-prefix=BYTES

// Both functions' cuts of "x" (at 2 and at 4) make three parts.
// CHECK: trellis.mesh @m = <["x:(1)2"=2, "x:(2)2"=2, "x:(4)2"=2, "y"=2]>
trellis.mesh @m = <["x"=8, "y"=2]>

// 16 rows over x=8 into 4x4: the major 4 of x on the first, the minor 2
// on the second; every device keeps its 2 rows.
// CHECK-LABEL: func.func @split
// CHECK: spmd.shard_map @m in_specs = {{\[}}[{"x":(1)2, "x":(2)2, "x":(4)2}, {"y"}]] out_specs = {{\[}}[{"x":(1)2, "x":(2)2}, {"x":(4)2}, {"y"}]]
// CHECK: ^bb0(%{{.*}}: tensor<2x3xf32>):
// CHECK-NEXT: tensor.expand_shape {{.*}} output_shape [1, 2, 3] : tensor<2x3xf32> into tensor<1x2x3xf32>
// CHECK-NOT: spmd.
// CHECK: spmd.yield
// BYTES-LABEL: reshards @split
// BYTES-NEXT: total: 0 reshards, 0 B per device
func.func @split(%a: tensor<16x6xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<4x4x6xf32> {
  %0 = tensor.expand_shape %a [[0, 1], [2]] output_shape [4, 4, 6] : tensor<16x6xf32> into tensor<4x4x6xf32>
  %1 = arith.negf %0 : tensor<4x4x6xf32>
  return %1 : tensor<4x4x6xf32>
}

// Summing over the minor half of a split dimension leaves partial sums
// over the parts of "x" that split it: one psum over those.
// CHECK-LABEL: func.func @sum_minor
// CHECK: linalg.reduce
// CHECK: spmd.psum %{{.*}} over ["x:(2)2", "x:(4)2"] : tensor<1xf32>
// BYTES-LABEL: reshards @sum_minor
// BYTES: [{"x":(1)2}] unreduced {"x":(2)2, "x":(4)2} -> [{"x":(1)2}] for result #0: spmd.psum, 6 B per device
func.func @sum_minor(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<2xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %z = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%i : tensor<2xf32>) -> tensor<2xf32>
  %s = linalg.reduce ins(%0 : tensor<2x4xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%p: f32, %q: f32) {
      %t = arith.addf %p, %q : f32
      linalg.yield %t : f32
    }
  return %s : tensor<2xf32>
}

// -----

// A sharding the user writes in sub-axes, on a dimension merged back.
// CHECK: trellis.mesh @m = <["x:(1)2"=2, "x:(2)4"=4]>
// CHECK-LABEL: func.func @merge
// CHECK: spmd.shard_map @m in_specs = {{\[}}[{"x":(1)2}, {"x":(2)4}]] out_specs = {{\[}}[{"x":(1)2, "x":(2)4}]]
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x3xf32> into tensor<3xf32>
// BYTES-LABEL: reshards @merge
// BYTES-NEXT: total: 0 reshards, 0 B per device
trellis.mesh @m = <["x"=8]>
func.func @merge(%a: tensor<2x12xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4}]>}) -> tensor<24xf32> {
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<2x12xf32> into tensor<24xf32>
  return %0 : tensor<24xf32>
}
