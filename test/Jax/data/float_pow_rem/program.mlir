module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>) -> (tensor<32xf32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1]"}, tensor<32xf32> {jax.result_info = "result[2]"}, tensor<32xf32> {jax.result_info = "result[3]"}, tensor<32xf32> {jax.result_info = "result[4]"}, tensor<32xf32> {jax.result_info = "result[5]"}, tensor<32xf32> {jax.result_info = "result[6]"}) {
    %0 = stablehlo.abs %arg0 : tensor<32xf32>
    %1 = stablehlo.power %0, %arg1 : tensor<32xf32>
    %cst = stablehlo.constant dense<0.699999988> : tensor<f32>
    %2 = call @fmod(%arg0, %cst) : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
    %cst_0 = stablehlo.constant dense<0.699999988> : tensor<f32>
    %3 = call @remainder(%arg0, %cst_0) : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
    %4 = stablehlo.multiply %arg0, %arg0 : tensor<32xf32>
    %5 = stablehlo.multiply %arg0, %arg0 : tensor<32xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %8 = stablehlo.divide %7, %arg0 : tensor<32xf32>
    %9 = stablehlo.abs %arg0 : tensor<32xf32>
    %10 = stablehlo.sqrt %9 : tensor<32xf32>
    return %1, %2, %3, %4, %6, %8, %10 : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  }
  func.func private @fmod(%arg0: tensor<32xf32>, %arg1: tensor<f32>) -> tensor<32xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<32xf32>
    return %2 : tensor<32xf32>
  }
  func.func private @remainder(%arg0: tensor<32xf32>, %arg1: tensor<f32>) -> tensor<32xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %4 = stablehlo.compare NE, %2, %3, FLOAT : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %6 = stablehlo.compare LT, %2, %5, FLOAT : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.compare LT, %0, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<i1>) -> tensor<32xi1>
    %9 = stablehlo.compare NE, %6, %8, UNSIGNED : (tensor<32xi1>, tensor<32xi1>) -> tensor<32xi1>
    %10 = stablehlo.and %9, %4 : tensor<32xi1>
    %11 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %12 = stablehlo.add %2, %11 : tensor<32xf32>
    %13 = stablehlo.select %10, %12, %2 : tensor<32xi1>, tensor<32xf32>
    return %13 : tensor<32xf32>
  }
}
