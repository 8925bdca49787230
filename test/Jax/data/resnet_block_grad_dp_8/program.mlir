module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<3x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, %arg5: tensor<3x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, %arg6: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}) -> (tensor<8xf32> {jax.result_info = "result['b1']"}, tensor<8xf32> {jax.result_info = "result['b2']"}, tensor<8xf32> {jax.result_info = "result['g1']"}, tensor<8xf32> {jax.result_info = "result['g2']"}, tensor<3x3x8x8xf32> {jax.result_info = "result['w1']"}, tensor<3x3x8x8xf32> {jax.result_info = "result['w2']"}) {
    %0 = stablehlo.convolution(%arg6, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:5 = call @_var(%0, %c) : (tensor<8x8x8x8xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<8x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>)
    %5 = stablehlo.broadcast_in_dim %3, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %7 = stablehlo.subtract %0, %6 : tensor<8x8x8x8xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %9 = stablehlo.add %4#0, %8 : tensor<8xf32>
    %10 = stablehlo.rsqrt %9 : tensor<8xf32>
    %11 = stablehlo.divide %10, %9 : tensor<8xf32>
    %cst_2 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<8xf32>
    %14 = stablehlo.broadcast_in_dim %10, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %16 = stablehlo.multiply %7, %15 : tensor<8x8x8x8xf32>
    %17 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<8x8x8x8xf32>
    %20 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %22 = stablehlo.add %19, %21 : tensor<8x8x8x8xf32>
    %23 = call @relu(%22) : (tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %25 = stablehlo.compare GT, %22, %24, FLOAT : (tensor<8x8x8x8xf32>, tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %27 = stablehlo.convolution(%23, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.reduce(%27 init: %cst_5) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_6 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %30 = stablehlo.divide %28, %29 : tensor<8xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %31:5 = call @_var(%27, %c_7) : (tensor<8x8x8x8xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<8x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>)
    %32 = stablehlo.broadcast_in_dim %30, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %34 = stablehlo.subtract %27, %33 : tensor<8x8x8x8xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %36 = stablehlo.add %31#0, %35 : tensor<8xf32>
    %37 = stablehlo.rsqrt %36 : tensor<8xf32>
    %38 = stablehlo.divide %37, %36 : tensor<8xf32>
    %cst_9 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %40 = stablehlo.multiply %39, %38 : tensor<8xf32>
    %41 = stablehlo.broadcast_in_dim %37, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %43 = stablehlo.multiply %34, %42 : tensor<8x8x8x8xf32>
    %44 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %46 = stablehlo.multiply %43, %45 : tensor<8x8x8x8xf32>
    %47 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %49 = stablehlo.add %46, %48 : tensor<8x8x8x8xf32>
    %50 = stablehlo.add %49, %arg6 : tensor<8x8x8x8xf32>
    %51 = call @relu(%50) : (tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %53 = stablehlo.compare GT, %50, %52, FLOAT : (tensor<8x8x8x8xf32>, tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xi1>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %55 = stablehlo.multiply %51, %51 : tensor<8x8x8x8xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %57 = stablehlo.multiply %56, %51 : tensor<8x8x8x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.reduce(%55 init: %cst_13) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_14 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %59 = stablehlo.divide %58, %cst_14 : tensor<f32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_16 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %60 = stablehlo.divide %cst_15, %cst_16 : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %62 = stablehlo.multiply %61, %57 : tensor<8x8x8x8xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %64 = stablehlo.select %53, %62, %63 : tensor<8x8x8x8xi1>, tensor<8x8x8x8xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_18) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %66 = stablehlo.reshape %65 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %67 = stablehlo.reduce(%66 init: %cst_19) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %68 = stablehlo.multiply %43, %64 : tensor<8x8x8x8xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_20) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %70 = stablehlo.reshape %69 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %71 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %72 = stablehlo.multiply %64, %71 : tensor<8x8x8x8xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %73 = stablehlo.reduce(%70 init: %cst_21) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %74 = stablehlo.multiply %34, %72 : tensor<8x8x8x8xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_22) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %76 = stablehlo.reshape %75 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %77 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %78 = stablehlo.multiply %72, %77 : tensor<8x8x8x8xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%76 init: %cst_23) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %80 = stablehlo.multiply %79, %40 : tensor<8xf32>
    %81 = stablehlo.negate %78 : tensor<8x8x8x8xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.reduce(%81 init: %cst_24) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %83 = stablehlo.reshape %82 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.reduce(%83 init: %cst_25) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %85 = call @_var_0(%31#1, %31#2, %31#3, %31#4, %80) : (tensor<8x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x8x8x8xf32>
    %86 = stablehlo.add %78, %85 : tensor<8x8x8x8xf32>
    %cst_26 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %88 = stablehlo.divide %84, %87 : tensor<8xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [3] : (tensor<8xf32>) -> tensor<8x8x8x8xf32>
    %90 = stablehlo.add %86, %89 : tensor<8x8x8x8xf32>
    %91 = stablehlo.convolution(%23, %90) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<8x8x8x8xf32>) -> tensor<3x3x8x8xf32>
    %92 = stablehlo.reverse %arg5, dims = [0, 1] : tensor<3x3x8x8xf32>
    %93 = stablehlo.convolution(%90, %92) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %95 = stablehlo.select %25, %93, %94 : tensor<8x8x8x8xi1>, tensor<8x8x8x8xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_28) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %97 = stablehlo.reshape %96 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %98 = stablehlo.reduce(%97 init: %cst_29) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %99 = stablehlo.multiply %16, %95 : tensor<8x8x8x8xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %100 = stablehlo.reduce(%99 init: %cst_30) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %101 = stablehlo.reshape %100 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %102 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %103 = stablehlo.multiply %95, %102 : tensor<8x8x8x8xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.reduce(%101 init: %cst_31) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %105 = stablehlo.multiply %7, %103 : tensor<8x8x8x8xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %106 = stablehlo.reduce(%105 init: %cst_32) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %107 = stablehlo.reshape %106 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %108 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %109 = stablehlo.multiply %103, %108 : tensor<8x8x8x8xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %110 = stablehlo.reduce(%107 init: %cst_33) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %111 = stablehlo.multiply %110, %13 : tensor<8xf32>
    %112 = stablehlo.negate %109 : tensor<8x8x8x8xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %113 = stablehlo.reduce(%112 init: %cst_34) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %114 = stablehlo.reshape %113 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %115 = stablehlo.reduce(%114 init: %cst_35) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %116 = call @_var_0(%4#1, %4#2, %4#3, %4#4, %111) : (tensor<8x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x8x8x8xf32>
    %117 = stablehlo.add %109, %116 : tensor<8x8x8x8xf32>
    %cst_36 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %119 = stablehlo.divide %115, %118 : tensor<8xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [3] : (tensor<8xf32>) -> tensor<8x8x8x8xf32>
    %121 = stablehlo.add %117, %120 : tensor<8x8x8x8xf32>
    %122 = stablehlo.convolution(%arg6, %121) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<8x8x8x8xf32>) -> tensor<3x3x8x8xf32>
    return %98, %67, %104, %73, %122, %91 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<3x3x8x8xf32>, tensor<3x3x8x8xf32>
  }
  func.func private @_var(%arg0: tensor<8x8x8x8xf32>, %arg1: tensor<i32>) -> (tensor<8xf32>, tensor<8x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x8x8x8xf32>
    %6 = chlo.square %5 : tensor<8x8x8x8xf32> -> tensor<8x8x8x8xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<8x8x8x8xf32>
    %9 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %10 = stablehlo.subtract %cst_2, %9 : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%6 init: %cst_3) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %13 = stablehlo.divide %11, %12 : tensor<8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.compare GT, %10, %cst_4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_5 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15:2 = call @_where(%14, %13, %cst_5) : (tensor<i1>, tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)
    return %15#0, %8, %10, %14, %15#1 : tensor<8xf32>, tensor<8x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<8xf32>, %arg2: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    return %2, %3 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @relu(%arg0: tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x8x8x8xf32>
    return %1 : tensor<8x8x8x8xf32>
  }
  func.func private @_var_0(%arg0: tensor<8x8x8x8xf32>, %arg1: tensor<f32>, %arg2: tensor<i1>, %arg3: tensor<8xf32>, %arg4: tensor<8xf32>) -> tensor<8x8x8x8xf32> {
    %0 = call @_where_1(%arg2, %arg3, %arg4) : (tensor<i1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.divide %0, %1 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [3] : (tensor<8xf32>) -> tensor<8x8x8x8xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<8x8x8x8xf32>
    %5 = stablehlo.negate %4 : tensor<8x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %7 = stablehlo.reshape %6 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %9 = stablehlo.divide %7, %8 : tensor<1x1x1x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [3] : (tensor<8xf32>) -> tensor<8x8x8x8xf32>
    %12 = stablehlo.add %4, %11 : tensor<8x8x8x8xf32>
    return %12 : tensor<8x8x8x8xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.select %arg0, %arg2, %0 : tensor<i1>, tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
