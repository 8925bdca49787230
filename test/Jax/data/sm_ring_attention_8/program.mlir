module @jit_ring_attention attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<32x8xf32>, %arg1: tensor<32x8xf32>, %arg2: tensor<32x8xf32>) -> (tensor<32x8xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>, <@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg3: tensor<4x8xf32>, %arg4: tensor<4x8xf32>, %arg5: tensor<4x8xf32>) {
      %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %c = stablehlo.constant dense<0> : tensor<i32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %4:8 = stablehlo.while(%iterArg = %arg3, %iterArg_3 = %c_2, %iterArg_4 = %c, %iterArg_5 = %1, %iterArg_6 = %2, %iterArg_7 = %3, %iterArg_8 = %arg4, %iterArg_9 = %arg5) : tensor<4x8xf32>, tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
      cond {
        %c_10 = stablehlo.constant dense<8> : tensor<i32>
        %8 = stablehlo.compare LT, %iterArg_3, %c_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %8 : tensor<i1>
      } do {
        %8:6 = func.call @closed_call(%iterArg, %iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9) : (tensor<4x8xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
        %c_10 = stablehlo.constant dense<1> : tensor<i32>
        %9 = stablehlo.add %iterArg_3, %c_10 : tensor<i32>
        stablehlo.return %iterArg, %9, %8#0, %8#1, %8#2, %8#3, %8#4, %8#5 : tensor<4x8xf32>, tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
      }
      %5 = stablehlo.broadcast_in_dim %4#4, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
      %7 = stablehlo.divide %4#5, %6 : tensor<4x8xf32>
      sdy.return %7 : tensor<4x8xf32>
    } : (tensor<32x8xf32>, tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
    return %0 : tensor<32x8xf32>
  }
  func.func private @closed_call(%arg0: tensor<4x8xf32>, %arg1: tensor<i32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4x8xf32>, %arg5: tensor<4x8xf32>, %arg6: tensor<4x8xf32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %1 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %2 = stablehlo.dot_general %arg0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %3 = stablehlo.sqrt %cst : tensor<f32>
    %4 = stablehlo.convert %3 : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %6 = stablehlo.divide %2, %5 : tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %8 = stablehlo.maximum %arg2, %7 : tensor<4xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x4xf32>
    %11 = stablehlo.subtract %6, %10 : tensor<4x4xf32>
    %12 = stablehlo.exponential %11 : tensor<4x4xf32>
    %13 = stablehlo.subtract %arg2, %8 : tensor<4xf32>
    %14 = stablehlo.exponential %13 : tensor<4xf32>
    %15 = stablehlo.multiply %arg3, %14 : tensor<4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%12 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %17 = stablehlo.add %15, %16 : tensor<4xf32>
    %18 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
    %20 = stablehlo.multiply %arg4, %19 : tensor<4x8xf32>
    %21 = stablehlo.dot_general %12, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %22 = stablehlo.add %20, %21 : tensor<4x8xf32>
    %23 = "stablehlo.collective_permute"(%arg5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %24 = "stablehlo.collective_permute"(%arg6) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0, %8, %17, %22, %23, %24 : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
}
