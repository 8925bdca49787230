module @jit_collective_matmul attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=1, "model"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 1 : i64}, {name = "model", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x16xf32>) -> (tensor<16x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"model"}, {}]>, <@mesh, [{}, {"model"}]>] out_shardings=[<@mesh, [{}, {"model"}]>] manual_axes={"data", "model"} (%arg2: tensor<2x8xf32>, %arg3: tensor<8x2xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<8> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x2xf32>
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %6:6 = stablehlo.while(%iterArg = %4, %iterArg_3 = %arg3, %iterArg_4 = %c_2, %iterArg_5 = %c_1, %iterArg_6 = %5, %iterArg_7 = %arg2) : tensor<i32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>, tensor<16x2xf32>, tensor<2x8xf32>
      cond {
        %c_8 = stablehlo.constant dense<8> : tensor<i32>
        %7 = stablehlo.compare LT, %iterArg_4, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %7 : tensor<i1>
      } do {
        %7:3 = func.call @closed_call(%iterArg, %iterArg_3, %iterArg_5, %iterArg_6, %iterArg_7) : (tensor<i32>, tensor<8x2xf32>, tensor<i32>, tensor<16x2xf32>, tensor<2x8xf32>) -> (tensor<i32>, tensor<16x2xf32>, tensor<2x8xf32>)
        %c_8 = stablehlo.constant dense<1> : tensor<i32>
        %8 = stablehlo.add %iterArg_4, %c_8 : tensor<i32>
        stablehlo.return %iterArg, %iterArg_3, %8, %7#0, %7#1, %7#2 : tensor<i32>, tensor<8x2xf32>, tensor<i32>, tensor<i32>, tensor<16x2xf32>, tensor<2x8xf32>
      }
      sdy.return %6#4 : tensor<16x2xf32>
    } : (tensor<16x8xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    return %0 : tensor<16x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<8x2xf32>, %arg2: tensor<i32>, %arg3: tensor<16x2xf32>, %arg4: tensor<2x8xf32>) -> (tensor<i32>, tensor<16x2xf32>, tensor<2x8xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c : tensor<i32>
    %1 = stablehlo.convert %arg2 : tensor<i32>
    %2 = stablehlo.subtract %arg0, %1 : tensor<i32>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %3 = call @remainder(%2, %c_0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = stablehlo.dot_general %arg4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x2xf32>) -> tensor<2x2xf32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %5 = stablehlo.multiply %3, %c_1 : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare LT, %5, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<16> : tensor<i32>
    %7 = stablehlo.add %5, %c_3 : tensor<i32>
    %8 = stablehlo.select %6, %7, %5 : tensor<i1>, tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.dynamic_update_slice %arg3, %4, %8, %c_4 : (tensor<16x2xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<16x2xf32>
    %10 = "stablehlo.collective_permute"(%arg4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %0, %9, %10 : tensor<i32>, tensor<16x2xf32>, tensor<2x8xf32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare NE, %3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.compare NE, %5, %6, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %8 = stablehlo.and %7, %4 : tensor<i1>
    %9 = stablehlo.add %3, %2 : tensor<i32>
    %10 = stablehlo.select %8, %9, %3 : tensor<i1>, tensor<i32>
    return %10 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
