module @jit_moe_capacity attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=1, "model"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 1 : i64}, {name = "model", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg2: tensor<8x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}, %arg3: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<16x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<16xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<16x8xf32>
    %7 = stablehlo.exponential %6 : tensor<16x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x8xf32>
    %11 = stablehlo.divide %7, %10 : tensor<16x8xf32>
    %values, %indices = chlo.top_k(%11, k = 2) : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%values init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %15 = stablehlo.divide %values, %14 : tensor<16x2xf32>
    %16 = call @_one_hot(%indices) : (tensor<16x2xi32>) -> tensor<16x2x8xf32>
    %17 = stablehlo.reshape %16 : (tensor<16x2x8xf32>) -> tensor<32x8xf32>
    %18 = call @cumsum(%17) : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %19 = stablehlo.reshape %18 : (tensor<32x8xf32>) -> tensor<16x2x8xf32>
    %20 = stablehlo.multiply %19, %16 : tensor<16x2x8xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %22 = stablehlo.subtract %20, %21 : tensor<16x2x8xf32>
    %cst_4 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %24 = stablehlo.compare LT, %22, %23, FLOAT : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x2x8xf32>
    %26 = stablehlo.compare GT, %16, %25, FLOAT : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xi1>
    %27 = stablehlo.and %24, %26 : tensor<16x2x8xi1>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %28 = call @_where(%27, %22, %c) : (tensor<16x2x8xi1>, tensor<16x2x8xf32>, tensor<i32>) -> tensor<16x2x8xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_6) applies stablehlo.maximum across dimensions = [1] : (tensor<16x2x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    %30 = stablehlo.convert %29 : (tensor<16x8xf32>) -> tensor<16x8xi32>
    %31 = call @_one_hot_1(%30) : (tensor<16x8xi32>) -> tensor<16x8x4xf32>
    %c_7 = stablehlo.constant dense<false> : tensor<i1>
    %32 = stablehlo.reduce(%27 init: %c_7) applies stablehlo.or across dimensions = [1] : (tensor<16x2x8xi1>, tensor<i1>) -> tensor<16x8xi1>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<16x8xi1>) -> tensor<16x8x1xi1>
    %34 = stablehlo.convert %33 : (tensor<16x8x1xi1>) -> tensor<16x8x1xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x4xf32>
    %36 = stablehlo.multiply %31, %35 : tensor<16x8x4xf32>
    %37 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<16x2x1xf32>) -> tensor<16x2x8xf32>
    %39 = stablehlo.multiply %38, %16 : tensor<16x2x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<16x2x8xf32>, tensor<f32>) -> tensor<16x8xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<16x8xf32>) -> tensor<16x8x1xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2] : (tensor<16x8x1xf32>) -> tensor<16x8x4xf32>
    %43 = stablehlo.multiply %36, %42 : tensor<16x8x4xf32>
    %44 = stablehlo.dot_general %36, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x4xf32>, tensor<16x16xf32>) -> tensor<8x4x16xf32>
    %45 = stablehlo.dot_general %44, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x16xf32>, tensor<8x16x32xf32>) -> tensor<8x4x32xf32>
    %46 = stablehlo.multiply %45, %45 : tensor<8x4x32xf32>
    %47 = stablehlo.multiply %46, %45 : tensor<8x4x32xf32>
    %cst_9 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %49 = stablehlo.multiply %48, %47 : tensor<8x4x32xf32>
    %50 = stablehlo.add %45, %49 : tensor<8x4x32xf32>
    %cst_10 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %52 = stablehlo.multiply %51, %50 : tensor<8x4x32xf32>
    %53 = stablehlo.tanh %52 : tensor<8x4x32xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %55 = stablehlo.add %54, %53 : tensor<8x4x32xf32>
    %cst_12 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x4x32xf32>
    %57 = stablehlo.multiply %56, %55 : tensor<8x4x32xf32>
    %58 = stablehlo.multiply %45, %57 : tensor<8x4x32xf32>
    %59 = stablehlo.dot_general %58, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x32xf32>, tensor<8x32x16xf32>) -> tensor<8x4x16xf32>
    %60 = stablehlo.dot_general %43, %59, contracting_dims = [2, 1] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<16x8x4xf32>, tensor<8x4x16xf32>) -> tensor<16x16xf32>
    return %60 : tensor<16x16xf32>
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
