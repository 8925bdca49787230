module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf32>) -> (tensor<5x2xi32> {jax.result_info = "result"}) {
    %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<5x7xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
    return %indices : tensor<5x2xi32>
  }
}
