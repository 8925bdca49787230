module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xbf16>) -> (tensor<4x16xbf16> {jax.result_info = "result[0]"}, tensor<4x16xbf16> {jax.result_info = "result[1]"}, tensor<4x16xbf16> {jax.result_info = "result[2]"}, tensor<4x16xbf16> {jax.result_info = "result[3]"}, tensor<4xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<4x16xbf16>
    %1 = stablehlo.tanh %arg0 : tensor<4x16xbf16>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<4x16xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x16xbf16>
    %4 = stablehlo.add %2, %3 : tensor<4x16xbf16>
    %cst_0 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %5 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<4x16xbf16>, tensor<bf16>) -> tensor<4xbf16>
    %cst_1 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<4xbf16>
    %7 = stablehlo.maximum %6, %5 : tensor<4xbf16>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<4xbf16>) -> tensor<4x1xbf16>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<4x1xbf16>) -> tensor<4x16xbf16>
    %10 = stablehlo.subtract %arg0, %9 : tensor<4x16xbf16>
    %11 = stablehlo.exponential %10 : tensor<4x16xbf16>
    %12 = stablehlo.convert %11 : (tensor<4x16xbf16>) -> tensor<4x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %15 = stablehlo.convert %14 : (tensor<4x1xf32>) -> tensor<4x1xbf16>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<4x1xbf16>) -> tensor<4x16xbf16>
    %17 = stablehlo.divide %11, %16 : tensor<4x16xbf16>
    %18 = stablehlo.convert %arg0 : (tensor<4x16xbf16>) -> tensor<4x16xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    return %0, %1, %4, %17, %19 : tensor<4x16xbf16>, tensor<4x16xbf16>, tensor<4x16xbf16>, tensor<4x16xbf16>, tensor<4xf32>
  }
}
