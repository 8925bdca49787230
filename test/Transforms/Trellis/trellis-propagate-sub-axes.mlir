// Reshapes split or merge a sharded dimension: propagation splits an axis
// that straddles two of the new dimensions into sub-axes (`"x":(1)2` is
// the major 2 of `x`), so the data stays where it is, and merges the parts
// back when the dimensions merge.
// RUN: trellis-opt %s --split-input-file --trellis-propagate | FileCheck %s

trellis.mesh @m = <["x"=8]>

// CHECK-LABEL: func.func @split_8_into_2x4
// CHECK: tensor.expand_shape {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4}]>}
// CHECK: return
func.func @split_8_into_2x4(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<2x4xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// The minor new dimension takes what is left of the axis.
// CHECK-LABEL: func.func @split_16_into_4x4
// CHECK: tensor.expand_shape {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x":(1)4}, {"x":(4)2}]>}
func.func @split_16_into_4x4(%a: tensor<16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<4x4xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// Merging: the parts become the whole axis again, and backwards the
// argument learns the sub-axes from the result.
// CHECK-LABEL: func.func @merge_back
// CHECK-SAME: %arg0: tensor<2x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)4}]>}
// CHECK: tensor.collapse_shape {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}
func.func @merge_back(%a: tensor<2x4xf32>) -> (tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) {
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A sub-axis the user wrote flows on like any axis.
// CHECK-LABEL: func.func @user_sub_axis
// CHECK: arith.negf {{.*}} {trellis.sharding = #trellis.sharding<@m, [{"x":(2)4}, {}]>}
func.func @user_sub_axis(%a: tensor<4x2xf32> {trellis.sharding = #trellis.sharding<@m, [{"x":(2)4}, {}]>}) -> tensor<4x2xf32> {
  %0 = arith.negf %a : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

trellis.mesh @m = <["a"=4, "b"=2]>

// Axes that fit the new dimensions need no sub-axes; one that straddles
// them is split, and the axes after it go on into the minor dimension.
// CHECK-LABEL: func.func @two_axes
// CHECK: tensor.expand_shape {{.*}} output_shape [4, 2] {trellis.sharding = #trellis.sharding<@m, [{"a"}, {"b"}]>}
// CHECK: tensor.expand_shape {{.*}} output_shape [2, 16] {trellis.sharding = #trellis.sharding<@m, [{"a":(1)2}, {"a":(2)2, "b"}]>}
func.func @two_axes(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"a", "b"}]>},
                    %b: tensor<32xf32> {trellis.sharding = #trellis.sharding<@m, [{"a", "b"}]>})
    -> (tensor<4x2xf32>, tensor<2x16xf32>) {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %1 = tensor.expand_shape %b [[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<2x16xf32>
}

// An axis that neither divides the new major dimension nor is divided by
// it cannot be cut at the dimensions' boundary: the result is not split.
// CHECK-LABEL: func.func @does_not_fit
// CHECK: tensor.expand_shape {{.*}} output_shape [3, 8] {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @does_not_fit(%a: tensor<24xf32> {trellis.sharding = #trellis.sharding<@m, [{"a", "b"}]>}) -> tensor<3x8xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

trellis.mesh @m = <["x"=8]>

// Manual code names "x": the partitioner cannot split it, so propagation
// makes no sub-axes of it (the reshape's result stays whole).
// CHECK-LABEL: func.func @manual_beside
// CHECK: tensor.expand_shape {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @manual_beside(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}, %b: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %1 = spmd.shard_map @m in_specs = [[{"x"}]] out_specs = [[{"x"}]] (%b) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%arg1: tensor<1xf32>):
    spmd.yield %arg1 : tensor<1xf32>
  }
  return %0, %1 : tensor<2x4xf32>, tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=6]>

// Cuts of one axis must nest for the partitioner to split it once: after
// the 2x3 split cuts "x" = 6 at 2, a 3x2 split would cut it at 3, so that
// reshape keeps its result whole instead.
// CHECK-LABEL: func.func @cuts_nest
// CHECK: output_shape [2, 3] {trellis.sharding = #trellis.sharding<@m, [{"x":(1)2}, {"x":(2)3}]>}
// CHECK: output_shape [3, 2] {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @cuts_nest(%a: tensor<6xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  %1 = tensor.expand_shape %a [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>
}

// -----

// Sub-axes are partitioned only in a module with one mesh: beside another
// one, propagation makes none.
trellis.mesh @m = <["x"=8]>
trellis.mesh @n = <["y"=2]>
// CHECK-LABEL: func.func @two_meshes
// CHECK: tensor.expand_shape {{.*}} {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @two_meshes(%a: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<2x4xf32> {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
