module @jit_assoc attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "result[0]"}, tensor<8x16xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.slice %arg0 [0:8, 0:15:2] : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.slice %arg0 [0:8, 1:16:2] : (tensor<8x16xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xf32>
    %3 = stablehlo.slice %2 [0:8, 0:7:2] : (tensor<8x8xf32>) -> tensor<8x4xf32>
    %4 = stablehlo.slice %2 [0:8, 1:8:2] : (tensor<8x8xf32>) -> tensor<8x4xf32>
    %5 = stablehlo.add %3, %4 : tensor<8x4xf32>
    %6 = stablehlo.slice %5 [0:8, 0:3:2] : (tensor<8x4xf32>) -> tensor<8x2xf32>
    %7 = stablehlo.slice %5 [0:8, 1:4:2] : (tensor<8x4xf32>) -> tensor<8x2xf32>
    %8 = stablehlo.add %6, %7 : tensor<8x2xf32>
    %9 = stablehlo.slice %8 [0:8, 0:1:2] : (tensor<8x2xf32>) -> tensor<8x1xf32>
    %10 = stablehlo.slice %8 [0:8, 1:2:2] : (tensor<8x2xf32>) -> tensor<8x1xf32>
    %11 = stablehlo.add %9, %10 : tensor<8x1xf32>
    %12 = stablehlo.slice %11 [0:8, 0:0] : (tensor<8x1xf32>) -> tensor<8x0xf32>
    %13 = stablehlo.slice %8 [0:8, 2:2:2] : (tensor<8x2xf32>) -> tensor<8x0xf32>
    %14 = stablehlo.add %12, %13 : tensor<8x0xf32>
    %15 = stablehlo.slice %8 [0:8, 0:1] : (tensor<8x2xf32>) -> tensor<8x1xf32>
    %16 = stablehlo.concatenate %15, %14, dim = 1 : (tensor<8x1xf32>, tensor<8x0xf32>) -> tensor<8x1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.pad %16, %cst, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.pad %11, %cst_0, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x2xf32>
    %19 = stablehlo.add %17, %18 : tensor<8x2xf32>
    %20 = stablehlo.slice %19 [0:8, 0:1] : (tensor<8x2xf32>) -> tensor<8x1xf32>
    %21 = stablehlo.slice %5 [0:8, 2:4:2] : (tensor<8x4xf32>) -> tensor<8x1xf32>
    %22 = stablehlo.add %20, %21 : tensor<8x1xf32>
    %23 = stablehlo.slice %5 [0:8, 0:1] : (tensor<8x4xf32>) -> tensor<8x1xf32>
    %24 = stablehlo.concatenate %23, %22, dim = 1 : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.pad %24, %cst_1, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<8x2xf32>, tensor<f32>) -> tensor<8x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.pad %19, %cst_2, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<8x2xf32>, tensor<f32>) -> tensor<8x4xf32>
    %27 = stablehlo.add %25, %26 : tensor<8x4xf32>
    %28 = stablehlo.slice %27 [0:8, 0:3] : (tensor<8x4xf32>) -> tensor<8x3xf32>
    %29 = stablehlo.slice %2 [0:8, 2:8:2] : (tensor<8x8xf32>) -> tensor<8x3xf32>
    %30 = stablehlo.add %28, %29 : tensor<8x3xf32>
    %31 = stablehlo.slice %2 [0:8, 0:1] : (tensor<8x8xf32>) -> tensor<8x1xf32>
    %32 = stablehlo.concatenate %31, %30, dim = 1 : (tensor<8x1xf32>, tensor<8x3xf32>) -> tensor<8x4xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.pad %32, %cst_3, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.pad %27, %cst_4, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x8xf32>
    %35 = stablehlo.add %33, %34 : tensor<8x8xf32>
    %36 = stablehlo.slice %35 [0:8, 0:7] : (tensor<8x8xf32>) -> tensor<8x7xf32>
    %37 = stablehlo.slice %arg0 [0:8, 2:16:2] : (tensor<8x16xf32>) -> tensor<8x7xf32>
    %38 = stablehlo.add %36, %37 : tensor<8x7xf32>
    %39 = stablehlo.slice %arg0 [0:8, 0:1] : (tensor<8x16xf32>) -> tensor<8x1xf32>
    %40 = stablehlo.concatenate %39, %38, dim = 1 : (tensor<8x1xf32>, tensor<8x7xf32>) -> tensor<8x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.pad %40, %cst_5, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.pad %35, %cst_6, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8x16xf32>
    %43 = stablehlo.add %41, %42 : tensor<8x16xf32>
    %44 = stablehlo.slice %arg0 [0:7:2, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %45 = stablehlo.slice %arg0 [1:8:2, 0:16] : (tensor<8x16xf32>) -> tensor<4x16xf32>
    %46 = stablehlo.maximum %44, %45 : tensor<4x16xf32>
    %47 = stablehlo.slice %46 [0:3:2, 0:16] : (tensor<4x16xf32>) -> tensor<2x16xf32>
    %48 = stablehlo.slice %46 [1:4:2, 0:16] : (tensor<4x16xf32>) -> tensor<2x16xf32>
    %49 = stablehlo.maximum %47, %48 : tensor<2x16xf32>
    %50 = stablehlo.slice %49 [0:1:2, 0:16] : (tensor<2x16xf32>) -> tensor<1x16xf32>
    %51 = stablehlo.slice %49 [1:2:2, 0:16] : (tensor<2x16xf32>) -> tensor<1x16xf32>
    %52 = stablehlo.maximum %50, %51 : tensor<1x16xf32>
    %53 = stablehlo.slice %52 [0:0, 0:16] : (tensor<1x16xf32>) -> tensor<0x16xf32>
    %54 = stablehlo.slice %49 [2:2:2, 0:16] : (tensor<2x16xf32>) -> tensor<0x16xf32>
    %55 = stablehlo.maximum %53, %54 : tensor<0x16xf32>
    %56 = stablehlo.slice %49 [0:1, 0:16] : (tensor<2x16xf32>) -> tensor<1x16xf32>
    %57 = stablehlo.concatenate %56, %55, dim = 0 : (tensor<1x16xf32>, tensor<0x16xf32>) -> tensor<1x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.pad %57, %cst_7, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<1x16xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.pad %52, %cst_8, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<1x16xf32>, tensor<f32>) -> tensor<2x16xf32>
    %60 = stablehlo.add %58, %59 : tensor<2x16xf32>
    %61 = stablehlo.slice %60 [0:1, 0:16] : (tensor<2x16xf32>) -> tensor<1x16xf32>
    %62 = stablehlo.slice %46 [2:4:2, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %63 = stablehlo.maximum %61, %62 : tensor<1x16xf32>
    %64 = stablehlo.slice %46 [0:1, 0:16] : (tensor<4x16xf32>) -> tensor<1x16xf32>
    %65 = stablehlo.concatenate %64, %63, dim = 0 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<2x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.pad %65, %cst_9, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<2x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %67 = stablehlo.pad %60, %cst_10, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<2x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %68 = stablehlo.add %66, %67 : tensor<4x16xf32>
    %69 = stablehlo.slice %68 [0:3, 0:16] : (tensor<4x16xf32>) -> tensor<3x16xf32>
    %70 = stablehlo.slice %arg0 [2:8:2, 0:16] : (tensor<8x16xf32>) -> tensor<3x16xf32>
    %71 = stablehlo.maximum %69, %70 : tensor<3x16xf32>
    %72 = stablehlo.slice %arg0 [0:1, 0:16] : (tensor<8x16xf32>) -> tensor<1x16xf32>
    %73 = stablehlo.concatenate %72, %71, dim = 0 : (tensor<1x16xf32>, tensor<3x16xf32>) -> tensor<4x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.pad %73, %cst_11, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<4x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.pad %68, %cst_12, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<4x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    %76 = stablehlo.add %74, %75 : tensor<8x16xf32>
    return %43, %76 : tensor<8x16xf32>, tensor<8x16xf32>
  }
}
