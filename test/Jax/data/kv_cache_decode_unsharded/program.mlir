module @jit_decode_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<64x32xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<32x8x4xf32>, %arg6: tensor<16x4x32xf32>, %arg7: tensor<32x16x4xf32>, %arg8: tensor<32x8x4xf32>, %arg9: tensor<4x1x32xf32>, %arg10: tensor<4x16x8x4xf32>, %arg11: tensor<4x16x8x4xf32>, %arg12: tensor<i32>) -> (tensor<4x1x32xf32> {jax.result_info = "result[0]"}, tensor<4x16x8x4xf32> {jax.result_info = "result[1]"}, tensor<4x16x8x4xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.multiply %arg9, %arg9 : tensor<4x1x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x1x32xf32>, tensor<f32>) -> tensor<4x1xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x1x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<4x1x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x1x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<4x1x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<4x1x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<4x1x1xf32>) -> tensor<4x1x32xf32>
    %10 = stablehlo.multiply %arg9, %9 : tensor<4x1x32xf32>
    %11 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x1x32xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<4x1x32xf32>
    %14 = stablehlo.dot_general %13, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x32xf32>, tensor<32x16x4xf32>) -> tensor<4x1x16x4xf32>
    %15 = stablehlo.iota dim = 0 : tensor<2xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %17 = stablehlo.multiply %16, %15 : tensor<2xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %19 = stablehlo.add %18, %17 : tensor<2xf32>
    %20 = stablehlo.negate %19 : tensor<2xf32>
    %cst_4 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %22 = stablehlo.divide %20, %21 : tensor<2xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %24 = stablehlo.power %23, %22 : tensor<2xf32>
    %25 = stablehlo.convert %0 : (tensor<1xi32>) -> tensor<1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
    %27 = stablehlo.broadcast_in_dim %24, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %28 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x2xf32>
    %29 = stablehlo.multiply %28, %27 : tensor<1x2xf32>
    %30 = stablehlo.cosine %29 : tensor<1x2xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [1, 3] : (tensor<1x2xf32>) -> tensor<1x1x1x2xf32>
    %32 = stablehlo.sine %29 : tensor<1x2xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [1, 3] : (tensor<1x2xf32>) -> tensor<1x1x1x2xf32>
    %34 = stablehlo.slice %14 [0:4, 0:1, 0:16, 0:4:2] : (tensor<4x1x16x4xf32>) -> tensor<4x1x16x2xf32>
    %35 = stablehlo.slice %14 [0:4, 0:1, 0:16, 1:4:2] : (tensor<4x1x16x4xf32>) -> tensor<4x1x16x2xf32>
    %36 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x16x2xf32>
    %37 = stablehlo.multiply %34, %36 : tensor<4x1x16x2xf32>
    %38 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x16x2xf32>
    %39 = stablehlo.multiply %35, %38 : tensor<4x1x16x2xf32>
    %40 = stablehlo.subtract %37, %39 : tensor<4x1x16x2xf32>
    %41 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x16x2xf32>
    %42 = stablehlo.multiply %34, %41 : tensor<4x1x16x2xf32>
    %43 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x16x2xf32>
    %44 = stablehlo.multiply %35, %43 : tensor<4x1x16x2xf32>
    %45 = stablehlo.add %42, %44 : tensor<4x1x16x2xf32>
    %46 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<4x1x16x2xf32>) -> tensor<4x1x16x2x1xf32>
    %47 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3] : (tensor<4x1x16x2xf32>) -> tensor<4x1x16x2x1xf32>
    %48 = stablehlo.concatenate %46, %47, dim = 4 : (tensor<4x1x16x2x1xf32>, tensor<4x1x16x2x1xf32>) -> tensor<4x1x16x2x2xf32>
    %49 = stablehlo.reshape %48 : (tensor<4x1x16x2x2xf32>) -> tensor<4x1x16x4xf32>
    %50 = stablehlo.dot_general %13, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x32xf32>, tensor<32x8x4xf32>) -> tensor<4x1x8x4xf32>
    %51 = stablehlo.iota dim = 0 : tensor<2xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %53 = stablehlo.multiply %52, %51 : tensor<2xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %55 = stablehlo.add %54, %53 : tensor<2xf32>
    %56 = stablehlo.negate %55 : tensor<2xf32>
    %cst_8 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %58 = stablehlo.divide %56, %57 : tensor<2xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %60 = stablehlo.power %59, %58 : tensor<2xf32>
    %61 = stablehlo.convert %0 : (tensor<1xi32>) -> tensor<1xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0] : (tensor<1xf32>) -> tensor<1x1xf32>
    %63 = stablehlo.broadcast_in_dim %60, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %64 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x2xf32>
    %65 = stablehlo.multiply %64, %63 : tensor<1x2xf32>
    %66 = stablehlo.cosine %65 : tensor<1x2xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [1, 3] : (tensor<1x2xf32>) -> tensor<1x1x1x2xf32>
    %68 = stablehlo.sine %65 : tensor<1x2xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [1, 3] : (tensor<1x2xf32>) -> tensor<1x1x1x2xf32>
    %70 = stablehlo.slice %50 [0:4, 0:1, 0:8, 0:4:2] : (tensor<4x1x8x4xf32>) -> tensor<4x1x8x2xf32>
    %71 = stablehlo.slice %50 [0:4, 0:1, 0:8, 1:4:2] : (tensor<4x1x8x4xf32>) -> tensor<4x1x8x2xf32>
    %72 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x8x2xf32>
    %73 = stablehlo.multiply %70, %72 : tensor<4x1x8x2xf32>
    %74 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x8x2xf32>
    %75 = stablehlo.multiply %71, %74 : tensor<4x1x8x2xf32>
    %76 = stablehlo.subtract %73, %75 : tensor<4x1x8x2xf32>
    %77 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x8x2xf32>
    %78 = stablehlo.multiply %70, %77 : tensor<4x1x8x2xf32>
    %79 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2, 3] : (tensor<1x1x1x2xf32>) -> tensor<4x1x8x2xf32>
    %80 = stablehlo.multiply %71, %79 : tensor<4x1x8x2xf32>
    %81 = stablehlo.add %78, %80 : tensor<4x1x8x2xf32>
    %82 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2, 3] : (tensor<4x1x8x2xf32>) -> tensor<4x1x8x2x1xf32>
    %83 = stablehlo.broadcast_in_dim %81, dims = [0, 1, 2, 3] : (tensor<4x1x8x2xf32>) -> tensor<4x1x8x2x1xf32>
    %84 = stablehlo.concatenate %82, %83, dim = 4 : (tensor<4x1x8x2x1xf32>, tensor<4x1x8x2x1xf32>) -> tensor<4x1x8x2x2xf32>
    %85 = stablehlo.reshape %84 : (tensor<4x1x8x2x2xf32>) -> tensor<4x1x8x4xf32>
    %86 = stablehlo.dot_general %13, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x32xf32>, tensor<32x8x4xf32>) -> tensor<4x1x8x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %87 = stablehlo.compare LT, %arg12, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_10 = stablehlo.constant dense<16> : tensor<i32>
    %88 = stablehlo.add %arg12, %c_10 : tensor<i32>
    %89 = stablehlo.select %87, %88, %arg12 : tensor<i1>, tensor<i32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %90 = stablehlo.dynamic_update_slice %arg10, %85, %c_11, %89, %c_12, %c_13 : (tensor<4x16x8x4xf32>, tensor<4x1x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x8x4xf32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %91 = stablehlo.compare LT, %arg12, %c_14, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_15 = stablehlo.constant dense<16> : tensor<i32>
    %92 = stablehlo.add %arg12, %c_15 : tensor<i32>
    %93 = stablehlo.select %91, %92, %arg12 : tensor<i1>, tensor<i32>
    %c_16 = stablehlo.constant dense<0> : tensor<i32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %94 = stablehlo.dynamic_update_slice %arg11, %86, %c_16, %93, %c_17, %c_18 : (tensor<4x16x8x4xf32>, tensor<4x1x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x8x4xf32>
    %95 = stablehlo.iota dim = 0 : tensor<16xi32>
    %96 = stablehlo.broadcast_in_dim %arg12, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %97 = stablehlo.compare LE, %95, %96, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %98 = stablehlo.broadcast_in_dim %97, dims = [3] : (tensor<16xi1>) -> tensor<1x1x1x16xi1>
    %99 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2, 4] : (tensor<4x16x8x4xf32>) -> tensor<4x16x8x2x4xf32>
    %100 = stablehlo.reshape %99 : (tensor<4x16x8x2x4xf32>) -> tensor<4x16x16x4xf32>
    %101 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2, 4] : (tensor<4x16x8x4xf32>) -> tensor<4x16x8x2x4xf32>
    %102 = stablehlo.reshape %101 : (tensor<4x16x8x2x4xf32>) -> tensor<4x16x16x4xf32>
    %103 = stablehlo.dot_general %49, %100, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x1x16x4xf32>, tensor<4x16x16x4xf32>) -> tensor<4x16x1x16xf32>
    %cst_19 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %104 = stablehlo.sqrt %cst_19 : tensor<f32>
    %105 = stablehlo.convert %104 : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [] : (tensor<f32>) -> tensor<4x16x1x16xf32>
    %107 = stablehlo.divide %103, %106 : tensor<4x16x1x16xf32>
    %cst_20 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %108 = call @_where(%98, %107, %cst_20) : (tensor<1x1x1x16xi1>, tensor<4x16x1x16xf32>, tensor<f32>) -> tensor<4x16x1x16xf32>
    %cst_21 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %109 = stablehlo.reduce(%108 init: %cst_21) applies stablehlo.maximum across dimensions = [3] : (tensor<4x16x1x16xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    %cst_22 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %111 = stablehlo.maximum %110, %109 : tensor<4x16x1xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x1x1xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2, 3] : (tensor<4x16x1x1xf32>) -> tensor<4x16x1x16xf32>
    %114 = stablehlo.subtract %108, %113 : tensor<4x16x1x16xf32>
    %115 = stablehlo.exponential %114 : tensor<4x16x1x16xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %116 = stablehlo.reduce(%115 init: %cst_23) applies stablehlo.add across dimensions = [3] : (tensor<4x16x1x16xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x1x1xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2, 3] : (tensor<4x16x1x1xf32>) -> tensor<4x16x1x16xf32>
    %119 = stablehlo.divide %115, %118 : tensor<4x16x1x16xf32>
    %120 = stablehlo.dot_general %102, %119, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x16x16x4xf32>, tensor<4x16x1x16xf32>) -> tensor<4x16x4x1xf32>
    %121 = stablehlo.transpose %120, dims = [0, 3, 1, 2] : (tensor<4x16x4x1xf32>) -> tensor<4x1x16x4xf32>
    %122 = stablehlo.dot_general %121, %arg6, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x16x4xf32>, tensor<16x4x32xf32>) -> tensor<4x1x32xf32>
    %123 = stablehlo.add %arg9, %122 : tensor<4x1x32xf32>
    %124 = stablehlo.multiply %123, %123 : tensor<4x1x32xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %125 = stablehlo.reduce(%124 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<4x1x32xf32>, tensor<f32>) -> tensor<4x1xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1x1xf32>
    %cst_25 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x1x1xf32>
    %128 = stablehlo.divide %126, %127 : tensor<4x1x1xf32>
    %cst_26 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x1x1xf32>
    %130 = stablehlo.add %128, %129 : tensor<4x1x1xf32>
    %131 = stablehlo.rsqrt %130 : tensor<4x1x1xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2] : (tensor<4x1x1xf32>) -> tensor<4x1x32xf32>
    %133 = stablehlo.multiply %123, %132 : tensor<4x1x32xf32>
    %134 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x1x32xf32>
    %136 = stablehlo.multiply %133, %135 : tensor<4x1x32xf32>
    %137 = stablehlo.dot_general %136, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x32xf32>, tensor<32x64xf32>) -> tensor<4x1x64xf32>
    %138 = call @silu(%137) : (tensor<4x1x64xf32>) -> tensor<4x1x64xf32>
    %139 = stablehlo.dot_general %136, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x32xf32>, tensor<32x64xf32>) -> tensor<4x1x64xf32>
    %140 = stablehlo.multiply %138, %139 : tensor<4x1x64xf32>
    %141 = stablehlo.dot_general %140, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1x64xf32>, tensor<64x32xf32>) -> tensor<4x1x32xf32>
    %142 = stablehlo.add %123, %141 : tensor<4x1x32xf32>
    return %142, %90, %94 : tensor<4x1x32xf32>, tensor<4x16x8x4xf32>, tensor<4x16x8x4xf32>
  }
  func.func private @_where(%arg0: tensor<1x1x1x16xi1>, %arg1: tensor<4x16x1x16xf32>, %arg2: tensor<f32>) -> tensor<4x16x1x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<1x1x1x16xi1>) -> tensor<4x16x1x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x1x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x16x1x16xi1>, tensor<4x16x1x16xf32>
    return %3 : tensor<4x16x1x16xf32>
  }
  func.func private @silu(%arg0: tensor<4x1x64xf32>) -> tensor<4x1x64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4x1x64xf32>
    %1 = stablehlo.exponential %0 : tensor<4x1x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<4x1x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x1x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<4x1x64xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<4x1x64xf32>
    return %6 : tensor<4x1x64xf32>
  }
}
