module @jit_grouped_loss attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x8x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}, %arg1: tensor<3x3x2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"model"}]>}) -> (tensor<4x8x8x4xf32> {jax.result_info = "result[0]"}, tensor<3x3x2x8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<4x4x4x8xf32>
    %1 = stablehlo.sine %0 : tensor<4x4x4x8xf32>
    %2 = stablehlo.cosine %0 : tensor<4x4x4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<4x4x4x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4x4x8xf32>
    %5 = stablehlo.multiply %4, %2 : tensor<4x4x4x8xf32>
    %6 = stablehlo.convolution(%arg0, %5) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x4xf32>, tensor<4x4x4x8xf32>) -> tensor<3x3x2x8xf32>
    %7 = stablehlo.reshape %arg1 : (tensor<3x3x2x8xf32>) -> tensor<3x3x2x2x4xf32>
    %8 = stablehlo.transpose %7, dims = [0, 1, 3, 2, 4] : (tensor<3x3x2x2x4xf32>) -> tensor<3x3x2x2x4xf32>
    %9 = stablehlo.reshape %8 : (tensor<3x3x2x2x4xf32>) -> tensor<3x3x4x4xf32>
    %10 = stablehlo.reverse %9, dims = [0, 1] : tensor<3x3x4x4xf32>
    %11 = stablehlo.convolution(%5, %10) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x4x4x8xf32>, tensor<3x3x4x4xf32>) -> tensor<4x8x8x4xf32>
    return %11, %6 : tensor<4x8x8x4xf32>, tensor<3x3x2x8xf32>
  }
}
