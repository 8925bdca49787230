module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x1x8xf32>, %arg1: tensor<3x3x8x16xf32>, %arg2: tensor<16x10xf32>, %arg3: tensor<8x12x12xui8>) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg3 : (tensor<8x12x12xui8>) -> tensor<8x12x12xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<8x12x12xf32>) -> tensor<8x12x12x1xf32>
    %cst = stablehlo.constant dense<2.550000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x12x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8x12x12x1xf32>
    %4 = stablehlo.convolution(%3, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x12x12x1xf32>, tensor<3x3x1x8xf32>) -> tensor<8x12x12x8xf32>
    %5 = call @relu(%4) : (tensor<8x12x12x8xf32>) -> tensor<8x12x12x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %7 = "stablehlo.reduce_window"(%5, %6) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %14 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<8x12x12x8xf32>, tensor<f32>) -> tensor<8x6x6x8xf32>
    %8 = stablehlo.convolution(%7, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x8xf32>, tensor<3x3x8x16xf32>) -> tensor<8x3x3x16xf32>
    %9 = call @relu_0(%8) : (tensor<8x3x3x16xf32>) -> tensor<8x3x3x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x3x3x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %12 = stablehlo.divide %10, %11 : tensor<8x16xf32>
    %13 = stablehlo.dot_general %12, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    return %13 : tensor<8x10xf32>
  }
  func.func private @relu(%arg0: tensor<8x12x12x8xf32>) -> tensor<8x12x12x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x12x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x12x12x8xf32>
    return %1 : tensor<8x12x12x8xf32>
  }
  func.func private @relu_0(%arg0: tensor<8x3x3x16xf32>) -> tensor<8x3x3x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3x3x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x3x3x16xf32>
    return %1 : tensor<8x3x3x16xf32>
  }
}
