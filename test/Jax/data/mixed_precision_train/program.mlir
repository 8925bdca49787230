module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<16x8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg1 : (tensor<8x16xf32>) -> tensor<8x16xbf16>
    %1 = stablehlo.convert %arg0 : (tensor<16x8xf32>) -> tensor<16x8xbf16>
    %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xbf16>, tensor<16x8xbf16>) -> tensor<8x8xbf16>
    %3 = stablehlo.convert %2 : (tensor<8x8xbf16>) -> tensor<8x8xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x8xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = stablehlo.multiply %5, %3 : tensor<8x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %8 = stablehlo.divide %7, %cst_1 : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %9 = stablehlo.divide %cst_2, %cst_3 : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %11 = stablehlo.multiply %10, %6 : tensor<8x8xf32>
    %12 = stablehlo.convert %11 : (tensor<8x8xf32>) -> tensor<8x8xbf16>
    %13 = stablehlo.dot_general %12, %0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %14 = stablehlo.transpose %13, dims = [1, 0] : (tensor<8x16xbf16>) -> tensor<16x8xbf16>
    %15 = stablehlo.convert %14 : (tensor<16x8xbf16>) -> tensor<16x8xf32>
    return %8, %15 : tensor<f32>, tensor<16x8xf32>
  }
}
