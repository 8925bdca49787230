module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xui8>) -> (tensor<16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<16x64xui8>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<2.550000e+02> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %2 = stablehlo.divide %0, %1 : tensor<16x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_1 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %5 = stablehlo.divide %3, %4 : tensor<16xf32>
    return %5 : tensor<16xf32>
  }
}
