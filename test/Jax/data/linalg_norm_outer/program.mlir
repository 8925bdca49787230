module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x12xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<12x12xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}, tensor<8x8xf32> {jax.result_info = "result[3]"}, tensor<8x8xf32> {jax.result_info = "result[4]"}) {
    %0 = call @norm(%arg0) : (tensor<8x12xf32>) -> tensor<8xf32>
    %1 = stablehlo.slice %arg0 [0:1, 0:12] : (tensor<8x12xf32>) -> tensor<1x12xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x12xf32>) -> tensor<12xf32>
    %3 = stablehlo.slice %arg0 [1:2, 0:12] : (tensor<8x12xf32>) -> tensor<1x12xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x12xf32>) -> tensor<12xf32>
    %5 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<12xf32>) -> tensor<1x12xf32>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x12xf32>
    %8 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<12x12xf32>
    %9 = stablehlo.multiply %7, %8 : tensor<12x12xf32>
    %10 = stablehlo.slice %arg0 [0:8, 0:8] : (tensor<8x12xf32>) -> tensor<8x8xf32>
    %11 = call @trace(%10) : (tensor<8x8xf32>) -> tensor<f32>
    %12 = stablehlo.slice %arg0 [0:8, 0:8] : (tensor<8x12xf32>) -> tensor<8x8xf32>
    %13 = call @tril(%12) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %14 = stablehlo.slice %arg0 [0:8, 0:8] : (tensor<8x12xf32>) -> tensor<8x8xf32>
    %15 = call @triu(%14) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0, %9, %11, %13, %15 : tensor<8xf32>, tensor<12x12xf32>, tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func private @norm(%arg0: tensor<8x12xf32>) -> tensor<8xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x12xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x12xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.sqrt %1 : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func private @trace(%arg0: tensor<8x8xf32>) -> tensor<f32> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %1 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %3 = stablehlo.add %0, %2 : tensor<8x8xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = call @_where(%4, %arg0, %5) : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>
    return %7 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x8xi1>, tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @tril(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xf32>
    return %6 : tensor<8x8xf32>
  }
  func.func private @triu(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %6 = stablehlo.select %4, %5, %arg0 : tensor<8x8xi1>, tensor<8x8xf32>
    return %6 : tensor<8x8xf32>
  }
}
