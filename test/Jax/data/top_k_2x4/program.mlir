module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x2xf32> {jax.result_info = "result[0]"}, tensor<8x2xi32> {jax.result_info = "result[1]"}) {
    %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<8x16xf32> -> (tensor<8x2xf32>, tensor<8x2xi32>)
    return %values, %indices : tensor<8x2xf32>, tensor<8x2xi32>
  }
}
