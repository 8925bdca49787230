module @jit_train_step_adam attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, %arg1: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg4: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg5: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, %arg6: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}, %arg8: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg9: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg10: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, %arg11: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg12: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}, %arg13: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg14: tensor<64x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg15: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg16: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg17: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<64xf32> {jax.result_info = "result[0]['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, tensor<64xf32> {jax.result_info = "result[0]['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x64xf32> {jax.result_info = "result[0]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}, tensor<64x64xf32> {jax.result_info = "result[0]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<64x16xf32> {jax.result_info = "result[0]['w3']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<64xf32> {jax.result_info = "result[1]['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, tensor<64xf32> {jax.result_info = "result[1]['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x64xf32> {jax.result_info = "result[1]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}, tensor<64x64xf32> {jax.result_info = "result[1]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<64x16xf32> {jax.result_info = "result[1]['w3']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<64xf32> {jax.result_info = "result[2]['b1']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, tensor<64xf32> {jax.result_info = "result[2]['b2']", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, tensor<32x64xf32> {jax.result_info = "result[2]['w1']", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}, tensor<64x64xf32> {jax.result_info = "result[2]['w2']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<64x16xf32> {jax.result_info = "result[2]['w3']", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, tensor<f32> {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, []>}) {
    %0 = stablehlo.dot_general %arg16, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x64xf32>
    %4 = call @relu(%3) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %8 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %11 = stablehlo.add %8, %10 : tensor<16x64xf32>
    %12 = stablehlo.multiply %11, %11 : tensor<16x64xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<16x64xf32>
    %14 = stablehlo.multiply %11, %11 : tensor<16x64xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<16x64xf32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %18 = stablehlo.multiply %17, %13 : tensor<16x64xf32>
    %19 = stablehlo.add %11, %18 : tensor<16x64xf32>
    %cst_3 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %21 = stablehlo.multiply %20, %19 : tensor<16x64xf32>
    %22 = stablehlo.tanh %21 : tensor<16x64xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %24 = stablehlo.subtract %23, %22 : tensor<16x64xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %26 = stablehlo.add %25, %22 : tensor<16x64xf32>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %28 = stablehlo.multiply %27, %26 : tensor<16x64xf32>
    %29 = stablehlo.multiply %11, %28 : tensor<16x64xf32>
    %30 = stablehlo.dot_general %29, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
    %31 = stablehlo.subtract %30, %arg17 : tensor<16x16xf32>
    %32 = stablehlo.multiply %31, %31 : tensor<16x16xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %34 = stablehlo.multiply %33, %31 : tensor<16x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%32 init: %cst_8) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_9 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %36 = stablehlo.divide %35, %cst_9 : tensor<f32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_11 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %37 = stablehlo.divide %cst_10, %cst_11 : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %39 = stablehlo.multiply %38, %34 : tensor<16x16xf32>
    %40 = stablehlo.dot_general %39, %29, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %41 = stablehlo.transpose %40, dims = [1, 0] : (tensor<16x64xf32>) -> tensor<64x16xf32>
    %42 = stablehlo.dot_general %39, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<64x16xf32>) -> tensor<16x64xf32>
    %43 = stablehlo.multiply %11, %42 : tensor<16x64xf32>
    %44 = stablehlo.multiply %42, %28 : tensor<16x64xf32>
    %cst_12 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %46 = stablehlo.multiply %45, %43 : tensor<16x64xf32>
    %47 = stablehlo.multiply %46, %24 : tensor<16x64xf32>
    %48 = stablehlo.multiply %47, %22 : tensor<16x64xf32>
    %49 = stablehlo.add %47, %48 : tensor<16x64xf32>
    %cst_13 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %51 = stablehlo.multiply %50, %49 : tensor<16x64xf32>
    %52 = stablehlo.add %44, %51 : tensor<16x64xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %54 = stablehlo.multiply %53, %51 : tensor<16x64xf32>
    %55 = stablehlo.multiply %54, %16 : tensor<16x64xf32>
    %56 = stablehlo.add %52, %55 : tensor<16x64xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.reduce(%56 init: %cst_15) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %58 = stablehlo.reshape %57 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%58 init: %cst_16) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %60 = stablehlo.dot_general %56, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %62 = stablehlo.dot_general %56, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %64 = stablehlo.select %6, %62, %63 : tensor<16x64xi1>, tensor<16x64xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_18) applies stablehlo.add across dimensions = [0] : (tensor<16x64xf32>, tensor<f32>) -> tensor<64xf32>
    %66 = stablehlo.reshape %65 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %67 = stablehlo.reduce(%66 init: %cst_19) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %68 = stablehlo.dot_general %64, %arg16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %69 = stablehlo.transpose %68, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %cst_20 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %71 = stablehlo.multiply %70, %arg5 : tensor<64xf32>
    %cst_21 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %73 = stablehlo.multiply %72, %67 : tensor<64xf32>
    %74 = stablehlo.add %71, %73 : tensor<64xf32>
    %cst_22 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %76 = stablehlo.multiply %75, %arg6 : tensor<64xf32>
    %cst_23 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %78 = stablehlo.multiply %77, %59 : tensor<64xf32>
    %79 = stablehlo.add %76, %78 : tensor<64xf32>
    %cst_24 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %81 = stablehlo.multiply %80, %arg7 : tensor<32x64xf32>
    %cst_25 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %83 = stablehlo.multiply %82, %69 : tensor<32x64xf32>
    %84 = stablehlo.add %81, %83 : tensor<32x64xf32>
    %cst_26 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %86 = stablehlo.multiply %85, %arg8 : tensor<64x64xf32>
    %cst_27 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %88 = stablehlo.multiply %87, %61 : tensor<64x64xf32>
    %89 = stablehlo.add %86, %88 : tensor<64x64xf32>
    %cst_28 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %91 = stablehlo.multiply %90, %arg9 : tensor<64x16xf32>
    %cst_29 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %93 = stablehlo.multiply %92, %41 : tensor<64x16xf32>
    %94 = stablehlo.add %91, %93 : tensor<64x16xf32>
    %cst_30 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %96 = stablehlo.multiply %95, %arg10 : tensor<64xf32>
    %cst_31 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %98 = stablehlo.multiply %97, %67 : tensor<64xf32>
    %99 = stablehlo.multiply %98, %67 : tensor<64xf32>
    %100 = stablehlo.add %96, %99 : tensor<64xf32>
    %cst_32 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %102 = stablehlo.multiply %101, %arg11 : tensor<64xf32>
    %cst_33 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %104 = stablehlo.multiply %103, %59 : tensor<64xf32>
    %105 = stablehlo.multiply %104, %59 : tensor<64xf32>
    %106 = stablehlo.add %102, %105 : tensor<64xf32>
    %cst_34 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %108 = stablehlo.multiply %107, %arg12 : tensor<32x64xf32>
    %cst_35 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %110 = stablehlo.multiply %109, %69 : tensor<32x64xf32>
    %111 = stablehlo.multiply %110, %69 : tensor<32x64xf32>
    %112 = stablehlo.add %108, %111 : tensor<32x64xf32>
    %cst_36 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %113 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %114 = stablehlo.multiply %113, %arg13 : tensor<64x64xf32>
    %cst_37 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %116 = stablehlo.multiply %115, %61 : tensor<64x64xf32>
    %117 = stablehlo.multiply %116, %61 : tensor<64x64xf32>
    %118 = stablehlo.add %114, %117 : tensor<64x64xf32>
    %cst_38 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %120 = stablehlo.multiply %119, %arg14 : tensor<64x16xf32>
    %cst_39 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %122 = stablehlo.multiply %121, %41 : tensor<64x16xf32>
    %123 = stablehlo.multiply %122, %41 : tensor<64x16xf32>
    %124 = stablehlo.add %120, %123 : tensor<64x16xf32>
    %cst_40 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %125 = stablehlo.power %cst_40, %arg15 : tensor<f32>
    %cst_41 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %126 = stablehlo.subtract %cst_41, %125 : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %126, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %128 = stablehlo.divide %74, %127 : tensor<64xf32>
    %cst_42 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %129 = stablehlo.power %cst_42, %arg15 : tensor<f32>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %130 = stablehlo.subtract %cst_43, %129 : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %132 = stablehlo.divide %79, %131 : tensor<64xf32>
    %cst_44 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %133 = stablehlo.power %cst_44, %arg15 : tensor<f32>
    %cst_45 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %134 = stablehlo.subtract %cst_45, %133 : tensor<f32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %136 = stablehlo.divide %84, %135 : tensor<32x64xf32>
    %cst_46 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %137 = stablehlo.power %cst_46, %arg15 : tensor<f32>
    %cst_47 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %138 = stablehlo.subtract %cst_47, %137 : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %140 = stablehlo.divide %89, %139 : tensor<64x64xf32>
    %cst_48 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %141 = stablehlo.power %cst_48, %arg15 : tensor<f32>
    %cst_49 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %142 = stablehlo.subtract %cst_49, %141 : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %144 = stablehlo.divide %94, %143 : tensor<64x16xf32>
    %cst_50 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %145 = stablehlo.power %cst_50, %arg15 : tensor<f32>
    %cst_51 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %146 = stablehlo.subtract %cst_51, %145 : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %148 = stablehlo.divide %100, %147 : tensor<64xf32>
    %cst_52 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %149 = stablehlo.power %cst_52, %arg15 : tensor<f32>
    %cst_53 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %150 = stablehlo.subtract %cst_53, %149 : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %150, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %152 = stablehlo.divide %106, %151 : tensor<64xf32>
    %cst_54 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %153 = stablehlo.power %cst_54, %arg15 : tensor<f32>
    %cst_55 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %154 = stablehlo.subtract %cst_55, %153 : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %156 = stablehlo.divide %112, %155 : tensor<32x64xf32>
    %cst_56 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %157 = stablehlo.power %cst_56, %arg15 : tensor<f32>
    %cst_57 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %158 = stablehlo.subtract %cst_57, %157 : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %160 = stablehlo.divide %118, %159 : tensor<64x64xf32>
    %cst_58 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %161 = stablehlo.power %cst_58, %arg15 : tensor<f32>
    %cst_59 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %162 = stablehlo.subtract %cst_59, %161 : tensor<f32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %164 = stablehlo.divide %124, %163 : tensor<64x16xf32>
    %cst_60 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %166 = stablehlo.multiply %165, %128 : tensor<64xf32>
    %167 = stablehlo.sqrt %148 : tensor<64xf32>
    %cst_61 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %169 = stablehlo.add %167, %168 : tensor<64xf32>
    %170 = stablehlo.divide %166, %169 : tensor<64xf32>
    %171 = stablehlo.subtract %arg0, %170 : tensor<64xf32>
    %cst_62 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %173 = stablehlo.multiply %172, %132 : tensor<64xf32>
    %174 = stablehlo.sqrt %152 : tensor<64xf32>
    %cst_63 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %176 = stablehlo.add %174, %175 : tensor<64xf32>
    %177 = stablehlo.divide %173, %176 : tensor<64xf32>
    %178 = stablehlo.subtract %arg1, %177 : tensor<64xf32>
    %cst_64 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %179 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %180 = stablehlo.multiply %179, %136 : tensor<32x64xf32>
    %181 = stablehlo.sqrt %156 : tensor<32x64xf32>
    %cst_65 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %183 = stablehlo.add %181, %182 : tensor<32x64xf32>
    %184 = stablehlo.divide %180, %183 : tensor<32x64xf32>
    %185 = stablehlo.subtract %arg2, %184 : tensor<32x64xf32>
    %cst_66 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %187 = stablehlo.multiply %186, %140 : tensor<64x64xf32>
    %188 = stablehlo.sqrt %160 : tensor<64x64xf32>
    %cst_67 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %190 = stablehlo.add %188, %189 : tensor<64x64xf32>
    %191 = stablehlo.divide %187, %190 : tensor<64x64xf32>
    %192 = stablehlo.subtract %arg3, %191 : tensor<64x64xf32>
    %cst_68 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %194 = stablehlo.multiply %193, %144 : tensor<64x16xf32>
    %195 = stablehlo.sqrt %164 : tensor<64x16xf32>
    %cst_69 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %196 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
    %197 = stablehlo.add %195, %196 : tensor<64x16xf32>
    %198 = stablehlo.divide %194, %197 : tensor<64x16xf32>
    %199 = stablehlo.subtract %arg4, %198 : tensor<64x16xf32>
    return %171, %178, %185, %192, %199, %74, %79, %84, %89, %94, %100, %106, %112, %118, %124, %36 : tensor<64xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x16xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x64xf32>
    return %1 : tensor<16x64xf32>
  }
}
