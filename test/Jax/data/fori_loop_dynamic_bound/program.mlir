module @jit_fori_dynamic attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0, %iterArg_1 = %arg1) : tensor<i32>, tensor<i32>, tensor<8xf32>
    cond {
      %1 = stablehlo.compare LT, %iterArg, %iterArg_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      %2 = stablehlo.cosine %iterArg_1 : tensor<8xf32>
      %3 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
      %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %5 = stablehlo.multiply %2, %4 : tensor<8xf32>
      %6 = stablehlo.add %iterArg_1, %5 : tensor<8xf32>
      stablehlo.return %1, %iterArg_0, %6 : tensor<i32>, tensor<i32>, tensor<8xf32>
    }
    return %0#2 : tensor<8xf32>
  }
}
