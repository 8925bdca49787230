module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xi1> {jax.result_info = "result[0]"}, tensor<i1> {jax.result_info = "result[1]"}, tensor<i1> {jax.result_info = "result[2]"}, tensor<8x8xf32> {jax.result_info = "result[3]"}, tensor<i32> {jax.result_info = "result[4]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %3 = stablehlo.compare LT, %arg1, %2, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %4 = stablehlo.and %1, %3 : tensor<8x8xi1>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = stablehlo.compare GT, %arg0, %5, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %7 = stablehlo.reduce(%6 init: %c) applies stablehlo.or across dimensions = [0, 1] : (tensor<8x8xi1>, tensor<i1>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %9 = stablehlo.compare LT, %arg1, %8, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %10 = stablehlo.reduce(%9 init: %c_3) applies stablehlo.and across dimensions = [0, 1] : (tensor<8x8xi1>, tensor<i1>) -> tensor<i1>
    %11 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %12 = call @_where(%11, %arg0, %arg1) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %14 = stablehlo.compare GT, %arg0, %13, FLOAT : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %15 = call @count_nonzero(%14) : (tensor<8x8xi1>) -> tensor<i32>
    return %4, %7, %10, %12, %15 : tensor<8x8xi1>, tensor<i1>, tensor<i1>, tensor<8x8xf32>, tensor<i32>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x8xi1>, tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @count_nonzero(%arg0: tensor<8x8xi1>) -> tensor<i32> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %1 = stablehlo.compare NE, %arg0, %0, UNSIGNED : (tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %2 = stablehlo.convert %1 : (tensor<8x8xi1>) -> tensor<8x8xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.reduce(%2 init: %c_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8xi32>, tensor<i32>) -> tensor<i32>
    return %3 : tensor<i32>
  }
}
