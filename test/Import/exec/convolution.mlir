// stablehlo.convolution with every window attribute and both group counts,
// in the layouts JAX prints for lax.conv_general_dilated and its
// gradients, on operands split over a 2x2 mesh (batch, spatial dimensions
// with halos, input features with partial sums): against the unpartitioned
// program and against check_convolution.py, which computes each result
// from the StableHLO specification in numpy.
// RUN: rm -rf %t && trellis-run %s --random 5 --reference --save-inputs --output-dir %t --quiet | FileCheck %s
// RUN: %python %S/check_convolution.py %t
// CHECK-COUNT-6: match
//
// %1, whose contraction runs over the split batch, ends in a psum; the 3-D
// %3, split along a spatial dimension, exchanges a halo of one plane; the
// others gather their spatially split inputs (strided or shifted windows
// whose blocks are not the input's).
// RUN: trellis-opt %s --trellis-import-stablehlo --trellis-global-to-manual --trellis-comm-report -o /dev/null | FileCheck %s --check-prefix=PART
// PART-DAG: spmd.psum over ["x"]: float32[3,3,2,2,4]
// PART-DAG: spmd.ppermute over ["x"]: float32[1,2,1,4,4]
// PART: total: 4 collectives
module @jit_convs attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(
      %x: tensor<2x8x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>},
      %w: tensor<3x3x2x8xf32>,
      %dy: tensor<2x2x15x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>},
      %s: tensor<2x3x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>},
      %k: tensor<4x3x3xf32>,
      %v: tensor<1x2x6x4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}, {}, {}]>},
      %vk: tensor<3x2x2x2x2xf32>,
      %i: tensor<2x5x4x3xi32>,
      %ik: tensor<2x3x3x4xi32>,
      %t: tensor<2x4x3x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>},
      %tk: tensor<3x3x8x1xf32>)
      -> (tensor<2x2x15x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>},
          tensor<3x3x2x8xf32>,
          tensor<2x4x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}]>},
          tensor<1x3x6x5x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"x"}, {}, {}]>},
          tensor<4x2x2x2xi32>,
          tensor<2x8x7x7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>}) {
    // Forward: stride, negative and positive padding, both dilations, two
    // feature groups.
    %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, -1], [0, 2]], lhs_dilate = [1, 2], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<2x2x15x8xf32>
    // Its kernel's gradient, as JAX prints it: two batch groups.
    %1 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [2, 1], pad = [[1, -2], [0, 2]], lhs_dilate = [1, 2], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<2x2x15x8xf32>) -> tensor<3x3x2x8xf32>
    // 1-D, NCW, a reversed window, in the generic form.
    %2 = "stablehlo.convolution"(%s, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 1 : i64, padding = dense<2> : tensor<1x2xi64>, window_reversal = array<i1: true>}> : (tensor<2x3x10xf32>, tensor<4x3x3xf32>) -> tensor<2x4x12xf32>
    // 3-D, the spatial dimensions in another order in each operand, the
    // window attributes left out where they have their defaults.
    %3 = stablehlo.convolution(%v, %vk) dim_numbers = [b, f, 0, 1, 2]x[o, i, 2, 0, 1]->[b, f, 0, 2, 1], window = {stride = [1, 2, 1], pad = [[0, 1], [1, 0], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x6x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x6x5x2xf32>
    // Integers, the batch last in the result, in the raw generic form.
    %4 = "stablehlo.convolution"(%i, %ik) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 3, output_feature_dimension = 0, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 1>}> : (tensor<2x5x4x3xi32>, tensor<2x3x3x4xi32>) -> tensor<4x2x2x2xi32>
    // A transposed convolution (lhs_dilate, what conv_transpose prints)
    // with four feature groups (depthwise).
    %5 = stablehlo.convolution(%t, %tk) dim_numbers = [b, f, 0, 1]x[0, 1, o, i]->[b, f, 0, 1], window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x4x3x3xf32>, tensor<3x3x8x1xf32>) -> tensor<2x8x7x7xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<2x2x15x8xf32>, tensor<3x3x2x8xf32>, tensor<2x4x12xf32>, tensor<1x3x6x5x2xf32>, tensor<4x2x2x2xi32>, tensor<2x8x7x7xf32>
  }
}
