module @jit_body attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x16x32xf32>, %arg2: tensor<8x32x16xf32>, %arg3: tensor<64x16xf32>) -> (tensor<64x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2, %arg3) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"data"}, {}, {}]>, <@mesh, [{"data"}, {}, {}]>, <@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg4: tensor<16x8xf32>, %arg5: tensor<1x16x32xf32>, %arg6: tensor<1x32x16xf32>, %arg7: tensor<8x16xf32>) {
      %1 = stablehlo.dot_general %arg7, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %2 = func.call @argmax(%1) : (tensor<8x8xf32>) -> tensor<8xi32>
      %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %3 = stablehlo.reduce(%1 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
      %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
      %5 = stablehlo.maximum %4, %3 : tensor<8xf32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
      %8 = stablehlo.subtract %1, %7 : tensor<8x8xf32>
      %9 = stablehlo.exponential %8 : tensor<8x8xf32>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
      %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
      %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x8xf32>
      %13 = stablehlo.divide %9, %12 : tensor<8x8xf32>
      %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %14 = stablehlo.reduce(%13 init: %cst_2) applies stablehlo.maximum across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
      %15 = func.call @_one_hot(%2) : (tensor<8xi32>) -> tensor<8x8xf32>
      %16 = func.call @cumsum(%15) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %17 = stablehlo.multiply %16, %15 : tensor<8x8xf32>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %18 = stablehlo.reduce(%17 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
      %19 = stablehlo.convert %18 : (tensor<8xf32>) -> tensor<8xi32>
      %c = stablehlo.constant dense<1> : tensor<i32>
      %20 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
      %21 = stablehlo.subtract %19, %20 : tensor<8xi32>
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %22 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<8xi32>
      %23 = stablehlo.compare LT, %21, %22, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
      %c_5 = stablehlo.constant dense<4> : tensor<i32>
      %24 = func.call @_where(%23, %21, %c_5) : (tensor<8xi1>, tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
      %25 = func.call @_one_hot_1(%24) : (tensor<8xi32>) -> tensor<8x4xf32>
      %26 = stablehlo.broadcast_in_dim %25, dims = [0, 2] : (tensor<8x4xf32>) -> tensor<8x1x4xf32>
      %27 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8x1xf32>
      %28 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] : (tensor<8x1x4xf32>) -> tensor<8x8x4xf32>
      %29 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<8x8x1xf32>) -> tensor<8x8x4xf32>
      %30 = stablehlo.multiply %28, %29 : tensor<8x8x4xf32>
      %31 = stablehlo.dot_general %30, %arg7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x4xf32>, tensor<8x16xf32>) -> tensor<8x4x16xf32>
      %32 = "stablehlo.all_to_all"(%31) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, split_count = 8 : i64, split_dimension = 0 : i64}> : (tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
      %33 = stablehlo.reshape %32 : (tensor<8x4x16xf32>) -> tensor<32x16xf32>
      %34 = stablehlo.reshape %arg5 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
      %35 = stablehlo.dot_general %33, %34, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x16xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
      %36 = stablehlo.multiply %35, %35 : tensor<32x32xf32>
      %37 = stablehlo.multiply %36, %35 : tensor<32x32xf32>
      %cst_6 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
      %39 = stablehlo.multiply %38, %37 : tensor<32x32xf32>
      %40 = stablehlo.add %35, %39 : tensor<32x32xf32>
      %cst_7 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %41 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
      %42 = stablehlo.multiply %41, %40 : tensor<32x32xf32>
      %43 = stablehlo.tanh %42 : tensor<32x32xf32>
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %44 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
      %45 = stablehlo.add %44, %43 : tensor<32x32xf32>
      %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %46 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
      %47 = stablehlo.multiply %46, %45 : tensor<32x32xf32>
      %48 = stablehlo.multiply %35, %47 : tensor<32x32xf32>
      %49 = stablehlo.reshape %arg6 : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
      %50 = stablehlo.dot_general %48, %49, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
      %51 = stablehlo.reshape %50 : (tensor<32x16xf32>) -> tensor<8x4x16xf32>
      %52 = "stablehlo.all_to_all"(%51) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, split_count = 8 : i64, split_dimension = 0 : i64}> : (tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
      %53 = stablehlo.dot_general %30, %52, contracting_dims = [2, 1] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<8x8x4xf32>, tensor<8x4x16xf32>) -> tensor<8x16xf32>
      %54 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
      %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
      %56 = stablehlo.multiply %53, %55 : tensor<8x16xf32>
      sdy.return %56 : tensor<8x16xf32>
    } : (tensor<16x8xf32>, tensor<8x16x32xf32>, tensor<8x32x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    return %0 : tensor<64x16xf32>
  }
  func.func private @argmax(%arg0: tensor<8x8xf32>) -> tensor<8xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<8x8xf32>, tensor<8x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<8xi32>
  }
  func.func private @_one_hot(%arg0: tensor<8xi32>) -> tensor<8x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x8xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<8x8xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %5 = stablehlo.convert %4 : (tensor<8x8xi1>) -> tensor<8x8xf32>
    return %5 : tensor<8x8xf32>
  }
  func.func private @cumsum(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 8, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
  func.func private @_where(%arg0: tensor<8xi1>, %arg1: tensor<8xi32>, %arg2: tensor<i32>) -> tensor<8xi32> {
    %0 = stablehlo.convert %arg2 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<8xi1>, tensor<8xi32>
    return %2 : tensor<8xi32>
  }
  func.func private @_one_hot_1(%arg0: tensor<8xi32>) -> tensor<8x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x4xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x4xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x4xi32>) -> tensor<8x4xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x4xi32>, tensor<8x4xi32>) -> tensor<8x4xi1>
    %5 = stablehlo.convert %4 : (tensor<8x4xi1>) -> tensor<8x4xf32>
    return %5 : tensor<8x4xf32>
  }
}
