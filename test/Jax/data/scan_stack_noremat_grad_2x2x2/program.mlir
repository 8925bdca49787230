module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg2: tensor<4x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data", "fsdp"}, {}]>}) -> (tensor<4x32xf32> {jax.result_info = "result['b1']"}, tensor<4x16x32xf32> {jax.result_info = "result['w1']"}, tensor<4x32x16xf32> {jax.result_info = "result['w2']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %7:12 = stablehlo.while(%iterArg = %arg0, %iterArg_16 = %arg1, %iterArg_17 = %arg2, %iterArg_18 = %c, %iterArg_19 = %arg3, %iterArg_20 = %0, %iterArg_21 = %1, %iterArg_22 = %2, %iterArg_23 = %3, %iterArg_24 = %4, %iterArg_25 = %5, %iterArg_26 = %6) : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>
    cond {
      %c_27 = stablehlo.constant dense<4> : tensor<i32>
      %21 = stablehlo.compare LT, %iterArg_18, %c_27, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %21 : tensor<i1>
    } do {
      %21 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_18) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %22 = func.call @dynamic_index_in_dim_0(%iterArg_16, %iterArg_18) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %23 = func.call @dynamic_index_in_dim_1(%iterArg_17, %iterArg_18) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %24:8 = func.call @closed_call(%iterArg_19, %21, %22, %23) : (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>)
      %25 = func.call @dynamic_update_index_in_dim(%iterArg_20, %24#1, %iterArg_18) : (tensor<4x8x16xf32>, tensor<8x16xf32>, tensor<i32>) -> tensor<4x8x16xf32>
      %26 = func.call @dynamic_update_index_in_dim_2(%iterArg_21, %24#2, %iterArg_18) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %27 = func.call @dynamic_update_index_in_dim_2(%iterArg_22, %24#3, %iterArg_18) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %28 = func.call @dynamic_update_index_in_dim_2(%iterArg_23, %24#4, %iterArg_18) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %29 = func.call @dynamic_update_index_in_dim_2(%iterArg_24, %24#5, %iterArg_18) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %30 = func.call @dynamic_update_index_in_dim_2(%iterArg_25, %24#6, %iterArg_18) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %31 = func.call @dynamic_update_index_in_dim_2(%iterArg_26, %24#7, %iterArg_18) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %c_27 = stablehlo.constant dense<1> : tensor<i32>
      %32 = stablehlo.add %iterArg_18, %c_27 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %iterArg_17, %32, %24#0, %25, %26, %27, %28, %29, %30, %31 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>
    }
    %8 = stablehlo.multiply %7#4, %7#4 : tensor<8x16xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %10 = stablehlo.multiply %9, %7#4 : tensor<8x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%8 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %12 = stablehlo.divide %11, %cst_8 : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %14 = stablehlo.divide %cst_10, %cst_11 : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %16 = stablehlo.multiply %15, %10 : tensor<8x16xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x32x16xf32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %20:14 = stablehlo.while(%iterArg = %arg1, %iterArg_16 = %7#5, %iterArg_17 = %7#6, %iterArg_18 = %7#7, %iterArg_19 = %7#8, %iterArg_20 = %7#9, %iterArg_21 = %7#10, %iterArg_22 = %arg2, %iterArg_23 = %7#11, %iterArg_24 = %c_15, %iterArg_25 = %16, %iterArg_26 = %17, %iterArg_27 = %18, %iterArg_28 = %19) : tensor<4x16x32xf32>, tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x32x16xf32>, tensor<4x8x32xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
    cond {
      %c_29 = stablehlo.constant dense<4> : tensor<i32>
      %21 = stablehlo.compare LT, %iterArg_24, %c_29, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %21 : tensor<i1>
    } do {
      %c_29 = stablehlo.constant dense<4> : tensor<i32>
      %21 = stablehlo.subtract %c_29, %iterArg_24 : tensor<i32>
      %c_30 = stablehlo.constant dense<1> : tensor<i32>
      %22 = stablehlo.subtract %21, %c_30 : tensor<i32>
      %23 = func.call @dynamic_index_in_dim_0(%iterArg, %22) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %24 = func.call @dynamic_index_in_dim_3(%iterArg_16, %22) : (tensor<4x8x16xf32>, tensor<i32>) -> tensor<8x16xf32>
      %25 = func.call @dynamic_index_in_dim_4(%iterArg_17, %22) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %26 = func.call @dynamic_index_in_dim_4(%iterArg_18, %22) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %27 = func.call @dynamic_index_in_dim_4(%iterArg_19, %22) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %28 = func.call @dynamic_index_in_dim_4(%iterArg_20, %22) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %29 = func.call @dynamic_index_in_dim_4(%iterArg_21, %22) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %30 = func.call @dynamic_index_in_dim_1(%iterArg_22, %22) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %31 = func.call @dynamic_index_in_dim_4(%iterArg_23, %22) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %32:4 = func.call @closed_call_5(%iterArg_25, %23, %24, %25, %26, %27, %28, %29, %30, %31) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>)
      %33 = func.call @dynamic_update_index_in_dim_6(%iterArg_26, %32#1, %22) : (tensor<4x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<4x32xf32>
      %34 = func.call @dynamic_update_index_in_dim_7(%iterArg_27, %32#2, %22) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %35 = func.call @dynamic_update_index_in_dim_8(%iterArg_28, %32#3, %22) : (tensor<4x32x16xf32>, tensor<32x16xf32>, tensor<i32>) -> tensor<4x32x16xf32>
      %c_31 = stablehlo.constant dense<1> : tensor<i32>
      %36 = stablehlo.add %iterArg_24, %c_31 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %iterArg_17, %iterArg_18, %iterArg_19, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %36, %32#0, %33, %34, %35 : tensor<4x16x32xf32>, tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<4x32x16xf32>, tensor<4x8x32xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
    }
    return %20#11, %20#12, %20#13 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x32xf32>, %arg1: tensor<i32>) -> tensor<32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 32] : (tensor<4x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32xf32>) -> tensor<32xf32>
    return %1 : tensor<32xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<4x16x32xf32>, %arg1: tensor<i32>) -> tensor<16x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 16, 32] : (tensor<4x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<4x32x16xf32>, %arg1: tensor<i32>) -> tensor<32x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 32, 16] : (tensor<4x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
    return %1 : tensor<32x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<8x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x32xf32>
    %6 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %10 = stablehlo.multiply %9, %5 : tensor<8x32xf32>
    %11 = stablehlo.add %3, %10 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<8x32xf32>
    %14 = stablehlo.tanh %13 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %16 = stablehlo.subtract %15, %14 : tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %18 = stablehlo.add %17, %14 : tensor<8x32xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<8x32xf32>
    %21 = stablehlo.multiply %3, %20 : tensor<8x32xf32>
    %22 = stablehlo.dot_general %21, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %23 = stablehlo.add %arg0, %22 : tensor<8x16xf32>
    return %23, %arg0, %8, %14, %16, %20, %3, %21 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<i32>) -> tensor<4x8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x8x16xf32>, tensor<1x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x16xf32>
    return %1 : tensor<4x8x16xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<4x8x32xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<i32>) -> tensor<4x8x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x8x32xf32>, tensor<1x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x32xf32>
    return %1 : tensor<4x8x32xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<4x8x16xf32>, %arg1: tensor<i32>) -> tensor<8x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 8, 16] : (tensor<4x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<4x8x32xf32>, %arg1: tensor<i32>) -> tensor<8x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 8, 32] : (tensor<4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
  func.func private @closed_call_5(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<8x32xf32>, %arg4: tensor<8x32xf32>, %arg5: tensor<8x32xf32>, %arg6: tensor<8x32xf32>, %arg7: tensor<8x32xf32>, %arg8: tensor<32x16xf32>, %arg9: tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg9, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %2 = stablehlo.dot_general %arg0, %arg8, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.multiply %arg7, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %2, %arg6 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %6 = stablehlo.multiply %5, %3 : tensor<8x32xf32>
    %7 = stablehlo.multiply %6, %arg5 : tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %arg4 : tensor<8x32xf32>
    %9 = stablehlo.add %7, %8 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x32xf32>
    %12 = stablehlo.add %4, %11 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.multiply %13, %11 : tensor<8x32xf32>
    %15 = stablehlo.multiply %14, %arg3 : tensor<8x32xf32>
    %16 = stablehlo.add %12, %15 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %18 = stablehlo.reshape %17 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %20 = stablehlo.dot_general %16, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %22 = stablehlo.dot_general %16, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %23 = stablehlo.add %arg0, %22 : tensor<8x16xf32>
    return %23, %19, %21, %1 : tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<i32>) -> tensor<4x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x32xf32>, tensor<1x32xf32>, tensor<i32>, tensor<i32>) -> tensor<4x32xf32>
    return %1 : tensor<4x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<4x16x32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<i32>) -> tensor<4x16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x16x32xf32>, tensor<1x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x32xf32>
    return %1 : tensor<4x16x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<4x32x16xf32>, %arg1: tensor<32x16xf32>, %arg2: tensor<i32>) -> tensor<4x32x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x32x16xf32>, tensor<1x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x16xf32>
    return %1 : tensor<4x32x16xf32>
  }
}
