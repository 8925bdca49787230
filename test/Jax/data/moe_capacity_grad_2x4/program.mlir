module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg2: tensor<8x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg3: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<16x8xf32> {jax.result_info = "result['router']"}, tensor<8x16x32xf32> {jax.result_info = "result['w1']"}, tensor<8x32x16xf32> {jax.result_info = "result['w2']"}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.reshape %1 : (tensor<16xf32>) -> tensor<16x1xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %4 = stablehlo.compare EQ, %0, %3, FLOAT : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xi1>
    %5 = stablehlo.convert %4 : (tensor<16x8xi1>) -> tensor<16x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.maximum %7, %1 : tensor<16xf32>
    %9 = stablehlo.compare EQ, %1, %8, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %12 = stablehlo.select %9, %10, %11 : tensor<16xi1>, tensor<16xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %14 = stablehlo.compare EQ, %13, %8, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %17 = stablehlo.select %14, %15, %16 : tensor<16xi1>, tensor<16xf32>
    %18 = stablehlo.divide %12, %17 : tensor<16xf32>
    %19 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %21 = stablehlo.subtract %0, %20 : tensor<16x8xf32>
    %22 = stablehlo.exponential %21 : tensor<16x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_7) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %26 = stablehlo.divide %22, %25 : tensor<16x8xf32>
    %27 = stablehlo.multiply %24, %24 : tensor<16x1xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %29 = stablehlo.divide %28, %27 : tensor<16x1xf32>
    %values, %indices = chlo.top_k(%26, k = 2) : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %30 = stablehlo.reshape %indices : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%values init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %34 = stablehlo.divide %values, %33 : tensor<16x2xf32>
    %35 = stablehlo.multiply %32, %32 : tensor<16x1xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %37 = stablehlo.divide %36, %35 : tensor<16x1xf32>
    %38 = call @_one_hot(%indices) : (tensor<16x2xi32>) -> tensor<16x2x8xf32>
    %39 = stablehlo.reshape %38 : (tensor<16x2x8xf32>) -> tensor<32x8xf32>
    %40 = call @cumsum(%39) : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %41 = stablehlo.reshape %40 : (tensor<32x8xf32>) -> tensor<16x2x8xf32>
    %42 = stablehlo.multiply %41, %38 : tensor<16x2x8xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %44 = stablehlo.subtract %42, %43 : tensor<16x2x8xf32>
    %cst_12 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %46 = stablehlo.compare LT, %44, %45, FLOAT : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xi1>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %48 = stablehlo.compare GT, %38, %47, FLOAT : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xi1>
    %49 = stablehlo.and %46, %48 : tensor<16x2x8xi1>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %50 = call @_where(%49, %44, %c) : (tensor<16x2x8xi1>, tensor<16x2x8xf32>, tensor<i32>) -> tensor<16x2x8xf32>
    %cst_14 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_14) applies stablehlo.maximum across dimensions = [1] : (tensor<16x2x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    %52 = stablehlo.convert %51 : (tensor<16x8xf32>) -> tensor<16x8xi32>
    %53 = call @_one_hot_1(%52) : (tensor<16x8xi32>) -> tensor<16x8x4xf32>
    %c_15 = stablehlo.constant dense<false> : tensor<i1>
    %54 = stablehlo.reduce(%49 init: %c_15) applies stablehlo.or across dimensions = [1] : (tensor<16x2x8xi1>, tensor<i1>) -> tensor<16x8xi1>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1] : (tensor<16x8xi1>) -> tensor<16x8x1xi1>
    %56 = stablehlo.convert %55 : (tensor<16x8x1xi1>) -> tensor<16x8x1xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x4xf32>
    %58 = stablehlo.multiply %53, %57 : tensor<16x8x4xf32>
    %59 = stablehlo.broadcast_in_dim %34, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x1xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2] : (tensor<16x2x1xf32>) -> tensor<16x2x8xf32>
    %61 = stablehlo.multiply %60, %38 : tensor<16x2x8xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_16) applies stablehlo.add across dimensions = [1] : (tensor<16x2x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x4xf32>
    %65 = stablehlo.multiply %58, %64 : tensor<16x8x4xf32>
    %66 = stablehlo.dot_general %58, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x4xf32>, tensor<16x16xf32>) -> tensor<8x4x16xf32>
    %67 = stablehlo.dot_general %66, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x16xf32>, tensor<8x16x32xf32>) -> tensor<8x4x32xf32>
    %68 = stablehlo.multiply %67, %67 : tensor<8x4x32xf32>
    %69 = stablehlo.multiply %68, %67 : tensor<8x4x32xf32>
    %70 = stablehlo.multiply %67, %67 : tensor<8x4x32xf32>
    %cst_17 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %72 = stablehlo.multiply %71, %70 : tensor<8x4x32xf32>
    %cst_18 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %74 = stablehlo.multiply %73, %69 : tensor<8x4x32xf32>
    %75 = stablehlo.add %67, %74 : tensor<8x4x32xf32>
    %cst_19 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %77 = stablehlo.multiply %76, %75 : tensor<8x4x32xf32>
    %78 = stablehlo.tanh %77 : tensor<8x4x32xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %80 = stablehlo.subtract %79, %78 : tensor<8x4x32xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %82 = stablehlo.add %81, %78 : tensor<8x4x32xf32>
    %cst_22 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %84 = stablehlo.multiply %83, %82 : tensor<8x4x32xf32>
    %85 = stablehlo.multiply %67, %84 : tensor<8x4x32xf32>
    %86 = stablehlo.dot_general %85, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<8x32x16xf32>) -> tensor<8x4x16xf32>
    %87 = stablehlo.dot_general %65, %86, contracting_dims = [2, 1] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x4xf32>, tensor<8x4x16xf32>) -> tensor<16x16xf32>
    %88 = stablehlo.multiply %87, %87 : tensor<16x16xf32>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %90 = stablehlo.multiply %89, %87 : tensor<16x16xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.reduce(%88 init: %cst_24) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_25 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %92 = stablehlo.divide %91, %cst_25 : tensor<f32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_27 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %93 = stablehlo.divide %cst_26, %cst_27 : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %95 = stablehlo.multiply %94, %90 : tensor<16x16xf32>
    %96 = stablehlo.dot_general %95, %65, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
    %97 = stablehlo.transpose %96, dims = [1, 2, 0] : (tensor<16x8x4xf32>) -> tensor<8x4x16xf32>
    %98 = stablehlo.dot_general %95, %86, contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<8x4x16xf32>) -> tensor<16x8x4xf32>
    %99 = stablehlo.dot_general %97, %85, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x16xf32>, tensor<8x4x32xf32>) -> tensor<8x16x32xf32>
    %100 = stablehlo.transpose %99, dims = [0, 2, 1] : (tensor<8x16x32xf32>) -> tensor<8x32x16xf32>
    %101 = stablehlo.dot_general %97, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x4x16xf32>, tensor<8x32x16xf32>) -> tensor<8x4x32xf32>
    %102 = stablehlo.multiply %67, %101 : tensor<8x4x32xf32>
    %103 = stablehlo.multiply %101, %84 : tensor<8x4x32xf32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %105 = stablehlo.multiply %104, %102 : tensor<8x4x32xf32>
    %106 = stablehlo.multiply %105, %80 : tensor<8x4x32xf32>
    %107 = stablehlo.multiply %106, %78 : tensor<8x4x32xf32>
    %108 = stablehlo.add %106, %107 : tensor<8x4x32xf32>
    %cst_29 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %110 = stablehlo.multiply %109, %108 : tensor<8x4x32xf32>
    %111 = stablehlo.add %103, %110 : tensor<8x4x32xf32>
    %cst_30 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %113 = stablehlo.multiply %112, %110 : tensor<8x4x32xf32>
    %114 = stablehlo.multiply %113, %72 : tensor<8x4x32xf32>
    %115 = stablehlo.add %111, %114 : tensor<8x4x32xf32>
    %116 = stablehlo.dot_general %115, %66, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<8x4x16xf32>) -> tensor<8x32x16xf32>
    %117 = stablehlo.transpose %116, dims = [0, 2, 1] : (tensor<8x32x16xf32>) -> tensor<8x16x32xf32>
    %118 = stablehlo.multiply %58, %98 : tensor<16x8x4xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<16x8x4xf32>, tensor<f32>) -> tensor<16x8xf32>
    %120 = stablehlo.reshape %119 : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %121 = stablehlo.reduce(%120 init: %cst_32) applies stablehlo.add across dimensions = [2] : (tensor<16x8x1xf32>, tensor<f32>) -> tensor<16x8xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %123 = stablehlo.multiply %122, %38 : tensor<16x2x8xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%123 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<16x2x8xf32>, tensor<f32>) -> tensor<16x2xf32>
    %125 = stablehlo.reshape %124 : (tensor<16x2xf32>) -> tensor<16x2x1xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %126 = stablehlo.reduce(%125 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<16x2x1xf32>, tensor<f32>) -> tensor<16x2xf32>
    %127 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %128 = stablehlo.multiply %126, %127 : tensor<16x2xf32>
    %129 = stablehlo.multiply %128, %values : tensor<16x2xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.reduce(%129 init: %cst_35) applies stablehlo.add across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %131 = stablehlo.reshape %130 : (tensor<16xf32>) -> tensor<16x1xf32>
    %132 = stablehlo.negate %131 : tensor<16x1xf32>
    %133 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %134 = stablehlo.divide %126, %133 : tensor<16x2xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135 = stablehlo.reduce(%132 init: %cst_36) applies stablehlo.add across dimensions = [1] : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0] : (tensor<16xf32>) -> tensor<16x2xf32>
    %137 = stablehlo.add %134, %136 : tensor<16x2xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %139 = "stablehlo.scatter"(%138, %30, %137) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %154 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %154 : tensor<f32>
    }) : (tensor<16x8xf32>, tensor<16x2x1xi32>, tensor<16x2xf32>) -> tensor<16x8xf32>
    %140 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %141 = stablehlo.multiply %139, %140 : tensor<16x8xf32>
    %142 = stablehlo.multiply %141, %22 : tensor<16x8xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %143 = stablehlo.reduce(%142 init: %cst_38) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %144 = stablehlo.reshape %143 : (tensor<16xf32>) -> tensor<16x1xf32>
    %145 = stablehlo.negate %144 : tensor<16x1xf32>
    %146 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %147 = stablehlo.divide %139, %146 : tensor<16x8xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %148 = stablehlo.reduce(%145 init: %cst_39) applies stablehlo.add across dimensions = [1] : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [0] : (tensor<16xf32>) -> tensor<16x8xf32>
    %150 = stablehlo.add %147, %149 : tensor<16x8xf32>
    %151 = stablehlo.multiply %150, %22 : tensor<16x8xf32>
    %152 = stablehlo.dot_general %151, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %153 = stablehlo.transpose %152, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    return %153, %117, %100 : tensor<16x8xf32>, tensor<8x16x32xf32>, tensor<8x32x16xf32>
  }
  func.func private @_one_hot(%arg0: tensor<16x2xi32>) -> tensor<16x2x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<16x2x1xi32>) -> tensor<16x2x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x8xi32>) -> tensor<16x2x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<16x2x8xi32>, tensor<16x2x8xi32>) -> tensor<16x2x8xi1>
    %5 = stablehlo.convert %4 : (tensor<16x2x8xi1>) -> tensor<16x2x8xf32>
    return %5 : tensor<16x2x8xf32>
  }
  func.func private @cumsum(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<32x8xf32>) -> tensor<32x8xf32>
    return %0 : tensor<32x8xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[31, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 32, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<32x8xf32>, tensor<f32>) -> tensor<32x8xf32>
    return %1 : tensor<32x8xf32>
  }
  func.func private @_where(%arg0: tensor<16x2x8xi1>, %arg1: tensor<16x2x8xf32>, %arg2: tensor<i32>) -> tensor<16x2x8xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<16x2x8xi1>, tensor<16x2x8xf32>
    return %2 : tensor<16x2x8xf32>
  }
  func.func private @_one_hot_1(%arg0: tensor<16x8xi32>) -> tensor<16x8x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<16x8xi32>) -> tensor<16x8x1xi32>
    %1 = stablehlo.iota dim = 2 : tensor<1x1x4xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<16x8x1xi32>) -> tensor<16x8x4xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x4xi32>) -> tensor<16x8x4xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<16x8x4xi32>, tensor<16x8x4xi32>) -> tensor<16x8x4xi1>
    %5 = stablehlo.convert %4 : (tensor<16x8x4xi1>) -> tensor<16x8x4xf32>
    return %5 : tensor<16x8x4xf32>
  }
}
