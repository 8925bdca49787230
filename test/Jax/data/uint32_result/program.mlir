module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xi32>) -> (tensor<8xui32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<8xi32>) -> tensor<8xui32>
    %c = stablehlo.constant dense<3> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %2 = stablehlo.multiply %0, %1 : tensor<8xui32>
    return %2 : tensor<8xui32>
  }
}
