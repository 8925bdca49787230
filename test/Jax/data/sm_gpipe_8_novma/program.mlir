module @jit_gpipe attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x8x8xf32>, %arg1: tensor<4x2x8xf32>) -> (tensor<4x2x8xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"data"}, {}, {}]>, <@mesh, [{}, {}, {}]>] out_shardings=[<@mesh, [{}, {}, {}]>] manual_axes={"data"} (%arg2: tensor<1x8x8xf32>, %arg3: tensor<4x2x8xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<8> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %5 = stablehlo.reshape %arg2 : (tensor<1x8x8xf32>) -> tensor<8x8xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x2x8xf32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %8:7 = stablehlo.while(%iterArg = %4, %iterArg_6 = %arg3, %iterArg_7 = %5, %iterArg_8 = %c_3, %iterArg_9 = %c_2, %iterArg_10 = %6, %iterArg_11 = %7) : tensor<i32>, tensor<4x2x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<2x8xf32>, tensor<4x2x8xf32>
      cond {
        %c_12 = stablehlo.constant dense<11> : tensor<i32>
        %12 = stablehlo.compare LT, %iterArg_8, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %12 : tensor<i1>
      } do {
        %12:3 = func.call @closed_call(%iterArg, %iterArg_6, %iterArg_7, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<4x2x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<2x8xf32>, tensor<4x2x8xf32>) -> (tensor<i32>, tensor<2x8xf32>, tensor<4x2x8xf32>)
        %c_12 = stablehlo.constant dense<1> : tensor<i32>
        %13 = stablehlo.add %iterArg_8, %c_12 : tensor<i32>
        stablehlo.return %iterArg, %iterArg_6, %iterArg_7, %13, %12#0, %12#1, %12#2 : tensor<i32>, tensor<4x2x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<2x8xf32>, tensor<4x2x8xf32>
      }
      %c_4 = stablehlo.constant dense<7> : tensor<i32>
      %9 = stablehlo.compare EQ, %4, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %10 = func.call @_where_3(%9, %8#6, %cst_5) : (tensor<i1>, tensor<4x2x8xf32>, tensor<f32>) -> tensor<4x2x8xf32>
      %11 = "stablehlo.all_reduce"(%10) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %12 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %12 : tensor<f32>
      }) : (tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
      sdy.return %11 : tensor<4x2x8xf32>
    } : (tensor<8x8x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    return %0 : tensor<4x2x8xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<4x2x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<i32>, %arg4: tensor<2x8xf32>, %arg5: tensor<4x2x8xf32>) -> (tensor<i32>, tensor<2x8xf32>, tensor<4x2x8xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg3, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %arg0, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %2 = call @remainder(%arg3, %c_1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.convert %2 : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<4> : tensor<i32>
    %5 = stablehlo.add %3, %c_3 : tensor<i32>
    %6 = stablehlo.select %4, %5, %3 : tensor<i1>, tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %c_4, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<2> : tensor<i32>
    %8 = stablehlo.add %c_6, %c_7 : tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.select %7, %8, %c_8 : tensor<i1>, tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.compare LT, %c_9, %c_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %c_12 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.add %c_11, %c_12 : tensor<i32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.select %10, %11, %c_13 : tensor<i1>, tensor<i32>
    %13 = stablehlo.dynamic_slice %arg1, %6, %9, %12, sizes = [1, 2, 8] : (tensor<4x2x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x8xf32>
    %14 = stablehlo.reshape %13 : (tensor<1x2x8xf32>) -> tensor<2x8xf32>
    %15 = call @_where_0(%1, %14, %arg4) : (tensor<i1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %16 = stablehlo.dot_general %15, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    %17 = stablehlo.tanh %16 : tensor<2x8xf32>
    %c_14 = stablehlo.constant dense<7> : tensor<i32>
    %18 = stablehlo.compare EQ, %arg0, %c_14, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_15 = stablehlo.constant dense<7> : tensor<i32>
    %19 = stablehlo.compare GE, %arg3, %c_15, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_16 = stablehlo.constant dense<false> : tensor<i1>
    %20 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i1>) -> tensor<i1>
    %21 = stablehlo.compare NE, %19, %20, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %22 = stablehlo.convert %21 : tensor<i1>
    %23 = stablehlo.and %18, %22 : tensor<i1>
    %c_17 = stablehlo.constant dense<8> : tensor<i32>
    %24 = stablehlo.subtract %arg3, %c_17 : tensor<i32>
    %c_18 = stablehlo.constant dense<1> : tensor<i32>
    %25 = stablehlo.add %24, %c_18 : tensor<i32>
    %c_19 = stablehlo.constant dense<4> : tensor<i32>
    %26 = call @remainder_1(%25, %c_19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %27 = stablehlo.compare LT, %26, %c_20, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_21 = stablehlo.constant dense<4> : tensor<i32>
    %28 = stablehlo.add %26, %c_21 : tensor<i32>
    %29 = stablehlo.select %27, %28, %26 : tensor<i1>, tensor<i32>
    %30 = stablehlo.convert %29 : tensor<i32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %32 = "stablehlo.scatter"(%arg5, %31, %17) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      stablehlo.return %arg7 : tensor<f32>
    }) : (tensor<4x2x8xf32>, tensor<1xi32>, tensor<2x8xf32>) -> tensor<4x2x8xf32>
    %33 = call @_where_2(%23, %32, %arg5) : (tensor<i1>, tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %34 = "stablehlo.collective_permute"(%17) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
    return %0, %34, %33 : tensor<i32>, tensor<2x8xf32>, tensor<4x2x8xf32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %2, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<2x8xf32>, %arg2: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
  func.func private @remainder_1(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %2, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<4x2x8xf32>, %arg2: tensor<4x2x8xf32>) -> tensor<4x2x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<4x2x8xf32>
    return %0 : tensor<4x2x8xf32>
  }
  func.func private @_where_3(%arg0: tensor<i1>, %arg1: tensor<4x2x8xf32>, %arg2: tensor<f32>) -> tensor<4x2x8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x2x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x2x8xf32>
    return %2 : tensor<4x2x8xf32>
  }
}
