module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, %arg1: tensor<8x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x16xi32> {jax.result_info = "result[0]"}, tensor<16xi32> {jax.result_info = "result[1]"}, tensor<8xi32> {jax.result_info = "result[2]"}, tensor<8x16xi32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<8x16xi32>
    %2 = stablehlo.subtract %1, %arg1 : tensor<8x16xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.reduce(%arg0 init: %c_0) applies stablehlo.add across dimensions = [0] : (tensor<8x16xi32>, tensor<i32>) -> tensor<16xi32>
    %c_1 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %4 = stablehlo.reduce(%arg1 init: %c_1) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xi32>, tensor<i32>) -> tensor<8xi32>
    %5 = stablehlo.compare GT, %arg0, %arg1, SIGNED : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %6 = stablehlo.convert %5 : (tensor<8x16xi1>) -> tensor<8x16xi32>
    return %2, %3, %4, %6 : tensor<8x16xi32>, tensor<16xi32>, tensor<8xi32>, tensor<8x16xi32>
  }
}
