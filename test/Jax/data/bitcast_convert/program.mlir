module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<16xi32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<16xf32>) -> tensor<16xi32>
    %1 = stablehlo.convert %arg0 : (tensor<16xf32>) -> tensor<16xi32>
    %2 = stablehlo.bitcast_convert %1 : (tensor<16xi32>) -> tensor<16xf32>
    return %0, %2 : tensor<16xi32>, tensor<16xf32>
  }
}
