module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6xf32>) -> (tensor<10x5xf32> {jax.result_info = "result[0]"}, tensor<7x8xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [-1, 1], high = [2, -2], interior = [1, 0] : (tensor<5x6xf32>, tensor<f32>) -> tensor<10x5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = call @_pad(%arg0, %c) : (tensor<5x6xf32>, tensor<i32>) -> tensor<7x8xf32>
    return %0, %1 : tensor<10x5xf32>, tensor<7x8xf32>
  }
  func.func private @_pad(%arg0: tensor<5x6xf32>, %arg1: tensor<i32>) -> tensor<7x8xf32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:6] : (tensor<5x6xf32>) -> tensor<1x6xf32>
    %1 = stablehlo.slice %arg0 [1:2, 0:6] : (tensor<5x6xf32>) -> tensor<1x6xf32>
    %2 = call @_flip(%1) : (tensor<1x6xf32>) -> tensor<1x6xf32>
    %3 = stablehlo.concatenate %2, %arg0, dim = 0 : (tensor<1x6xf32>, tensor<5x6xf32>) -> tensor<6x6xf32>
    %4 = stablehlo.slice %3 [5:6, 0:6] : (tensor<6x6xf32>) -> tensor<1x6xf32>
    %5 = stablehlo.slice %3 [4:5, 0:6] : (tensor<6x6xf32>) -> tensor<1x6xf32>
    %6 = call @_flip(%5) : (tensor<1x6xf32>) -> tensor<1x6xf32>
    %7 = stablehlo.concatenate %3, %6, dim = 0 : (tensor<6x6xf32>, tensor<1x6xf32>) -> tensor<7x6xf32>
    %8 = stablehlo.slice %7 [0:7, 0:1] : (tensor<7x6xf32>) -> tensor<7x1xf32>
    %9 = stablehlo.slice %7 [0:7, 1:3] : (tensor<7x6xf32>) -> tensor<7x2xf32>
    %10 = call @_flip_0(%9) : (tensor<7x2xf32>) -> tensor<7x2xf32>
    %11 = stablehlo.concatenate %10, %7, dim = 1 : (tensor<7x2xf32>, tensor<7x6xf32>) -> tensor<7x8xf32>
    %12 = stablehlo.slice %11 [0:7, 7:8] : (tensor<7x8xf32>) -> tensor<7x1xf32>
    return %11 : tensor<7x8xf32>
  }
  func.func private @_flip(%arg0: tensor<1x6xf32>) -> tensor<1x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<1x6xf32>
    return %0 : tensor<1x6xf32>
  }
  func.func private @_flip_0(%arg0: tensor<7x2xf32>) -> tensor<7x2xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<7x2xf32>
    return %0 : tensor<7x2xf32>
  }
}
