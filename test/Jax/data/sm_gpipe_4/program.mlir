module @jit_gpipe attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 4 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<4x16x16xf32>, %arg1: tensor<6x4x16xf32>) -> (tensor<6x4x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"data", ?}, {?}, {?}]>, <@mesh, [{?}, {?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}, {?}]>] manual_axes={"data"} (%arg2: tensor<1x16x16xf32>, %arg3: tensor<6x4x16xf32>) {
      %1 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, []>] manual_axes={"model"} () {
        %c_4 = stablehlo.constant dense<2> : tensor<ui32>
        %c_5 = stablehlo.constant dense<4> : tensor<ui32>
        %16 = stablehlo.partition_id : tensor<ui32>
        %17 = stablehlo.divide %16, %c_4 : tensor<ui32>
        %18 = stablehlo.remainder %17, %c_5 : tensor<ui32>
        %19 = stablehlo.convert %18 : (tensor<ui32>) -> tensor<i32>
        sdy.return %19 : tensor<i32>
      } : () -> tensor<i32>
      %2 = stablehlo.reshape %arg2 : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
      %3 = sdy.sharding_constraint %2 <@mesh, [{?}, {?}]> : tensor<16x16xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
      %5 = sdy.sharding_constraint %4 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x4x16xf32>
      %7 = sdy.sharding_constraint %6 <@mesh, [{?}, {?}, {?}]> : tensor<6x4x16xf32>
      %c = stablehlo.constant dense<0> : tensor<i32>
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %8:7 = stablehlo.while(%iterArg = %1, %iterArg_4 = %arg3, %iterArg_5 = %3, %iterArg_6 = %c_1, %iterArg_7 = %c, %iterArg_8 = %5, %iterArg_9 = %7) : tensor<i32>, tensor<6x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<6x4x16xf32>
      cond {
        %c_10 = stablehlo.constant dense<9> : tensor<i32>
        %16 = sdy.sharding_constraint %iterArg_6 <@mesh, []> : tensor<i32>
        %17 = sdy.sharding_constraint %c_10 <@mesh, []> : tensor<i32>
        %18 = stablehlo.compare LT, %16, %17, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %18 : tensor<i1>
      } do {
        %16:3 = func.call @closed_call(%iterArg, %iterArg_4, %iterArg_5, %iterArg_7, %iterArg_8, %iterArg_9) : (tensor<i32>, tensor<6x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<6x4x16xf32>) -> (tensor<i32>, tensor<4x16xf32>, tensor<6x4x16xf32>)
        %c_10 = stablehlo.constant dense<1> : tensor<i32>
        %17 = sdy.sharding_constraint %iterArg_6 <@mesh, []> : tensor<i32>
        %18 = sdy.sharding_constraint %c_10 <@mesh, []> : tensor<i32>
        %19 = stablehlo.add %17, %18 : tensor<i32>
        %20 = sdy.sharding_constraint %19 <@mesh, []> : tensor<i32>
        stablehlo.return %iterArg, %iterArg_4, %iterArg_5, %20, %16#0, %16#1, %16#2 : tensor<i32>, tensor<6x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<i32>, tensor<4x16xf32>, tensor<6x4x16xf32>
      }
      %9 = sdy.sharding_constraint %8#3 <@mesh, []> : tensor<i32>
      %10 = sdy.sharding_constraint %8#4 <@mesh, []> : tensor<i32>
      %11 = sdy.sharding_constraint %8#5 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
      %12 = sdy.sharding_constraint %8#6 <@mesh, [{?}, {?}, {?}]> : tensor<6x4x16xf32>
      %c_2 = stablehlo.constant dense<3> : tensor<i32>
      %13 = stablehlo.compare EQ, %1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %14 = func.call @_where_3(%13, %12, %cst_3) : (tensor<i1>, tensor<6x4x16xf32>, tensor<f32>) -> tensor<6x4x16xf32>
      %15 = "stablehlo.all_reduce"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %16 = stablehlo.add %arg4, %arg5 : tensor<f32>
        %17 = sdy.sharding_constraint %16 <@mesh, []> : tensor<f32>
        stablehlo.return %17 : tensor<f32>
      }) : (tensor<6x4x16xf32>) -> tensor<6x4x16xf32>
      sdy.return %15 : tensor<6x4x16xf32>
    } : (tensor<4x16x16xf32>, tensor<6x4x16xf32>) -> tensor<6x4x16xf32>
    return %0 : tensor<6x4x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<6x4x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<i32>, %arg4: tensor<4x16xf32>, %arg5: tensor<6x4x16xf32>) -> (tensor<i32>, tensor<4x16xf32>, tensor<6x4x16xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = sdy.sharding_constraint %arg3 <@mesh, []> : tensor<i32>
    %1 = sdy.sharding_constraint %c <@mesh, []> : tensor<i32>
    %2 = stablehlo.add %0, %1 : tensor<i32>
    %3 = sdy.sharding_constraint %2 <@mesh, []> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare EQ, %arg0, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<6> : tensor<i32>
    %5 = call @remainder(%arg3, %c_1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = stablehlo.convert %5 : tensor<i32>
    %7 = sdy.sharding_constraint %6 <@mesh, []> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %7, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<6> : tensor<i32>
    %9 = stablehlo.add %7, %c_3 : tensor<i32>
    %10 = sdy.sharding_constraint %9 <@mesh, []> : tensor<i32>
    %11 = stablehlo.select %8, %10, %7 : tensor<i1>, tensor<i32>
    %12 = sdy.sharding_constraint %11 <@mesh, []> : tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.compare LT, %c_4, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<4> : tensor<i32>
    %14 = stablehlo.add %c_6, %c_7 : tensor<i32>
    %15 = sdy.sharding_constraint %14 <@mesh, []> : tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.select %13, %15, %c_8 : tensor<i1>, tensor<i32>
    %17 = sdy.sharding_constraint %16 <@mesh, []> : tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.compare LT, %c_9, %c_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %c_12 = stablehlo.constant dense<16> : tensor<i32>
    %19 = stablehlo.add %c_11, %c_12 : tensor<i32>
    %20 = sdy.sharding_constraint %19 <@mesh, []> : tensor<i32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.select %18, %20, %c_13 : tensor<i1>, tensor<i32>
    %22 = sdy.sharding_constraint %21 <@mesh, []> : tensor<i32>
    %23 = stablehlo.dynamic_slice %arg1, %12, %17, %22, sizes = [1, 4, 16] : (tensor<6x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x16xf32>
    %24 = sdy.sharding_constraint %23 <@mesh, [{?}, {?}, {?}]> : tensor<1x4x16xf32>
    %25 = stablehlo.reshape %24 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    %26 = sdy.sharding_constraint %25 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
    %27 = call @_where_0(%4, %26, %arg4) : (tensor<i1>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %28 = stablehlo.dot_general %27, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %29 = sdy.sharding_constraint %28 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
    %30 = stablehlo.tanh %29 : tensor<4x16xf32>
    %31 = sdy.sharding_constraint %30 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
    %c_14 = stablehlo.constant dense<3> : tensor<i32>
    %32 = stablehlo.compare EQ, %arg0, %c_14, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_15 = stablehlo.constant dense<3> : tensor<i32>
    %33 = sdy.sharding_constraint %arg3 <@mesh, []> : tensor<i32>
    %34 = sdy.sharding_constraint %c_15 <@mesh, []> : tensor<i32>
    %35 = stablehlo.compare GE, %33, %34, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_16 = stablehlo.constant dense<false> : tensor<i1>
    %36 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i1>) -> tensor<i1>
    %37 = stablehlo.compare NE, %35, %36, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %38 = stablehlo.convert %37 : tensor<i1>
    %39 = sdy.sharding_constraint %38 <@mesh, []> : tensor<i1>
    %40 = stablehlo.and %32, %39 : tensor<i1>
    %41 = sdy.sharding_constraint %40 <@mesh, []> : tensor<i1>
    %c_17 = stablehlo.constant dense<4> : tensor<i32>
    %42 = sdy.sharding_constraint %arg3 <@mesh, []> : tensor<i32>
    %43 = sdy.sharding_constraint %c_17 <@mesh, []> : tensor<i32>
    %44 = stablehlo.subtract %42, %43 : tensor<i32>
    %45 = sdy.sharding_constraint %44 <@mesh, []> : tensor<i32>
    %c_18 = stablehlo.constant dense<1> : tensor<i32>
    %46 = sdy.sharding_constraint %c_18 <@mesh, []> : tensor<i32>
    %47 = stablehlo.add %45, %46 : tensor<i32>
    %48 = sdy.sharding_constraint %47 <@mesh, []> : tensor<i32>
    %c_19 = stablehlo.constant dense<6> : tensor<i32>
    %49 = call @remainder_1(%48, %c_19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %50 = sdy.sharding_constraint %c_20 <@mesh, []> : tensor<i32>
    %51 = stablehlo.compare LT, %49, %50, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_21 = stablehlo.constant dense<6> : tensor<i32>
    %52 = sdy.sharding_constraint %c_21 <@mesh, []> : tensor<i32>
    %53 = stablehlo.add %49, %52 : tensor<i32>
    %54 = sdy.sharding_constraint %53 <@mesh, []> : tensor<i32>
    %55 = stablehlo.select %51, %54, %49 : tensor<i1>, tensor<i32>
    %56 = sdy.sharding_constraint %55 <@mesh, []> : tensor<i32>
    %57 = stablehlo.convert %56 : tensor<i32>
    %58 = sdy.sharding_constraint %57 <@mesh, []> : tensor<i32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %60 = sdy.sharding_constraint %59 <@mesh, [{?}]> : tensor<1xi32>
    %61 = "stablehlo.scatter"(%arg5, %60, %31) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      stablehlo.return %arg7 : tensor<f32>
    }) : (tensor<6x4x16xf32>, tensor<1xi32>, tensor<4x16xf32>) -> tensor<6x4x16xf32>
    %62 = sdy.sharding_constraint %61 <@mesh, [{?}, {?}, {?}]> : tensor<6x4x16xf32>
    %63 = call @_where_2(%41, %62, %arg5) : (tensor<i1>, tensor<6x4x16xf32>, tensor<6x4x16xf32>) -> tensor<6x4x16xf32>
    %64 = "stablehlo.collective_permute"(%31) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 4], [4, 6], [6, 0], [1, 3], [3, 5], [5, 7], [7, 1]]> : tensor<8x2xi64>}> : (tensor<4x16xf32>) -> tensor<4x16xf32>
    return %3, %64, %63 : tensor<i32>, tensor<4x16xf32>, tensor<6x4x16xf32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = sdy.sharding_constraint %arg1 <@mesh, []> : tensor<i32>
    %1 = sdy.sharding_constraint %c <@mesh, []> : tensor<i32>
    %2 = stablehlo.compare EQ, %0, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %3 = call @_where(%2, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = sdy.sharding_constraint %arg0 <@mesh, []> : tensor<i32>
    %5 = stablehlo.remainder %4, %3 : tensor<i32>
    %6 = sdy.sharding_constraint %5 <@mesh, []> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare NE, %6, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %6, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %3, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.compare NE, %8, %9, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %11 = stablehlo.and %10, %7 : tensor<i1>
    %12 = sdy.sharding_constraint %11 <@mesh, []> : tensor<i1>
    %13 = stablehlo.add %6, %3 : tensor<i32>
    %14 = sdy.sharding_constraint %13 <@mesh, []> : tensor<i32>
    %15 = stablehlo.select %12, %14, %6 : tensor<i1>, tensor<i32>
    %16 = sdy.sharding_constraint %15 <@mesh, []> : tensor<i32>
    return %16 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    %1 = sdy.sharding_constraint %0 <@mesh, []> : tensor<i32>
    return %1 : tensor<i32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<4x16xf32>, %arg2: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<4x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
  func.func private @remainder_1(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = sdy.sharding_constraint %arg1 <@mesh, []> : tensor<i32>
    %1 = sdy.sharding_constraint %c <@mesh, []> : tensor<i32>
    %2 = stablehlo.compare EQ, %0, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %3 = call @_where(%2, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<i32>
    %5 = sdy.sharding_constraint %4 <@mesh, []> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare NE, %5, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %5, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %3, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = stablehlo.compare NE, %7, %8, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %10 = stablehlo.and %9, %6 : tensor<i1>
    %11 = sdy.sharding_constraint %10 <@mesh, []> : tensor<i1>
    %12 = stablehlo.add %5, %3 : tensor<i32>
    %13 = sdy.sharding_constraint %12 <@mesh, []> : tensor<i32>
    %14 = stablehlo.select %11, %13, %5 : tensor<i1>, tensor<i32>
    %15 = sdy.sharding_constraint %14 <@mesh, []> : tensor<i32>
    return %15 : tensor<i32>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<6x4x16xf32>, %arg2: tensor<6x4x16xf32>) -> tensor<6x4x16xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<6x4x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {?}, {?}]> : tensor<6x4x16xf32>
    return %1 : tensor<6x4x16xf32>
  }
  func.func private @_where_3(%arg0: tensor<i1>, %arg1: tensor<6x4x16xf32>, %arg2: tensor<f32>) -> tensor<6x4x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = sdy.sharding_constraint %0 <@mesh, []> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<6x4x16xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{?}, {?}, {?}]> : tensor<6x4x16xf32>
    %4 = stablehlo.select %arg0, %arg1, %3 : tensor<i1>, tensor<6x4x16xf32>
    %5 = sdy.sharding_constraint %4 <@mesh, [{?}, {?}, {?}]> : tensor<6x4x16xf32>
    return %5 : tensor<6x4x16xf32>
  }
}
