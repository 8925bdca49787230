module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<4x32xf32> {jax.result_info = "result[0]"}, tensor<2x16xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<16x8xf32>) -> tensor<4x32xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<4x32xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<8x16xf32>) -> tensor<2x4x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<2x4x16xf32>, tensor<f32>) -> tensor<2x16xf32>
    return %3, %5 : tensor<4x32xf32>, tensor<2x16xf32>
  }
}
