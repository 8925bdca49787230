module @jit_resnet_block attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<3x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"model"}]>}, %arg5: tensor<3x3x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}, {}]>}, %arg6: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}, {}]>}) -> (tensor<8x8x8x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg6, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = call @_var(%0, %c) : (tensor<8x8x8x8xf32>, tensor<i32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %7 = stablehlo.subtract %0, %6 : tensor<8x8x8x8xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %9 = stablehlo.add %4, %8 : tensor<8xf32>
    %10 = stablehlo.rsqrt %9 : tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %13 = stablehlo.multiply %7, %12 : tensor<8x8x8x8xf32>
    %14 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %16 = stablehlo.multiply %13, %15 : tensor<8x8x8x8xf32>
    %17 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %19 = stablehlo.add %16, %18 : tensor<8x8x8x8xf32>
    %20 = call @relu(%19) : (tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
    %21 = stablehlo.convolution(%20, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x8x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.reduce(%21 init: %cst_2) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_3 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %24 = stablehlo.divide %22, %23 : tensor<8xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %25 = call @_var(%21, %c_4) : (tensor<8x8x8x8xf32>, tensor<i32>) -> tensor<8xf32>
    %26 = stablehlo.broadcast_in_dim %24, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %28 = stablehlo.subtract %21, %27 : tensor<8x8x8x8xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %30 = stablehlo.add %25, %29 : tensor<8xf32>
    %31 = stablehlo.rsqrt %30 : tensor<8xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %34 = stablehlo.multiply %28, %33 : tensor<8x8x8x8xf32>
    %35 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %37 = stablehlo.multiply %34, %36 : tensor<8x8x8x8xf32>
    %38 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %40 = stablehlo.add %37, %39 : tensor<8x8x8x8xf32>
    %41 = stablehlo.add %40, %arg6 : tensor<8x8x8x8xf32>
    %42 = call @relu(%41) : (tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32>
    return %42 : tensor<8x8x8x8xf32>
  }
  func.func private @_var(%arg0: tensor<8x8x8x8xf32>, %arg1: tensor<i32>) -> tensor<8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x8x8x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x8x8x8xf32>
    %6 = chlo.square %5 : tensor<8x8x8x8xf32> -> tensor<8x8x8x8xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %11 = stablehlo.divide %9, %10 : tensor<8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %13 = call @_where(%12, %11, %cst_4) : (tensor<i1>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    return %13 : tensor<8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<8xf32>, %arg2: tensor<f32>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func private @relu(%arg0: tensor<8x8x8x8xf32>) -> tensor<8x8x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8x8x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x8x8x8xf32>
    return %1 : tensor<8x8x8x8xf32>
  }
}
