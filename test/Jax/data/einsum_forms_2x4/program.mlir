module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<4x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<16x8xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}, tensor<4x8x8xf32> {jax.result_info = "result[3]"}, tensor<16x16xf32> {jax.result_info = "result[4]"}, tensor<f32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %2 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32>
    %3 = stablehlo.dot_general %arg2, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %4 = stablehlo.slice %arg0 [0:1, 0:16] : (tensor<8x16xf32>) -> tensor<1x16xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x16xf32>) -> tensor<16xf32>
    %6 = stablehlo.slice %arg1 [0:16, 0:1] : (tensor<16x8xf32>) -> tensor<16x1xf32>
    %7 = stablehlo.reshape %6 : (tensor<16x1xf32>) -> tensor<16xf32>
    %8 = stablehlo.dot_general %5, %7, contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<16xf32>, tensor<16xf32>) -> tensor<16x16xf32>
    %9 = stablehlo.slice %arg0 [0:1, 0:16] : (tensor<8x16xf32>) -> tensor<1x16xf32>
    %10 = stablehlo.reshape %9 : (tensor<1x16xf32>) -> tensor<16xf32>
    %11 = stablehlo.slice %arg1 [0:16, 1:2] : (tensor<16x8xf32>) -> tensor<16x1xf32>
    %12 = stablehlo.reshape %11 : (tensor<16x1xf32>) -> tensor<16xf32>
    %13 = stablehlo.dot_general %10, %12, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16xf32>, tensor<16xf32>) -> tensor<f32>
    return %0, %1, %2, %3, %8, %13 : tensor<8x8xf32>, tensor<16x8xf32>, tensor<f32>, tensor<4x8x8xf32>, tensor<16x16xf32>, tensor<f32>
  }
}
