module @jit_assoc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf32>) -> (tensor<5x7xf32> {jax.result_info = "result[0]"}, tensor<5x7xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.slice %arg0 [0:5, 0:6:2] : (tensor<5x7xf32>) -> tensor<5x3xf32>
    %1 = stablehlo.slice %arg0 [0:5, 1:7:2] : (tensor<5x7xf32>) -> tensor<5x3xf32>
    %2 = stablehlo.add %0, %1 : tensor<5x3xf32>
    %3 = stablehlo.slice %2 [0:5, 0:2:2] : (tensor<5x3xf32>) -> tensor<5x1xf32>
    %4 = stablehlo.slice %2 [0:5, 1:3:2] : (tensor<5x3xf32>) -> tensor<5x1xf32>
    %5 = stablehlo.add %3, %4 : tensor<5x1xf32>
    %6 = stablehlo.slice %2 [0:5, 2:3:2] : (tensor<5x3xf32>) -> tensor<5x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<5x1xf32>
    %8 = stablehlo.slice %2 [0:5, 0:1] : (tensor<5x3xf32>) -> tensor<5x1xf32>
    %9 = stablehlo.concatenate %8, %7, dim = 1 : (tensor<5x1xf32>, tensor<5x1xf32>) -> tensor<5x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.pad %9, %cst, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<5x2xf32>, tensor<f32>) -> tensor<5x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.pad %5, %cst_0, low = [0, 1], high = [0, 1], interior = [0, 1] : (tensor<5x1xf32>, tensor<f32>) -> tensor<5x3xf32>
    %12 = stablehlo.add %10, %11 : tensor<5x3xf32>
    %13 = stablehlo.slice %arg0 [0:5, 2:7:2] : (tensor<5x7xf32>) -> tensor<5x3xf32>
    %14 = stablehlo.add %12, %13 : tensor<5x3xf32>
    %15 = stablehlo.slice %arg0 [0:5, 0:1] : (tensor<5x7xf32>) -> tensor<5x1xf32>
    %16 = stablehlo.concatenate %15, %14, dim = 1 : (tensor<5x1xf32>, tensor<5x3xf32>) -> tensor<5x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.pad %16, %cst_1, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<5x7xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.pad %12, %cst_2, low = [0, 1], high = [0, 1], interior = [0, 1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5x7xf32>
    %19 = stablehlo.add %17, %18 : tensor<5x7xf32>
    %20 = stablehlo.slice %arg0 [0:4:2, 0:7] : (tensor<5x7xf32>) -> tensor<2x7xf32>
    %21 = stablehlo.slice %arg0 [1:5:2, 0:7] : (tensor<5x7xf32>) -> tensor<2x7xf32>
    %22 = stablehlo.maximum %20, %21 : tensor<2x7xf32>
    %23 = stablehlo.slice %22 [0:1:2, 0:7] : (tensor<2x7xf32>) -> tensor<1x7xf32>
    %24 = stablehlo.slice %22 [1:2:2, 0:7] : (tensor<2x7xf32>) -> tensor<1x7xf32>
    %25 = stablehlo.maximum %23, %24 : tensor<1x7xf32>
    %26 = stablehlo.slice %25 [0:0, 0:7] : (tensor<1x7xf32>) -> tensor<0x7xf32>
    %27 = stablehlo.slice %22 [2:2:2, 0:7] : (tensor<2x7xf32>) -> tensor<0x7xf32>
    %28 = stablehlo.maximum %26, %27 : tensor<0x7xf32>
    %29 = stablehlo.slice %22 [0:1, 0:7] : (tensor<2x7xf32>) -> tensor<1x7xf32>
    %30 = stablehlo.concatenate %29, %28, dim = 0 : (tensor<1x7xf32>, tensor<0x7xf32>) -> tensor<1x7xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.pad %30, %cst_3, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<1x7xf32>, tensor<f32>) -> tensor<2x7xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.pad %25, %cst_4, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<1x7xf32>, tensor<f32>) -> tensor<2x7xf32>
    %33 = stablehlo.add %31, %32 : tensor<2x7xf32>
    %34 = stablehlo.slice %arg0 [2:5:2, 0:7] : (tensor<5x7xf32>) -> tensor<2x7xf32>
    %35 = stablehlo.maximum %33, %34 : tensor<2x7xf32>
    %36 = stablehlo.slice %arg0 [0:1, 0:7] : (tensor<5x7xf32>) -> tensor<1x7xf32>
    %37 = stablehlo.concatenate %36, %35, dim = 0 : (tensor<1x7xf32>, tensor<2x7xf32>) -> tensor<3x7xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.pad %37, %cst_5, low = [0, 0], high = [0, 0], interior = [1, 0] : (tensor<3x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.pad %33, %cst_6, low = [1, 0], high = [1, 0], interior = [1, 0] : (tensor<2x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    %40 = stablehlo.add %38, %39 : tensor<5x7xf32>
    return %19, %40 : tensor<5x7xf32>, tensor<5x7xf32>
  }
}
