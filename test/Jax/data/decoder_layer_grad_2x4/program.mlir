module @jit_layer_loss attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg3: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg4: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg5: tensor<32x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg6: tensor<16x4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg7: tensor<32x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg8: tensor<32x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg9: tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, %arg10: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1]['g1']"}, tensor<32xf32> {jax.result_info = "result[1]['g2']"}, tensor<64x32xf32> {jax.result_info = "result[1]['w_down']"}, tensor<32x64xf32> {jax.result_info = "result[1]['w_gate']"}, tensor<32x64xf32> {jax.result_info = "result[1]['w_up']"}, tensor<32x8x4xf32> {jax.result_info = "result[1]['wk']"}, tensor<16x4x32xf32> {jax.result_info = "result[1]['wo']"}, tensor<32x16x4xf32> {jax.result_info = "result[1]['wq']"}, tensor<32x8x4xf32> {jax.result_info = "result[1]['wv']"}) {
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
    %103:3 = call @_where(%93, %102, %cst_11) : (tensor<1x1x8x8xi1>, tensor<4x16x8x8xf32>, tensor<f32>) -> (tensor<4x16x8x8xf32>, tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>)
    %cst_12 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %104 = stablehlo.reduce(%103#0 init: %cst_12) applies stablehlo.maximum across dimensions = [3] : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %105 = stablehlo.reshape %104 : (tensor<4x16x8xf32>) -> tensor<4x16x8x1xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %107 = stablehlo.compare EQ, %103#0, %106, FLOAT : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xi1>
    %108 = stablehlo.convert %107 : (tensor<4x16x8x8xi1>) -> tensor<4x16x8x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %109 = stablehlo.reduce(%108 init: %cst_13) applies stablehlo.add across dimensions = [3] : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %cst_14 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %111 = stablehlo.maximum %110, %104 : tensor<4x16x8xf32>
    %112 = stablehlo.compare EQ, %104, %111, FLOAT : (tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xi1>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %113 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %115 = stablehlo.select %112, %113, %114 : tensor<4x16x8xi1>, tensor<4x16x8xf32>
    %cst_17 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %117 = stablehlo.compare EQ, %116, %111, FLOAT : (tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xi1>
    %cst_18 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x16x8xf32>
    %120 = stablehlo.select %117, %118, %119 : tensor<4x16x8xi1>, tensor<4x16x8xf32>
    %121 = stablehlo.divide %115, %120 : tensor<4x16x8xf32>
    %122 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<4x16x8xf32>) -> tensor<4x16x8x1xf32>
    %123 = stablehlo.broadcast_in_dim %122, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %124 = stablehlo.subtract %103#0, %123 : tensor<4x16x8x8xf32>
    %125 = stablehlo.exponential %124 : tensor<4x16x8x8xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %126 = stablehlo.reduce(%125 init: %cst_20) applies stablehlo.add across dimensions = [3] : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %127 = stablehlo.broadcast_in_dim %126, dims = [0, 1, 2] : (tensor<4x16x8xf32>) -> tensor<4x16x8x1xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %129 = stablehlo.divide %125, %128 : tensor<4x16x8x8xf32>
    %130 = stablehlo.multiply %127, %127 : tensor<4x16x8x1xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x16x8x1xf32>
    %132 = stablehlo.divide %131, %130 : tensor<4x16x8x1xf32>
    %133 = stablehlo.dot_general %97, %129, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x4x8xf32>
    %134 = stablehlo.transpose %133, dims = [0, 3, 1, 2] : (tensor<4x16x4x8xf32>) -> tensor<4x8x16x4xf32>
    %135 = stablehlo.dot_general %134, %arg6, contracting_dims = [3, 2] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<16x4x32xf32>) -> tensor<4x8x32xf32>
    %136 = stablehlo.add %arg9, %135 : tensor<4x8x32xf32>
    %137 = stablehlo.multiply %136, %136 : tensor<4x8x32xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.reduce(%137 init: %cst_22) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %cst_23 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %141 = stablehlo.divide %139, %140 : tensor<4x8x1xf32>
    %cst_24 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %143 = stablehlo.add %141, %142 : tensor<4x8x1xf32>
    %144 = stablehlo.rsqrt %143 : tensor<4x8x1xf32>
    %145 = stablehlo.divide %144, %143 : tensor<4x8x1xf32>
    %cst_25 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %146 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %147 = stablehlo.multiply %146, %145 : tensor<4x8x1xf32>
    %148 = stablehlo.broadcast_in_dim %144, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %149 = stablehlo.multiply %136, %148 : tensor<4x8x32xf32>
    %150 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %151 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %152 = stablehlo.multiply %149, %151 : tensor<4x8x32xf32>
    %153 = stablehlo.dot_general %152, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %154:3 = call @silu(%153) : (tensor<4x8x64xf32>) -> (tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<4x8x64xf32>)
    %155 = stablehlo.dot_general %152, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %156 = stablehlo.multiply %154#0, %155 : tensor<4x8x64xf32>
    %157 = stablehlo.dot_general %156, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<64x32xf32>) -> tensor<4x8x32xf32>
    %158 = stablehlo.add %136, %157 : tensor<4x8x32xf32>
    %159 = stablehlo.multiply %158, %158 : tensor<4x8x32xf32>
    %cst_26 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %161 = stablehlo.multiply %160, %158 : tensor<4x8x32xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %162 = stablehlo.reduce(%159 init: %cst_27) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_28 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %163 = stablehlo.divide %162, %cst_28 : tensor<f32>
    %cst_29 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_30 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %164 = stablehlo.divide %cst_29, %cst_30 : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %166 = stablehlo.multiply %165, %161 : tensor<4x8x32xf32>
    %167 = stablehlo.dot_general %166, %156, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %168 = stablehlo.transpose %167, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %169 = stablehlo.dot_general %166, %arg2, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<64x32xf32>) -> tensor<4x8x64xf32>
    %170 = stablehlo.multiply %154#0, %169 : tensor<4x8x64xf32>
    %171 = stablehlo.multiply %169, %155 : tensor<4x8x64xf32>
    %172 = stablehlo.dot_general %170, %152, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    %173 = stablehlo.transpose %172, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %174 = stablehlo.dot_general %170, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<32x64xf32>) -> tensor<4x8x32xf32>
    %175 = call @silu_0(%154#1, %154#2, %153, %171) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %176 = stablehlo.dot_general %175, %152, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<4x8x32xf32>) -> tensor<64x32xf32>
    %177 = stablehlo.transpose %176, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %178 = stablehlo.dot_general %175, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x64xf32>, tensor<32x64xf32>) -> tensor<4x8x32xf32>
    %179 = stablehlo.add %174, %178 : tensor<4x8x32xf32>
    %180 = stablehlo.multiply %149, %179 : tensor<4x8x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %181 = stablehlo.reduce(%180 init: %cst_31) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %182 = stablehlo.reshape %181 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %183 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<4x8x32xf32>
    %184 = stablehlo.multiply %179, %183 : tensor<4x8x32xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %185 = stablehlo.reduce(%182 init: %cst_32) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %186 = stablehlo.multiply %136, %184 : tensor<4x8x32xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %187 = stablehlo.reduce(%186 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %188 = stablehlo.reshape %187 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %189 = stablehlo.broadcast_in_dim %144, dims = [0, 1, 2] : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %190 = stablehlo.multiply %184, %189 : tensor<4x8x32xf32>
    %191 = stablehlo.add %166, %190 : tensor<4x8x32xf32>
    %192 = stablehlo.multiply %188, %147 : tensor<4x8x1xf32>
    %cst_34 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x8x1xf32>
    %194 = stablehlo.divide %192, %193 : tensor<4x8x1xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %195 = stablehlo.reduce(%194 init: %cst_35) applies stablehlo.add across dimensions = [2] : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8x32xf32>
    %197 = stablehlo.multiply %136, %196 : tensor<4x8x32xf32>
    %198 = stablehlo.add %191, %197 : tensor<4x8x32xf32>
    %199 = stablehlo.multiply %196, %136 : tensor<4x8x32xf32>
    %200 = stablehlo.add %198, %199 : tensor<4x8x32xf32>
    %201 = stablehlo.dot_general %200, %134, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<4x8x16x4xf32>) -> tensor<32x16x4xf32>
    %202 = stablehlo.transpose %201, dims = [1, 2, 0] : (tensor<32x16x4xf32>) -> tensor<16x4x32xf32>
    %203 = stablehlo.dot_general %200, %arg6, contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x32xf32>, tensor<16x4x32xf32>) -> tensor<4x8x16x4xf32>
    %204 = stablehlo.transpose %203, dims = [0, 2, 3, 1] : (tensor<4x8x16x4xf32>) -> tensor<4x16x4x8xf32>
    %205 = stablehlo.dot_general %204, %97, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x16x4x8xf32>, tensor<4x8x16x4xf32>) -> tensor<4x16x8x8xf32>
    %206 = stablehlo.dot_general %204, %129, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x16x4x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x4x8xf32>
    %207 = stablehlo.transpose %206, dims = [0, 3, 1, 2] : (tensor<4x16x4x8xf32>) -> tensor<4x8x16x4xf32>
    %208 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %209 = stablehlo.multiply %205, %208 : tensor<4x16x8x8xf32>
    %210 = stablehlo.multiply %209, %125 : tensor<4x16x8x8xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %211 = stablehlo.reduce(%210 init: %cst_36) applies stablehlo.add across dimensions = [3] : (tensor<4x16x8x8xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %212 = stablehlo.reshape %211 : (tensor<4x16x8xf32>) -> tensor<4x16x8x1xf32>
    %213 = stablehlo.negate %212 : tensor<4x16x8x1xf32>
    %214 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2, 3] : (tensor<4x16x8x1xf32>) -> tensor<4x16x8x8xf32>
    %215 = stablehlo.divide %205, %214 : tensor<4x16x8x8xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %216 = stablehlo.reduce(%213 init: %cst_37) applies stablehlo.add across dimensions = [3] : (tensor<4x16x8x1xf32>, tensor<f32>) -> tensor<4x16x8xf32>
    %217 = stablehlo.broadcast_in_dim %216, dims = [0, 1, 2] : (tensor<4x16x8xf32>) -> tensor<4x16x8x8xf32>
    %218 = stablehlo.add %215, %217 : tensor<4x16x8x8xf32>
    %219 = stablehlo.multiply %218, %125 : tensor<4x16x8x8xf32>
    %220 = call @_where_1(%103#1, %103#2, %219) : (tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
    %221 = stablehlo.broadcast_in_dim %100, dims = [] : (tensor<f32>) -> tensor<4x16x8x8xf32>
    %222 = stablehlo.divide %220, %221 : tensor<4x16x8x8xf32>
    %223 = stablehlo.dot_general %222, %49, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x8x8xf32>, tensor<4x8x16x4xf32>) -> tensor<4x16x8x4xf32>
    %224 = stablehlo.transpose %223, dims = [0, 2, 1, 3] : (tensor<4x16x8x4xf32>) -> tensor<4x8x16x4xf32>
    %225 = stablehlo.dot_general %222, %95, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x8x8xf32>, tensor<4x8x16x4xf32>) -> tensor<4x16x8x4xf32>
    %226 = stablehlo.transpose %225, dims = [0, 2, 1, 3] : (tensor<4x16x8x4xf32>) -> tensor<4x8x16x4xf32>
    %227 = stablehlo.reshape %207 : (tensor<4x8x16x4xf32>) -> tensor<4x8x8x2x4xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %228 = stablehlo.reduce(%227 init: %cst_38) applies stablehlo.add across dimensions = [3] : (tensor<4x8x8x2x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %229 = stablehlo.reshape %224 : (tensor<4x8x16x4xf32>) -> tensor<4x8x8x2x4xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %230 = stablehlo.reduce(%229 init: %cst_39) applies stablehlo.add across dimensions = [3] : (tensor<4x8x8x2x4xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %231 = stablehlo.dot_general %228, %12, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8x4xf32>, tensor<4x8x32xf32>) -> tensor<8x4x32xf32>
    %232 = stablehlo.transpose %231, dims = [2, 0, 1] : (tensor<8x4x32xf32>) -> tensor<32x8x4xf32>
    %233 = stablehlo.dot_general %228, %arg8, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8x4xf32>, tensor<32x8x4xf32>) -> tensor<4x8x32xf32>
    %234 = stablehlo.reshape %230 : (tensor<4x8x8x4xf32>) -> tensor<4x8x8x2x2xf32>
    %235 = stablehlo.slice %234 [0:4, 0:8, 0:8, 0:2, 0:1] : (tensor<4x8x8x2x2xf32>) -> tensor<4x8x8x2x1xf32>
    %236 = stablehlo.reshape %235 : (tensor<4x8x8x2x1xf32>) -> tensor<4x8x8x2xf32>
    %237 = stablehlo.slice %234 [0:4, 0:8, 0:8, 0:2, 1:2] : (tensor<4x8x8x2x2xf32>) -> tensor<4x8x8x2x1xf32>
    %238 = stablehlo.reshape %237 : (tensor<4x8x8x2x1xf32>) -> tensor<4x8x8x2xf32>
    %239 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %240 = stablehlo.multiply %238, %239 : tensor<4x8x8x2xf32>
    %241 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %242 = stablehlo.multiply %238, %241 : tensor<4x8x8x2xf32>
    %243 = stablehlo.negate %236 : tensor<4x8x8x2xf32>
    %244 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %245 = stablehlo.multiply %243, %244 : tensor<4x8x8x2xf32>
    %246 = stablehlo.add %240, %245 : tensor<4x8x8x2xf32>
    %247 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x8x2xf32>
    %248 = stablehlo.multiply %236, %247 : tensor<4x8x8x2xf32>
    %249 = stablehlo.add %242, %248 : tensor<4x8x8x2xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %250 = stablehlo.pad %246, %cst_40, low = [0, 0, 0, 1], high = [0, 0, 0, 0], interior = [0, 0, 0, 1] : (tensor<4x8x8x2xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %251 = stablehlo.pad %249, %cst_41, low = [0, 0, 0, 0], high = [0, 0, 0, 1], interior = [0, 0, 0, 1] : (tensor<4x8x8x2xf32>, tensor<f32>) -> tensor<4x8x8x4xf32>
    %252 = stablehlo.add %250, %251 : tensor<4x8x8x4xf32>
    %253 = stablehlo.dot_general %252, %12, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8x4xf32>, tensor<4x8x32xf32>) -> tensor<8x4x32xf32>
    %254 = stablehlo.transpose %253, dims = [2, 0, 1] : (tensor<8x4x32xf32>) -> tensor<32x8x4xf32>
    %255 = stablehlo.dot_general %252, %arg5, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x8x4xf32>, tensor<32x8x4xf32>) -> tensor<4x8x32xf32>
    %256 = stablehlo.add %233, %255 : tensor<4x8x32xf32>
    %257 = stablehlo.reshape %226 : (tensor<4x8x16x4xf32>) -> tensor<4x8x16x2x2xf32>
    %258 = stablehlo.slice %257 [0:4, 0:8, 0:16, 0:2, 0:1] : (tensor<4x8x16x2x2xf32>) -> tensor<4x8x16x2x1xf32>
    %259 = stablehlo.reshape %258 : (tensor<4x8x16x2x1xf32>) -> tensor<4x8x16x2xf32>
    %260 = stablehlo.slice %257 [0:4, 0:8, 0:16, 0:2, 1:2] : (tensor<4x8x16x2x2xf32>) -> tensor<4x8x16x2x1xf32>
    %261 = stablehlo.reshape %260 : (tensor<4x8x16x2x1xf32>) -> tensor<4x8x16x2xf32>
    %262 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %263 = stablehlo.multiply %261, %262 : tensor<4x8x16x2xf32>
    %264 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %265 = stablehlo.multiply %261, %264 : tensor<4x8x16x2xf32>
    %266 = stablehlo.negate %259 : tensor<4x8x16x2xf32>
    %267 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %268 = stablehlo.multiply %266, %267 : tensor<4x8x16x2xf32>
    %269 = stablehlo.add %263, %268 : tensor<4x8x16x2xf32>
    %270 = stablehlo.broadcast_in_dim %31, dims = [0, 1, 2, 3] : (tensor<1x8x1x2xf32>) -> tensor<4x8x16x2xf32>
    %271 = stablehlo.multiply %259, %270 : tensor<4x8x16x2xf32>
    %272 = stablehlo.add %265, %271 : tensor<4x8x16x2xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %273 = stablehlo.pad %269, %cst_42, low = [0, 0, 0, 1], high = [0, 0, 0, 0], interior = [0, 0, 0, 1] : (tensor<4x8x16x2xf32>, tensor<f32>) -> tensor<4x8x16x4xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %274 = stablehlo.pad %272, %cst_43, low = [0, 0, 0, 0], high = [0, 0, 0, 1], interior = [0, 0, 0, 1] : (tensor<4x8x16x2xf32>, tensor<f32>) -> tensor<4x8x16x4xf32>
    %275 = stablehlo.add %273, %274 : tensor<4x8x16x4xf32>
    %276 = stablehlo.dot_general %275, %12, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<4x8x32xf32>) -> tensor<16x4x32xf32>
    %277 = stablehlo.transpose %276, dims = [2, 0, 1] : (tensor<16x4x32xf32>) -> tensor<32x16x4xf32>
    %278 = stablehlo.dot_general %275, %arg7, contracting_dims = [2, 3] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16x4xf32>, tensor<32x16x4xf32>) -> tensor<4x8x32xf32>
    %279 = stablehlo.add %256, %278 : tensor<4x8x32xf32>
    %280 = stablehlo.multiply %9, %279 : tensor<4x8x32xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %281 = stablehlo.reduce(%280 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %282 = stablehlo.reshape %281 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %283 = stablehlo.reduce(%282 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    return %163, %283, %185, %168, %177, %173, %254, %202, %277, %232 : tensor<f32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x8x4xf32>, tensor<16x4x32xf32>, tensor<32x16x4xf32>, tensor<32x8x4xf32>
  }
  func.func private @_where(%arg0: tensor<1x1x8x8xi1>, %arg1: tensor<4x16x8x8xf32>, %arg2: tensor<f32>) -> (tensor<4x16x8x8xf32>, tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<1x1x8x8xi1>) -> tensor<4x16x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16x8x8xf32>
    return %3, %1, %4 : tensor<4x16x8x8xf32>, tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>
  }
  func.func private @silu(%arg0: tensor<4x8x64xf32>) -> (tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<4x8x64xf32>) {
    %0 = stablehlo.negate %arg0 : tensor<4x8x64xf32>
    %1 = stablehlo.exponential %0 : tensor<4x8x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %3 = stablehlo.add %2, %1 : tensor<4x8x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<4x8x64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<4x8x64xf32>
    %8 = stablehlo.multiply %5, %7 : tensor<4x8x64xf32>
    %9 = stablehlo.multiply %arg0, %5 : tensor<4x8x64xf32>
    return %9, %8, %5 : tensor<4x8x64xf32>, tensor<4x8x64xf32>, tensor<4x8x64xf32>
  }
  func.func private @silu_0(%arg0: tensor<4x8x64xf32>, %arg1: tensor<4x8x64xf32>, %arg2: tensor<4x8x64xf32>, %arg3: tensor<4x8x64xf32>) -> tensor<4x8x64xf32> {
    %0 = stablehlo.multiply %arg2, %arg3 : tensor<4x8x64xf32>
    %1 = stablehlo.multiply %arg3, %arg1 : tensor<4x8x64xf32>
    %2 = stablehlo.multiply %0, %arg0 : tensor<4x8x64xf32>
    %3 = stablehlo.add %1, %2 : tensor<4x8x64xf32>
    return %3 : tensor<4x8x64xf32>
  }
  func.func private @_where_1(%arg0: tensor<4x16x8x8xi1>, %arg1: tensor<4x16x8x8xf32>, %arg2: tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16x8x8xf32>
    %1 = stablehlo.select %arg0, %arg2, %0 : tensor<4x16x8x8xi1>, tensor<4x16x8x8xf32>
    return %1 : tensor<4x16x8x8xf32>
  }
}
