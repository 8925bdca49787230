// Dimensions split over axes that do not divide them: each device holds
// ceil(n / k) entries, the last blocks ending in padding. Arguments cross
// the shard_map whole along such dimensions and are padded and sliced
// inside (no communication); reductions over a padded dimension mask it;
// reshards move the padded blocks; results are gathered and cut to their
// extent. Numbers: uneven-programs.test (numpy and --reference).
// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual | FileCheck %s
// RUN: trellis-opt %s --split-input-file --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: trellis-opt %s --split-input-file --trellis-propagate | FileCheck %s --check-prefix=PROP

trellis.mesh @m = <["x"=4]>

// 30 rows on 4 devices: blocks of 8 (the last 6 rows and 2 of padding).
// The contraction over the split k zeroes both operands past the padding
// start (30 - 8 * index) and one psum adds the partial products.
// CHECK-LABEL: func.func @contraction
// CHECK: spmd.shard_map @m in_specs = {{\[}}[{}, {}], [{}, {}]] out_specs = {{\[}}[{}, {}]]
// CHECK: %[[PX:.*]] = tensor.pad %{{.*}} low[0, 0] high[0, 2]
// CHECK: %[[I:.*]] = spmd.axis_index over ["x"]
// CHECK: %[[OFF:.*]] = arith.muli %[[I]], %c8
// CHECK: %[[X:.*]] = tensor.extract_slice %[[PX]][0, %[[OFF]]] [6, 8] [1, 1] : tensor<6x32xf32> to tensor<6x8xf32>
// CHECK: %[[LIMIT:.*]] = arith.subi %c30, %[[OFF]]
// CHECK: linalg.generic
// CHECK: %[[K:.*]] = linalg.index 1
// CHECK: arith.cmpi slt, %[[K]], %[[LIMIT]]
// CHECK: linalg.generic
// CHECK: %[[K2:.*]] = linalg.index 0
// CHECK: arith.cmpi slt, %[[K2]], %[[LIMIT]]
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x8xf32>, tensor<8x5xf32>)
// CHECK: spmd.psum
// BYTES-LABEL: comm @contraction
// BYTES: spmd.psum over ["x"]: float32[6,5] -> float32[6,5], 180 B
// BYTES-NEXT: total: 1 collective, 180 B per device
func.func @contraction(%x: tensor<6x30xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>},
                       %w: tensor<30x5xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}) -> tensor<6x5xf32> {
  %l = math.log %x : tensor<6x30xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %y = linalg.matmul ins(%l, %w : tensor<6x30xf32>, tensor<30x5xf32>) outs(%f : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %y : tensor<6x5xf32>
}

// -----

trellis.mesh @m = <["x"=4]>

// A sum of exp over the split dimension (exp of padding would add 1): the
// reduction becomes a generic whose payload keeps the accumulator at
// padded iterations.
// CHECK-LABEL: func.func @sum_of_exp
// CHECK: %[[LIMIT:.*]] = arith.subi %c17,
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%{{.*}} : tensor<4x5xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[OK:.*]] = arith.cmpi slt, %[[J]], %[[LIMIT]]
// CHECK: %[[KEEP:.*]] = arith.select %[[OK]], %[[SUM]], %[[ACC]]
// CHECK: linalg.yield %[[KEEP]]
// CHECK: spmd.psum
func.func @sum_of_exp(%x: tensor<4x17xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}) -> tensor<4xf32> {
  %ex = math.exp %x : tensor<4x17xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%ex : tensor<4x17xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<4xf32>
}

// -----

trellis.mesh @m = <["x"=4]>

