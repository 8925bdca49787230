module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<6x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x10xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x10xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"model"}, {"data"}]> : tensor<6x10xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    return %3 : tensor<6xf32>
  }
}
