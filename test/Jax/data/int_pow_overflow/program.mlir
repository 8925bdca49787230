module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xi32>) -> (tensor<16xi32> {jax.result_info = "result[0]"}, tensor<16xi32> {jax.result_info = "result[1]"}, tensor<16xi32> {jax.result_info = "result[2]"}, tensor<16xi32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<16xi32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<16xi32>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<16xi32>
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %4 = stablehlo.multiply %arg0, %3 : tensor<16xi32>
    %c_0 = stablehlo.constant dense<2147483600> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %6 = stablehlo.add %arg0, %5 : tensor<16xi32>
    return %1, %2, %4, %6 : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>
  }
}
