module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x16x32xf32>, %arg2: tensor<8x32x16xf32>, %arg3: tensor<16x16xf32>) -> (tensor<16x2xf32> {jax.result_info = "result[0]"}, tensor<16x2xi32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<16xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<16x8xf32>
    %7 = stablehlo.exponential %6 : tensor<16x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %11 = stablehlo.divide %7, %10 : tensor<16x8xf32>
    %values, %indices = chlo.top_k(%11, k = 2) : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%values init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %15 = stablehlo.divide %values, %14 : tensor<16x2xf32>
    return %15, %indices : tensor<16x2xf32>, tensor<16x2xi32>
  }
}
