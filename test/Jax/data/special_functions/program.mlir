module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>) -> (tensor<64xf32> {jax.result_info = "result[0]"}, tensor<64xf32> {jax.result_info = "result[1]"}, tensor<64xf32> {jax.result_info = "result[2]"}, tensor<64xf32> {jax.result_info = "result[3]"}, tensor<64xf32> {jax.result_info = "result[4]"}, tensor<64xf32> {jax.result_info = "result[5]"}, tensor<64xf32> {jax.result_info = "result[6]"}, tensor<64xf32> {jax.result_info = "result[7]"}, tensor<64xf32> {jax.result_info = "result[8]"}, tensor<64xf32> {jax.result_info = "result[9]"}) {
    %0 = chlo.erf %arg0 : tensor<64xf32> -> tensor<64xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<64xf32>
    %3 = stablehlo.negate %arg0 : tensor<64xf32>
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<64xf32>
    %6 = chlo.erfc %5 : tensor<64xf32> -> tensor<64xf32>
    %7 = stablehlo.multiply %2, %6 : tensor<64xf32>
    %8 = stablehlo.negate %arg0 : tensor<64xf32>
    %9 = stablehlo.exponential %8 : tensor<64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %11 = stablehlo.add %10, %9 : tensor<64xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %13 = stablehlo.divide %12, %11 : tensor<64xf32>
    %14 = call @softplus(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %cst_3 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %16 = stablehlo.atan2 %arg0, %15 : tensor<64xf32>
    %17 = stablehlo.abs %arg0 : tensor<64xf32>
    %18 = stablehlo.log_plus_one %17 : tensor<64xf32>
    %19 = stablehlo.exponential_minus_one %arg0 : tensor<64xf32>
    %20 = stablehlo.cbrt %arg0 : tensor<64xf32>
    %21 = stablehlo.tanh %arg0 : tensor<64xf32>
    %cst_4 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %23 = stablehlo.multiply %21, %22 : tensor<64xf32>
    %24 = chlo.erf_inv %23 : tensor<64xf32> -> tensor<64xf32>
    %25 = chlo.erfc %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0, %7, %13, %14, %16, %18, %19, %20, %24, %25 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  }
  func.func private @softplus(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<64xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<64xf32>
    %4 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<64xf32>
    %7 = stablehlo.abs %3 : tensor<64xf32>
    %8 = stablehlo.negate %7 : tensor<64xf32>
    %9 = stablehlo.exponential %8 : tensor<64xf32>
    %10 = stablehlo.log_plus_one %9 : tensor<64xf32>
    %11 = stablehlo.add %1, %10 : tensor<64xf32>
    %12 = stablehlo.select %4, %6, %11 : tensor<64xi1>, tensor<64xf32>
    return %12 : tensor<64xf32>
  }
}