// Moving the uneven rows to the columns (12 divide by 4) and back: one
// all_to_all each way on the padded array (288 B, the ring minimum), the
// padding cut after the first and added before the second. The result,
// split unevenly, leaves the shard_map whole: gathered and cut to 30 rows.
// CHECK-LABEL: func.func @moves
// CHECK: %[[A:.*]] = math.tanh %{{.*}} : tensor<8x12xf32>
// CHECK: %[[T:.*]] = spmd.all_to_all %[[A]] over ["x"] split 1 concat 0 : tensor<8x12xf32> -> tensor<32x3xf32>
// CHECK: %[[C:.*]] = tensor.extract_slice %[[T]][0, 0] [30, 3] [1, 1] : tensor<32x3xf32> to tensor<30x3xf32>
// CHECK: %[[E:.*]] = math.exp %[[C]] : tensor<30x3xf32>
// CHECK: %[[P:.*]] = tensor.pad %[[E]] low[0, 0] high[2, 0]
// CHECK: spmd.all_to_all %[[P]] over ["x"] split 0 concat 1 : tensor<32x3xf32> -> tensor<8x12xf32>
// CHECK: %[[G:.*]] = spmd.all_gather %{{.*}} over ["x"] dim 0 tiled : tensor<8x12xf32> -> tensor<32x12xf32>
// CHECK: %[[R:.*]] = tensor.extract_slice %[[G]][0, 0] [30, 12] [1, 1] : tensor<32x12xf32> to tensor<30x12xf32>
// CHECK: spmd.yield %[[R]]
// BYTES-LABEL: comm @moves
// BYTES: spmd.all_to_all over ["x"]: float32[8,12] -> float32[32,3], 288 B
// BYTES-NEXT: spmd.all_to_all over ["x"]: float32[32,3] -> float32[8,12], 288 B
// BYTES-NEXT: spmd.all_gather over ["x"]: float32[8,12] -> float32[32,12], 1152 B
func.func @moves(%x: tensor<30x12xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> (tensor<30x12xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}) {
  %a = math.tanh %x : tensor<30x12xf32>
  %c = trellis.sharding_constraint %a to <@m, [{}, {"x"}]> : tensor<30x12xf32>
  %e = math.exp %c : tensor<30x12xf32>
  %c2 = trellis.sharding_constraint %e to <@m, [{"x"}, {}]> : tensor<30x12xf32>
  return %c2 : tensor<30x12xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// Propagation splits another dimension of the extent the user split
// unevenly (17 over x, y) the same way, and no other dimension unevenly:
// the 6 rows stay whole though y would fit them no better.
// PROP-LABEL: func.func @propagate
// PROP: arith.mulf {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {"x", "y"}]>}
// PROP: linalg.transpose {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x", "y"}, {}]>}
// PROP: arith.addf {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x", "y"}, {}]>}
func.func @propagate(%x: tensor<6x17xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x", "y"}]>},
                     %b: tensor<17x6xf32>) -> tensor<17x6xf32> {
  %sq = arith.mulf %x, %x : tensor<6x17xf32>
  %e = tensor.empty() : tensor<17x6xf32>
  %t = linalg.transpose ins(%sq : tensor<6x17xf32>) outs(%e : tensor<17x6xf32>) permutation = [1, 0]
  %s = arith.addf %t, %b : tensor<17x6xf32>
  return %s : tensor<17x6xf32>
}

// -----

trellis.mesh @m = <["x"=4]>

// A reshape merging the uneven dimension with another would interleave
// padding and data: the merged dimension is not split (the rows are
// gathered first).
// CHECK-LABEL: func.func @reshape
// CHECK: spmd.all_gather %{{.*}} over ["x"] dim 0 tiled : tensor<2x4xf32> -> tensor<8x4xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [6, 4] [1, 1] : tensor<8x4xf32> to tensor<6x4xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
func.func @reshape(%x: tensor<6x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}) -> tensor<24xf32> {
  %a = math.tanh %x : tensor<6x4xf32>
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  return %r : tensor<24xf32>
}

// -----

trellis.mesh @m = <["x"=4]>

// A contraction whose reduction factor one input does not hold
// (y[i] = sum_k a[i, k] * s[i]): zeroing a alone would make 0 * Inf = NaN
// for an infinite s, so the payload masks the padded iterations instead.
// CHECK-LABEL: func.func @one_sided
// CHECK: %[[LIMIT:.*]] = arith.subi %c6,
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: %[[K:.*]] = linalg.index 1
// CHECK: %[[OK:.*]] = arith.cmpi slt, %[[K]], %[[LIMIT]]
// CHECK: arith.select %[[OK]], %[[SUM]], %[[ACC]]
func.func @one_sided(%a: tensor<4x6xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>},
                     %s: tensor<4xf32>) -> tensor<4xf32> {
  %e = math.exp %a : tensor<4x6xf32>
  %z = arith.constant 0.0 : f32
  %i = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%i : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%e, %s : tensor<4x6xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%va: f32, %vs: f32, %acc: f32):
    %p = arith.mulf %va, %vs : f32
    %t = arith.addf %p, %acc : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

trellis.mesh @m = <["x"=4]>

// Integer division would divide by the padding (zeros): the divisor's
// dimension is gathered and cut to its 6 entries first, and the division
// runs on whole blocks.
// CHECK-LABEL: func.func @division
// CHECK: %[[G:.*]] = spmd.all_gather %{{.*}} over ["x"] dim 0 tiled : tensor<2xi32> -> tensor<8xi32>
// CHECK: %[[W:.*]] = tensor.extract_slice %[[G]][0] [6] [1] : tensor<8xi32> to tensor<6xi32>
// CHECK: arith.divsi %{{.*}}, %[[W]] : tensor<6xi32>
func.func @division(%a: tensor<6xi32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>},
                    %b: tensor<6xi32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<6xi32> {
  %one = arith.constant dense<1> : tensor<6xi32>
  %d = arith.addi %b, %one : tensor<6xi32>
  %q = arith.divsi %a, %d : tensor<6xi32>
  return %q : tensor<6xi32>
}
