module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}, tensor<8x8xf32> {jax.result_info = "result[2]"}, tensor<8x8xf32> {jax.result_info = "result[3]"}, tensor<8x8xf32> {jax.result_info = "result[4]"}, tensor<8x8xf32> {jax.result_info = "result[5]"}, tensor<8x8xf32> {jax.result_info = "result[6]"}) {
    %cst = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.699999988> : tensor<f32>
    %0 = call @clip(%arg0, %cst, %cst_0) : (tensor<8x8xf32>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>
    %1 = call @round(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.floor %arg0 : tensor<8x8xf32>
    %3 = stablehlo.ceil %arg0 : tensor<8x8xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %5 = stablehlo.multiply %arg0, %4 : tensor<8x8xf32>
    %6 = call @rint(%5) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %7 = stablehlo.sign %arg0 : tensor<8x8xf32>
    %8 = stablehlo.round_nearest_afz %arg0 : tensor<8x8xf32>
    return %0, %1, %2, %3, %6, %7, %8 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func private @clip(%arg0: tensor<8x8xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x8xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8x8xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
  func.func private @round(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @rint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
