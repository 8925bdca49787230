module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<16x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = call @closed_call(%c, %arg0) : (tensor<i32>, tensor<16x4xf32>) -> (tensor<i32>, tensor<16x4xf32>)
    %1:2 = call @closed_call(%0#0, %0#1) : (tensor<i32>, tensor<16x4xf32>) -> (tensor<i32>, tensor<16x4xf32>)
    %2:2 = call @closed_call(%1#0, %1#1) : (tensor<i32>, tensor<16x4xf32>) -> (tensor<i32>, tensor<16x4xf32>)
    return %2#1 : tensor<16x4xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<16x4xf32>) -> (tensor<i32>, tensor<16x4xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<16x4xf32>
    %3 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<16x4xf32>
    %5 = stablehlo.subtract %2, %4 : tensor<16x4xf32>
    return %0, %5 : tensor<i32>, tensor<16x4xf32>
  }
}
