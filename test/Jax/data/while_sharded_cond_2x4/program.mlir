module @jit_while_sharded_cond attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.while(%iterArg = %arg0) : tensor<8x16xf32>
    cond {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.reduce(%iterArg init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
      %cst_0 = stablehlo.constant dense<1.000000e+03> : tensor<f32>
      %2 = stablehlo.compare LT, %1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %2 = stablehlo.multiply %iterArg, %1 : tensor<8x16xf32>
      %cst_0 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
      %4 = stablehlo.add %2, %3 : tensor<8x16xf32>
      stablehlo.return %4 : tensor<8x16xf32>
    }
    return %0 : tensor<8x16xf32>
  }
}
