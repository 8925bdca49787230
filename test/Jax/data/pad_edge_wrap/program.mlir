module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<6x6xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = call @_pad(%arg0, %c) : (tensor<4x4xf32>, tensor<i32>) -> tensor<8x8xf32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = call @_pad_0(%arg0, %c_0) : (tensor<4x4xf32>, tensor<i32>) -> tensor<6x6xf32>
    return %0, %1 : tensor<8x8xf32>, tensor<6x6xf32>
  }
  func.func private @_pad(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>) -> tensor<8x8xf32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 2] : (tensor<1x4xf32>) -> tensor<1x2x4xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x2x4xf32>) -> tensor<2x4xf32>
    %3 = stablehlo.slice %arg0 [3:4, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x4xf32>) -> tensor<1x2x4xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x2x4xf32>) -> tensor<2x4xf32>
    %6 = stablehlo.concatenate %2, %arg0, %5, dim = 0 : (tensor<2x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>) -> tensor<8x4xf32>
    %7 = stablehlo.slice %6 [0:8, 0:1] : (tensor<8x4xf32>) -> tensor<8x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x1x2xf32>
    %9 = stablehlo.reshape %8 : (tensor<8x1x2xf32>) -> tensor<8x2xf32>
    %10 = stablehlo.slice %6 [0:8, 3:4] : (tensor<8x4xf32>) -> tensor<8x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x1x2xf32>
    %12 = stablehlo.reshape %11 : (tensor<8x1x2xf32>) -> tensor<8x2xf32>
    %13 = stablehlo.concatenate %9, %6, %12, dim = 1 : (tensor<8x2xf32>, tensor<8x4xf32>, tensor<8x2xf32>) -> tensor<8x8xf32>
    return %13 : tensor<8x8xf32>
  }
  func.func private @_pad_0(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>) -> tensor<6x6xf32> {
    %0 = stablehlo.slice %arg0 [3:4, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.slice %arg0 [0:1, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %2 = stablehlo.concatenate %0, %arg0, %1, dim = 0 : (tensor<1x4xf32>, tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<6x4xf32>
    %3 = stablehlo.slice %2 [0:6, 3:4] : (tensor<6x4xf32>) -> tensor<6x1xf32>
    %4 = stablehlo.slice %2 [0:6, 0:1] : (tensor<6x4xf32>) -> tensor<6x1xf32>
    %5 = stablehlo.concatenate %3, %2, %4, dim = 1 : (tensor<6x1xf32>, tensor<6x4xf32>, tensor<6x1xf32>) -> tensor<6x6xf32>
    return %5 : tensor<6x6xf32>
  }
}
