module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<16x16xf32> {jax.result_info = "result[0]"}, tensor<8x16xf32> {jax.result_info = "result[1]"}, tensor<8x16xf32> {jax.result_info = "result[2]"}, tensor<8x16xf32> {jax.result_info = "result[3]"}, tensor<4x16xf32> {jax.result_info = "result[4]"}, tensor<8x4xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<8x16xf32>
    %1 = stablehlo.negate %0 : tensor<8x16xf32>
    %2 = stablehlo.concatenate %arg0, %1, dim = 0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %3 = call @_flip(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = stablehlo.iota dim = 0 : tensor<16xi32>
    %5 = stablehlo.convert %4 : (tensor<16xi32>) -> tensor<16xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %8 = stablehlo.add %arg0, %7 : tensor<8x16xf32>
    %9 = call @_roll_static(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %10 = stablehlo.slice %arg0 [0:2, 0:16] : (tensor<8x16xf32>) -> tensor<2x16xf32>
    %11 = stablehlo.reshape %10 : (tensor<2x16xf32>) -> tensor<1x2x1x16xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x2x1x16xf32>) -> tensor<2x2x1x16xf32>
    %13 = stablehlo.reshape %12 : (tensor<2x2x1x16xf32>) -> tensor<4x16xf32>
    %14 = stablehlo.slice %arg0 [0:8, 0:2] : (tensor<8x16xf32>) -> tensor<8x2xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x2xf32>
    %16 = stablehlo.reshape %15 : (tensor<8x2x2xf32>) -> tensor<8x4xf32>
    return %2, %3, %8, %9, %13, %16 : tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<8x4xf32>
  }
  func.func private @_flip(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @_roll_static(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.slice %arg0 [0:8, 13:16] : (tensor<8x16xf32>) -> tensor<8x3xf32>
    %1 = stablehlo.slice %arg0 [0:8, 0:13] : (tensor<8x16xf32>) -> tensor<8x13xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<8x3xf32>, tensor<8x13xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
