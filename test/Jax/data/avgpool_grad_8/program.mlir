module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x8x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}) -> (tensor<8x8x8x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %14 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<8x8x8x4xf32>, tensor<f32>) -> tensor<8x4x4x4xf32>
    %cst_0 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x4x4x4xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8x4x4x4xf32>
    %4 = stablehlo.sine %3 : tensor<8x4x4x4xf32>
    %5 = stablehlo.cosine %3 : tensor<8x4x4x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%4 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<8x4x4x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x4x4x4xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<8x4x4x4xf32>
    %cst_3 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x4x4x4xf32>
    %10 = stablehlo.divide %8, %9 : tensor<8x4x4x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.pad %10, %cst_4, low = [0, 2, 2, 0], high = [0, 1, 1, 0], interior = [0, 1, 1, 0] : (tensor<8x4x4x4xf32>, tensor<f32>) -> tensor<8x10x10x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<f32>
    %13 = "stablehlo.reduce_window"(%11, %12) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %14 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<8x10x10x4xf32>, tensor<f32>) -> tensor<8x8x8x4xf32>
    return %13 : tensor<8x8x8x4xf32>
  }
}
