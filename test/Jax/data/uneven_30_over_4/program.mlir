module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<30x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<30x6xf32> {jax.result_info = "result"}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"model"}, {}]> : tensor<30x8xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<30x8xf32>, tensor<8x6xf32>) -> tensor<30x6xf32>
    %2 = stablehlo.tanh %1 : tensor<30x6xf32>
    return %2 : tensor<30x6xf32>
  }
}
