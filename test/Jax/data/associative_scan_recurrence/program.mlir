module @jit_linear_recurrence attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x4xf32>, %arg1: tensor<16x4xf32>) -> (tensor<16x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:15:2, 0:4] : (tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.slice %arg1 [0:15:2, 0:4] : (tensor<16x4xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.slice %arg0 [1:16:2, 0:4] : (tensor<16x4xf32>) -> tensor<8x4xf32>
    %3 = stablehlo.slice %arg1 [1:16:2, 0:4] : (tensor<16x4xf32>) -> tensor<8x4xf32>
    %4 = stablehlo.multiply %2, %0 : tensor<8x4xf32>
    %5 = stablehlo.multiply %2, %1 : tensor<8x4xf32>
    %6 = stablehlo.add %5, %3 : tensor<8x4xf32>
    %7 = stablehlo.slice %4 [0:7:2, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %8 = stablehlo.slice %6 [0:7:2, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %9 = stablehlo.slice %4 [1:8:2, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %10 = stablehlo.slice %6 [1:8:2, 0:4] : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %11 = stablehlo.multiply %9, %7 : tensor<4x4xf32>
    %12 = stablehlo.multiply %9, %8 : tensor<4x4xf32>
    %13 = stablehlo.add %12, %10 : tensor<4x4xf32>
    %14 = stablehlo.slice %11 [0:3:2, 0:4] : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %15 = stablehlo.slice %13 [0:3:2, 0:4] : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %16 = stablehlo.slice %11 [1:4:2, 0:4] : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %17 = stablehlo.slice %13 [1:4:2, 0:4] : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %18 = stablehlo.multiply %16, %14 : tensor<2x4xf32>
    %19 = stablehlo.multiply %16, %15 : tensor<2x4xf32>
    %20 = stablehlo.add %19, %17 : tensor<2x4xf32>
    %21 = stablehlo.slice %18 [0:1:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %22 = stablehlo.slice %20 [0:1:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %23 = stablehlo.slice %18 [1:2:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %24 = stablehlo.slice %20 [1:2:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %25 = stablehlo.multiply %23, %21 : tensor<1x4xf32>
    %26 = stablehlo.multiply %23, %22 : tensor<1x4xf32>
    %27 = stablehlo.add %26, %24 : tensor<1x4xf32>
    %28 = stablehlo.slice %25 [0:0, 0:4] : (tensor<1x4xf32>) -> tensor<0x4xf32>
    %29 = stablehlo.slice %27 [0:0, 0:4] : (tensor<1x4xf32>) -> tensor<0x4xf32>
    %30 = stablehlo.slice %18 [2:2:2, 0:4] : (tensor<2x4xf32>) -> tensor<0x4xf32>
    %31 = stablehlo.slice %20 [2:2:2, 0:4] : (tensor<2x4xf32>) -> tensor<0x4xf32>
    %32 = stablehlo.multiply %30, %28 : tensor<0x4xf32>
    %33 = stablehlo.multiply %30, %29 : tensor<0x4xf32>
    %34 = stablehlo.add %33, %31 : tensor<0x4xf32>
    %35 = stablehlo.slice %18 [0:1, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %36 = stablehlo.concatenate %35, %32, dim = 0 : (tensor<1x4xf32>, tensor<0x4xf32>) -> tensor<1x4xf32>
    %37 = stablehlo.slice %20 [0:1, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %38 = stablehlo.concatenate %37, %34, dim = 0 : (tensor<1x4xf32>, tensor<0x4xf32>) -> tensor<1x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.pad %36, %cst, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.pad %25, %cst_0, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %41 = stablehlo.add %39, %40 : tensor<2x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.pad %38, %cst_1, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.pad %27, %cst_2, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %44 = stablehlo.add %42, %43 : tensor<2x4xf32>
    %45 = stablehlo.slice %41 [0:1, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %46 = stablehlo.slice %44 [0:1, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %47 = stablehlo.slice %11 [2:4:2, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %48 = stablehlo.slice %13 [2:4:2, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %49 = stablehlo.multiply %47, %45 : tensor<1x4xf32>
    %50 = stablehlo.multiply %47, %46 : tensor<1x4xf32>
    %51 = stablehlo.add %50, %48 : tensor<1x4xf32>
    %52 = stablehlo.slice %11 [0:1, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %53 = stablehlo.concatenate %52, %49, dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %54 = stablehlo.slice %13 [0:1, 0:4] : (tensor<4x4xf32>) -> tensor<1x4xf32>
    %55 = stablehlo.concatenate %54, %51, dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.pad %53, %cst_3, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.pad %41, %cst_4, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4x4xf32>
    %58 = stablehlo.add %56, %57 : tensor<4x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.pad %55, %cst_5, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4x4xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.pad %44, %cst_6, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4x4xf32>
    %61 = stablehlo.add %59, %60 : tensor<4x4xf32>
    %62 = stablehlo.slice %58 [0:3, 0:4] : (tensor<4x4xf32>) -> tensor<3x4xf32>
    %63 = stablehlo.slice %61 [0:3, 0:4] : (tensor<4x4xf32>) -> tensor<3x4xf32>
    %64 = stablehlo.slice %4 [2:8:2, 0:4] : (tensor<8x4xf32>) -> tensor<3x4xf32>
    %65 = stablehlo.slice %6 [2:8:2, 0:4] : (tensor<8x4xf32>) -> tensor<3x4xf32>
    %66 = stablehlo.multiply %64, %62 : tensor<3x4xf32>
    %67 = stablehlo.multiply %64, %63 : tensor<3x4xf32>
    %68 = stablehlo.add %67, %65 : tensor<3x4xf32>
    %69 = stablehlo.slice %4 [0:1, 0:4] : (tensor<8x4xf32>) -> tensor<1x4xf32>
    %70 = stablehlo.concatenate %69, %66, dim = 0 : (tensor<1x4xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
    %71 = stablehlo.slice %6 [0:1, 0:4] : (tensor<8x4xf32>) -> tensor<1x4xf32>
    %72 = stablehlo.concatenate %71, %68, dim = 0 : (tensor<1x4xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.pad %70, %cst_7, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.pad %58, %cst_8, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    %75 = stablehlo.add %73, %74 : tensor<8x4xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %76 = stablehlo.pad %72, %cst_9, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.pad %61, %cst_10, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<8x4xf32>
    %78 = stablehlo.add %76, %77 : tensor<8x4xf32>
    %79 = stablehlo.slice %75 [0:7, 0:4] : (tensor<8x4xf32>) -> tensor<7x4xf32>
    %80 = stablehlo.slice %78 [0:7, 0:4] : (tensor<8x4xf32>) -> tensor<7x4xf32>
    %81 = stablehlo.slice %arg0 [2:16:2, 0:4] : (tensor<16x4xf32>) -> tensor<7x4xf32>
    %82 = stablehlo.slice %arg1 [2:16:2, 0:4] : (tensor<16x4xf32>) -> tensor<7x4xf32>
    %83 = stablehlo.multiply %81, %79 : tensor<7x4xf32>
    %84 = stablehlo.multiply %81, %80 : tensor<7x4xf32>
    %85 = stablehlo.add %84, %82 : tensor<7x4xf32>
    %86 = stablehlo.slice %arg0 [0:1, 0:4] : (tensor<16x4xf32>) -> tensor<1x4xf32>
    %87 = stablehlo.concatenate %86, %83, dim = 0 : (tensor<1x4xf32>, tensor<7x4xf32>) -> tensor<8x4xf32>
    %88 = stablehlo.slice %arg1 [0:1, 0:4] : (tensor<16x4xf32>) -> tensor<1x4xf32>
    %89 = stablehlo.concatenate %88, %85, dim = 0 : (tensor<1x4xf32>, tensor<7x4xf32>) -> tensor<8x4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.pad %87, %cst_11, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<16x4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.pad %75, %cst_12, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<16x4xf32>
    %92 = stablehlo.add %90, %91 : tensor<16x4xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.pad %89, %cst_13, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<16x4xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %94 = stablehlo.pad %78, %cst_14, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<16x4xf32>
    %95 = stablehlo.add %93, %94 : tensor<16x4xf32>
    return %95 : tensor<16x4xf32>
  }
}
