module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp"}, {}]>}) -> (tensor<8x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data", "fsdp"}]>}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"data", "fsdp"}, {}]> : tensor<8x8xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<8x8xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{"data", "fsdp"}, {}]> : tensor<8x8xf32>
    %4 = sdy.sharding_constraint %3 <@mesh, [{"model"}, {"data"}]> : tensor<8x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = sdy.sharding_constraint %5 <@mesh, [{"model"}, {"data"}]> : tensor<8x8xf32>
    %7 = stablehlo.add %4, %6 : tensor<8x8xf32>
    %8 = sdy.sharding_constraint %7 <@mesh, [{"model"}, {"data"}]> : tensor<8x8xf32>
    %9 = sdy.sharding_constraint %8 <@mesh, [{}, {"data", "fsdp"}]> : tensor<8x8xf32>
    return %9 : tensor<8x8xf32>
  }
}
