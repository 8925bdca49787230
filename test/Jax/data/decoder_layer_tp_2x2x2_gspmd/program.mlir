module @jit_decoder_layer attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<32xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<64x32xf32> {mhlo.sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg3: tensor<32x64xf32> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg4: tensor<32x64xf32> {mhlo.sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg5: tensor<32x8x4xf32> {mhlo.sharding = "{devices=[1,2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg6: tensor<16x4x32xf32> {mhlo.sharding = "{devices=[2,1,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg7: tensor<32x16x4xf32> {mhlo.sharding = "{devices=[1,2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg8: tensor<32x8x4xf32> {mhlo.sharding = "{devices=[1,2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"}, %arg9: tensor<4x8x32xf32> {mhlo.sharding = "{devices=[4,1,1,2]<=[8] last_tile_dim_replicate}"}, %arg10: tensor<8xi32> {mhlo.sharding = "{replicated}"}) -> (tensor<4x8x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg9, %arg9 : tensor<4x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<4x8x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %6 = stablehlo.add %4, %5 : tensor<4x8x1xf32>
    %7 = stablehlo.rsqrt %6 : tensor<4x8x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %9 = stablehlo.multiply %arg9, %8 : tensor<4x8x32xf32>
    %10 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %12 = stablehlo.multiply %9, %11 : tensor<4x8x32xf32>
    %13 = stablehlo.dot_general %12, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x16x4xf32>) -> tensor<4x8x16x4xf32>
    %14 = stablehlo.iota dim = 0 : tensor<2xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<2xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %18 = stablehlo.add %17, %16 : tensor<2xf32>
    %19 = stablehlo.negate %18 : tensor<2xf32>
    %cst_4 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %21 = stablehlo.divide %19, %20 : tensor<2xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %23 = stablehlo.power %22, %21 : tensor<2xf32>
    %24 = stablehlo.convert %arg10 : (tensor<8xi32>) -> tensor<8xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %26 = stablehlo.broadcast_in_dim %23, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %27 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x2xf32>
    %28 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<8x2xf32>
    %29 = stablehlo.multiply %27, %28 : tensor<8x2xf32>
    %30 = stablehlo.cosine %29 : tensor<8x2xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [1, 3] : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %32 = stablehlo.sine %29 : tensor<8x2xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [1, 3] : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %34 = stablehlo.slice %13 [0:4, 0:8, 0:16, 0:4:2] : (tensor<4x8x16x4xf32>) -> tensor<4x8x16x2xf32>
    %35 = stablehlo.slice %13 [0:4, 0:8, 0:16, 1:4:2] : (tensor<4x8x16x4xf32>) -> tensor<4x8x16x2xf32>
    %36 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %37 = stablehlo.multiply %34, %36 : tensor<4x8x16x2xf32>
    %38 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %39 = stablehlo.multiply %35, %38 : tensor<4x8x16x2xf32>
    %40 = stablehlo.subtract %37, %39 : tensor<4x8x16x2xf32>
    %41 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %42 = stablehlo.multiply %34, %41 : tensor<4x8x16x2xf32>
    %43 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %44 = stablehlo.multiply %35, %43 : tensor<4x8x16x2xf32>
    %45 = stablehlo.add %42, %44 : tensor<4x8x16x2xf32>
    %46 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2, 3] : (tensor<4x8x16x2xf32>) -> tensor<4x8x16x2x1xf32>
    %47 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3] : (tensor<4x8x16x2xf32>) -> tensor<4x8x16x2x1xf32>
    %48 = stablehlo.concatenate %46, %47, dim = 4 : (tensor<4x8x16x2x1xf32>, tensor<4x8x16x2x1xf32>) -> tensor<4x8x16x2x2xf32>
    %49 = stablehlo.reshape %48 : (tensor<4x8x16x2x2xf32>) -> tensor<4x8x16x4xf32>
    %50 = stablehlo.dot_general %12, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x8x4xf32>) -> tensor<4x8x8x4xf32>
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
    %61 = stablehlo.convert %arg10 : (tensor<8xi32>) -> tensor<8xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %63 = stablehlo.broadcast_in_dim %60, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %64 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x2xf32>
    %65 = stablehlo.broadcast_in_dim %63, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<8x2xf32>
    %66 = stablehlo.multiply %64, %65 : tensor<8x2xf32>
    %67 = stablehlo.cosine %66 : tensor<8x2xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [1, 3] : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %69 = stablehlo.sine %66 : tensor<8x2xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [1, 3] : (tensor<8x2xf32>) -> tensor<1x8x1x2xf32>
    %71 = stablehlo.slice %50 [0:4, 0:8, 0:8, 0:4:2] : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x2xf32>
    %72 = stablehlo.slice %50 [0:4, 0:8, 0:8, 1:4:2] : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x2xf32>
    %73 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %74 = stablehlo.multiply %71, %73 : tensor<4x8x8x2xf32>
    %75 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %76 = stablehlo.multiply %72, %75 : tensor<4x8x8x2xf32>
    %77 = stablehlo.subtract %74, %76 : tensor<4x8x8x2xf32>
    %78 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %79 = stablehlo.multiply %71, %78 : tensor<4x8x8x2xf32>
    %80 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %81 = stablehlo.multiply %72, %80 : tensor<4x8x8x2xf32>
    %82 = stablehlo.add %79, %81 : tensor<4x8x8x2xf32>
    %83 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2, 3] : (tensor<4x8x8x2xf32>) -> tensor<4x8x8x2x1xf32>
    %84 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2, 3] : (tensor<4x8x8x2xf32>) -> tensor<4x8x8x2x1xf32>
    %85 = stablehlo.concatenate %83, %84, dim = 4 : (tensor<4x8x8x2x1xf32>, tensor<4x8x8x2x1xf32>) -> tensor<4x8x8x2x2xf32>
    %86 = stablehlo.reshape %85 : (tensor<4x8x8x2x2xf32>) -> tensor<4x8x8x4xf32>
    %87 = stablehlo.dot_general %12, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x8x4xf32>) -> tensor<4x8x8x4xf32>
    %88 = stablehlo.broadcast_in_dim %arg10, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %89 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<8xi32>) -> tensor<1x8xi32>
    %90 = stablehlo.broadcast_in_dim %88, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x8xi32>
    %91 = stablehlo.broadcast_in_dim %89, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<8x8xi32>
    %92 = stablehlo.compare GE, %90, %91, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %93 = stablehlo.broadcast_in_dim %92, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<1x1x8x8xi1>
    %94 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2, 4] : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x2x4xf32>
    %95 = stablehlo.reshape %94 : (tensor<4x8x8x2x4xf32>) -> tensor<4x8x16x4xf32>
    %96 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2, 4] : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x2x4xf32>
    %97 = stablehlo.reshape %96 : (tensor<4x8x8x2x4xf32>) -> tensor<4x8x16x4xf32>
    %98 = stablehlo.dot_general %49, %95, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<4x8x16x4xf32>) -> tensor<4x16x8x8xf32>
    %cst_10 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %99 = stablehlo.sqrt %cst_10 : tensor<f32>
    %100 = stablehlo.convert %99 : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [] : (tensor<f32>) -> tensor<4x16x8x8xf32>
    %102 = stablehlo.divide %98, %101 : tensor<4x16x8x8xf32>
    %cst_11 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %103 = call @_where(%93, %102, %cst_11) : (tensor<1x1x8x8xi1>, tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8x8xf32>
    %cst_12 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %104 = stablehlo.reduce(%103 init: %cst_12) applies stablehlo.maximum across dimensions = [3] : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %cst_13 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %106 = stablehlo.maximum %105, %104 : tensor<4x16x8xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<4x16x8xf32>) -> tensor<4x16x8x1xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %109 = stablehlo.subtract %103, %108 : tensor<4x16x8x8xf32>
    %110 = stablehlo.exponential %109 : tensor<4x16x8x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %111 = stablehlo.reduce(%110 init: %cst_14) applies stablehlo.add across dimensions = [3] : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<4x16x8xf32>) -> tensor<4x16x8x1xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %114 = stablehlo.divide %110, %113 : tensor<4x16x8x8xf32>
    %115 = stablehlo.dot_general %97, %114, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x4x8xf32>
    %116 = stablehlo.transpose %115, dims = [0, 3, 1, 2] : (tensor<4x16x4x8xf32>) -> tensor<4x8x16x4xf32>
    %117 = stablehlo.dot_general %116, %arg6, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<16x4x32xf32>) -> tensor<4x8x32xf32>
    %118 = stablehlo.add %arg9, %117 : tensor<4x8x32xf32>
    %119 = stablehlo.multiply %118, %118 : tensor<4x8x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %120 = stablehlo.reduce(%119 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_16 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %123 = stablehlo.divide %121, %122 : tensor<4x8x1xf32>
    %cst_17 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %125 = stablehlo.add %123, %124 : tensor<4x8x1xf32>
    %126 = stablehlo.rsqrt %125 : tensor<4x8x1xf32>
    %127 = stablehlo.broadcast_in_dim %126, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %128 = stablehlo.multiply %118, %127 : tensor<4x8x32xf32>
    %129 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %131 = stablehlo.multiply %128, %130 : tensor<4x8x32xf32>
    %132 = stablehlo.dot_general %131, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %133 = call @silu(%132) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %134 = stablehlo.dot_general %131, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %135 = stablehlo.multiply %133, %134 : tensor<4x8x64xf32>
    %136 = stablehlo.dot_general %135, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<64x32xf32>) -> tensor<4x8x32xf32>
    %137 = stablehlo.add %118, %136 : tensor<4x8x32xf32>
    return %137 : tensor<4x8x32xf32>
  }
  func.func private @_where(%arg0: tensor<1x1x8x8xi1>, %arg1: tensor<4x16x8x8xf32>, %arg2: tensor<f32>) -> tensor<4x16x8x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<1x1x8x8xi1>) -> tensor<4x16x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>
    return %3 : tensor<4x16x8x8xf32>
  }
  func.func private @silu(%arg0: tensor<4x8x64xf32>) -> tensor<4x8x64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4x8x64xf32>
    %1 = stablehlo.exponential %0 : tensor<4x8x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<4x8x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<4x8x64xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<4x8x64xf32>
    return %6 : tensor<4x8x64xf32>
  }
}
