module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>) -> (tensor<32xf32> {jax.result_info = "result[0]"}, tensor<32xf16> {jax.result_info = "result[1]"}, tensor<32xi32> {jax.result_info = "result[2]"}, tensor<32xi8> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<32xf32>) -> tensor<32xbf16>
    %1 = stablehlo.convert %0 : (tensor<32xbf16>) -> tensor<32xf32>
    %2 = stablehlo.convert %arg0 : (tensor<32xf32>) -> tensor<32xf16>
    %3 = stablehlo.convert %arg0 : (tensor<32xf32>) -> tensor<32xi32>
    %cst = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %5 = stablehlo.multiply %arg0, %4 : tensor<32xf32>
    %6 = stablehlo.convert %5 : (tensor<32xf32>) -> tensor<32xi8>
    return %1, %2, %3, %6 : tensor<32xf32>, tensor<32xf16>, tensor<32xi32>, tensor<32xi8>
  }
}
