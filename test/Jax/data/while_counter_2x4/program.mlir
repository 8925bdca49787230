module @jit_while_count attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c, %iterArg_1 = %arg1) : tensor<i32>, tensor<i32>, tensor<8x16xf32>
    cond {
      %1 = stablehlo.compare LT, %iterArg_0, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_0, %c_2 : tensor<i32>
      %cst = stablehlo.constant dense<1.100000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %3 = stablehlo.multiply %iterArg_1, %2 : tensor<8x16xf32>
      %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %5 = stablehlo.add %3, %4 : tensor<8x16xf32>
      stablehlo.return %iterArg, %1, %5 : tensor<i32>, tensor<i32>, tensor<8x16xf32>
    }
    return %0#2 : tensor<8x16xf32>
  }
}
