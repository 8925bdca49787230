module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<32> : tensor<i32>
    %0 = stablehlo.shift_right_logical %arg0, %c : tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_0 = stablehlo.constant dense<-1> : tensor<i32>
    %3 = stablehlo.and %arg0, %c_0 : tensor<i32>
    %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %6 = stablehlo.concatenate %2, %5, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %7 = stablehlo.concatenate %6, %6, dim = 0 : (tensor<2xui32>, tensor<2xui32>) -> tensor<4xui32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %8 = call @_bernoulli(%7, %cst) : (tensor<4xui32>, tensor<f32>) -> tensor<8x8xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = call @_where(%8, %arg1, %cst_1) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
    return %9 : tensor<8x8xf32>
  }
  func.func private @_bernoulli(%arg0: tensor<4xui32>, %arg1: tensor<f32>) -> tensor<8x8xi1> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<4xui32>, tensor<f32>, tensor<f32>) -> tensor<8x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %2 = stablehlo.compare LT, %0, %1, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    return %2 : tensor<8x8xi1>
  }
  func.func private @_uniform(%arg0: tensor<4xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x8xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %5 = stablehlo.bitcast_convert %4 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %5, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x8xui32>)
    %6 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %7 = stablehlo.reshape %6 : (tensor<2x2xui32>) -> tensor<4xui32>
    %c = stablehlo.constant dense<9> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<8x8xui32>
    %9 = stablehlo.shift_right_logical %output, %8 : tensor<8x8xui32>
    %c_0 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %10 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<8x8xui32>
    %11 = stablehlo.or %9, %10 : tensor<8x8xui32>
    %12 = stablehlo.bitcast_convert %11 : (tensor<8x8xui32>) -> tensor<8x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %14 = stablehlo.subtract %12, %13 : tensor<8x8xf32>
    %15 = stablehlo.subtract %3, %2 : tensor<1x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x8xf32>
    %17 = stablehlo.multiply %14, %16 : tensor<8x8xf32>
    %18 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x8xf32>
    %19 = stablehlo.add %17, %18 : tensor<8x8xf32>
    %20 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x8xf32>
    %21 = stablehlo.maximum %20, %19 : tensor<8x8xf32>
    return %21 : tensor<8x8xf32>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<8x8xf32>, %arg2: tensor<f32>) -> tensor<8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<8x8xi1>, tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
