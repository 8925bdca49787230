module @jit_cnn_train attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<3x3x1x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, %arg1: tensor<3x3x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, %arg2: tensor<16x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<8x12x12x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}, %arg4: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}) -> (tensor<3x3x1x8xf32> {jax.result_info = "result[0]['c1']"}, tensor<3x3x8x16xf32> {jax.result_info = "result[0]['c2']"}, tensor<16x10xf32> {jax.result_info = "result[0]['fc']"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg3, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x12x12x1xf32>, tensor<3x3x1x8xf32>) -> tensor<8x12x12x8xf32>
    %1 = call @relu(%0) : (tensor<8x12x12x8xf32>) -> tensor<8x12x12x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x12x8xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<8x12x12x8xf32>, tensor<8x12x12x8xf32>) -> tensor<8x12x12x8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x12x12x8xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.reduce_window"(%1, %5) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %55 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %55 : tensor<f32>
    }) : (tensor<8x12x12x8xf32>, tensor<f32>) -> tensor<8x6x6x8xf32>
    %7 = stablehlo.convolution(%6, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x8xf32>, tensor<3x3x8x16xf32>) -> tensor<8x3x3x16xf32>
    %8 = call @relu_0(%7) : (tensor<8x3x3x16xf32>) -> tensor<8x3x3x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x3x3x16xf32>
    %10 = stablehlo.compare GT, %7, %9, FLOAT : (tensor<8x3x3x16xf32>, tensor<8x3x3x16xf32>) -> tensor<8x3x3x16xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x3x3x16xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%8 init: %cst_4) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x3x3x16xf32>, tensor<f32>) -> tensor<8x16xf32>
    %cst_5 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %14 = stablehlo.divide %12, %13 : tensor<8x16xf32>
    %15 = stablehlo.dot_general %14, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %16:3 = call @log_softmax(%15) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>)
    %17 = call @_one_hot(%arg4) : (tensor<8xi32>) -> tensor<8x10xf32>
    %18 = stablehlo.multiply %16#0, %17 : tensor<8x10xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %21 = stablehlo.divide %20, %cst_8 : tensor<f32>
    %22 = stablehlo.negate %21 : tensor<f32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.negate %cst_9 : tensor<f32>
    %cst_10 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %24 = stablehlo.divide %23, %cst_10 : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %27 = stablehlo.multiply %26, %17 : tensor<8x10xf32>
    %28 = call @log_softmax_1(%16#1, %16#2, %27) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %29 = stablehlo.dot_general %28, %14, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x16xf32>) -> tensor<10x16xf32>
    %30 = stablehlo.transpose %29, dims = [1, 0] : (tensor<10x16xf32>) -> tensor<16x10xf32>
    %31 = stablehlo.dot_general %28, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<16x10xf32>) -> tensor<8x16xf32>
    %cst_11 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %33 = stablehlo.divide %31, %32 : tensor<8x16xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 3] : (tensor<8x16xf32>) -> tensor<8x3x3x16xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x3x3x16xf32>
    %36 = stablehlo.select %10, %34, %35 : tensor<8x3x3x16xi1>, tensor<8x3x3x16xf32>
    %37 = stablehlo.convolution(%6, %36) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x8xf32>, tensor<8x3x3x16xf32>) -> tensor<3x3x8x16xf32>
    %38 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<3x3x8x16xf32>
    %39 = stablehlo.convolution(%36, %38) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x3x3x16xf32>, tensor<3x3x8x16xf32>) -> tensor<8x6x6x8xf32>
    %cst_13 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %40 = stablehlo.pad %1, %cst_13, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<8x12x12x8xf32>, tensor<f32>) -> tensor<8x12x12x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = "stablehlo.select_and_scatter"(%40, %39, %cst_14) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %55 = stablehlo.compare GE, %arg5, %arg6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %55 : tensor<i1>
    }, {
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %55 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %55 : tensor<f32>
    }) : (tensor<8x12x12x8xf32>, tensor<8x6x6x8xf32>, tensor<f32>) -> tensor<8x12x12x8xf32>
    %42 = stablehlo.slice %41 [0:8, 0:12, 0:12, 0:8] : (tensor<8x12x12x8xf32>) -> tensor<8x12x12x8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x12x12x8xf32>
    %44 = stablehlo.select %3, %42, %43 : tensor<8x12x12x8xi1>, tensor<8x12x12x8xf32>
    %45 = stablehlo.convolution(%arg3, %44) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x12x12x1xf32>, tensor<8x12x12x8xf32>) -> tensor<3x3x1x8xf32>
    %cst_16 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x3x1x8xf32>
    %47 = stablehlo.multiply %46, %45 : tensor<3x3x1x8xf32>
    %48 = stablehlo.subtract %arg0, %47 : tensor<3x3x1x8xf32>
    %cst_17 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<3x3x8x16xf32>
    %50 = stablehlo.multiply %49, %37 : tensor<3x3x8x16xf32>
    %51 = stablehlo.subtract %arg1, %50 : tensor<3x3x8x16xf32>
    %cst_18 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x10xf32>
    %53 = stablehlo.multiply %52, %30 : tensor<16x10xf32>
    %54 = stablehlo.subtract %arg2, %53 : tensor<16x10xf32>
    return %48, %51, %54, %22 : tensor<3x3x1x8xf32>, tensor<3x3x8x16xf32>, tensor<16x10xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<8x12x12x8xf32>) -> tensor<8x12x12x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x12x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x12x12x8xf32>
    return %1 : tensor<8x12x12x8xf32>
  }
  func.func private @relu_0(%arg0: tensor<8x3x3x16xf32>) -> tensor<8x3x3x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3x3x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x3x3x16xf32>
    return %1 : tensor<8x3x3x16xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11, %6, %8 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @_one_hot(%arg0: tensor<8xi32>) -> tensor<8x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x10xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x10xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x10xi32>) -> tensor<8x10xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x10xi32>, tensor<8x10xi32>) -> tensor<8x10xi1>
    %5 = stablehlo.convert %4 : (tensor<8x10xi1>) -> tensor<8x10xf32>
    return %5 : tensor<8x10xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
