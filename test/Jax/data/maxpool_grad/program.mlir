module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8x8x4xf32>) -> (tensor<8x8x8x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %11 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %11 : tensor<f32>
    }) : (tensor<8x8x8x4xf32>, tensor<f32>) -> tensor<8x4x4x4xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<8x4x4x4xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x4x4x4xf32>
    %4 = stablehlo.multiply %3, %1 : tensor<8x4x4x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%2 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<8x4x4x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x4x4x4xf32>
    %7 = stablehlo.multiply %6, %4 : tensor<8x4x4x4xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = stablehlo.pad %arg0, %cst_3, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<8x8x8x4xf32>, tensor<f32>) -> tensor<8x8x8x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = "stablehlo.select_and_scatter"(%8, %7, %cst_4) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %11 = stablehlo.compare GE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %11 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %11 : tensor<f32>
    }) : (tensor<8x8x8x4xf32>, tensor<8x4x4x4xf32>, tensor<f32>) -> tensor<8x8x8x4xf32>
    %10 = stablehlo.slice %9 [0:8, 0:8, 0:8, 0:4] : (tensor<8x8x8x4xf32>) -> tensor<8x8x8x4xf32>
    return %10 : tensor<8x8x8x4xf32>
  }
}
