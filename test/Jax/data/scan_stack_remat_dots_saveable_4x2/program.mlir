module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=4, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 4 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg1: tensor<4x16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"model"}]>}, %arg2: tensor<4x32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, %arg3: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<4x32xf32> {jax.result_info = "result['b1']"}, tensor<4x16x32xf32> {jax.result_info = "result['w1']"}, tensor<4x32x16xf32> {jax.result_info = "result['w2']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x32xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:7 = stablehlo.while(%iterArg = %arg0, %iterArg_11 = %arg1, %iterArg_12 = %arg2, %iterArg_13 = %c, %iterArg_14 = %arg3, %iterArg_15 = %0, %iterArg_16 = %1) : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x8x32xf32>, tensor<4x8x16xf32>
    cond {
      %c_17 = stablehlo.constant dense<4> : tensor<i32>
      %16 = stablehlo.compare LT, %iterArg_13, %c_17, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    } do {
      %16 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_13) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %17 = func.call @dynamic_index_in_dim_0(%iterArg_11, %iterArg_13) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %18 = func.call @dynamic_index_in_dim_1(%iterArg_12, %iterArg_13) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %19:3 = func.call @closed_call(%iterArg_14, %16, %17, %18) : (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>)
      %20 = func.call @dynamic_update_index_in_dim(%iterArg_15, %19#1, %iterArg_13) : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<i32>) -> tensor<4x8x32xf32>
      %21 = func.call @dynamic_update_index_in_dim_2(%iterArg_16, %19#2, %iterArg_13) : (tensor<4x8x16xf32>, tensor<8x16xf32>, tensor<i32>) -> tensor<4x8x16xf32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %22 = stablehlo.add %iterArg_13, %c_17 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_11, %iterArg_12, %22, %19#0, %20, %21 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x8x32xf32>, tensor<4x8x16xf32>
    }
    %3 = stablehlo.multiply %2#4, %2#4 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %5 = stablehlo.multiply %4, %2#4 : tensor<8x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%3 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %7 = stablehlo.divide %6, %cst_3 : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %9 = stablehlo.divide %cst_5, %cst_6 : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %11 = stablehlo.multiply %10, %5 : tensor<8x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x32x16xf32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %15:10 = stablehlo.while(%iterArg = %2#5, %iterArg_11 = %2#6, %iterArg_12 = %arg0, %iterArg_13 = %arg1, %iterArg_14 = %arg2, %iterArg_15 = %c_10, %iterArg_16 = %11, %iterArg_17 = %12, %iterArg_18 = %13, %iterArg_19 = %14) : tensor<4x8x32xf32>, tensor<4x8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
    cond {
      %c_20 = stablehlo.constant dense<4> : tensor<i32>
      %16 = stablehlo.compare LT, %iterArg_15, %c_20, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    } do {
      %c_20 = stablehlo.constant dense<4> : tensor<i32>
      %16 = stablehlo.subtract %c_20, %iterArg_15 : tensor<i32>
      %c_21 = stablehlo.constant dense<1> : tensor<i32>
      %17 = stablehlo.subtract %16, %c_21 : tensor<i32>
      %18 = func.call @dynamic_index_in_dim_3(%iterArg, %17) : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %19 = func.call @dynamic_index_in_dim_4(%iterArg_11, %17) : (tensor<4x8x16xf32>, tensor<i32>) -> tensor<8x16xf32>
      %20 = func.call @dynamic_index_in_dim(%iterArg_12, %17) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %21 = func.call @dynamic_index_in_dim_0(%iterArg_13, %17) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %22 = func.call @dynamic_index_in_dim_1(%iterArg_14, %17) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %23:4 = func.call @closed_call_5(%iterArg_16, %18, %19, %20, %21, %22) : (tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>)
      %24 = func.call @dynamic_update_index_in_dim_6(%iterArg_17, %23#1, %17) : (tensor<4x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<4x32xf32>
      %25 = func.call @dynamic_update_index_in_dim_7(%iterArg_18, %23#2, %17) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %26 = func.call @dynamic_update_index_in_dim_8(%iterArg_19, %23#3, %17) : (tensor<4x32x16xf32>, tensor<32x16xf32>, tensor<i32>) -> tensor<4x32x16xf32>
      %c_22 = stablehlo.constant dense<1> : tensor<i32>
      %27 = stablehlo.add %iterArg_15, %c_22 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %27, %23#0, %24, %25, %26 : tensor<4x8x32xf32>, tensor<4x8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
    }
    return %15#7, %15#8, %15#9 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
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
  func.func private @closed_call(%arg0: tensor<8x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.reduce_precision %0, format = e8m23 : tensor<8x32xf32>
    %2 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %4 = stablehlo.add %1, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<8x32xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<8x32xf32>
    %9 = stablehlo.add %4, %8 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x32xf32>
    %12 = stablehlo.tanh %11 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.add %13, %12 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<8x32xf32>
    %17 = stablehlo.multiply %4, %16 : tensor<8x32xf32>
    %18 = stablehlo.dot_general %17, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %19 = stablehlo.add %arg0, %18 : tensor<8x16xf32>
    return %19, %1, %arg0 : tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x8x32xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<i32>) -> tensor<4x8x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<8x32xf32>) -> tensor<1x8x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x8x32xf32>, tensor<1x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x32xf32>
    return %1 : tensor<4x8x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<4x8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<i32>) -> tensor<4x8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x8x16xf32>, tensor<1x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x16xf32>
    return %1 : tensor<4x8x16xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<4x8x32xf32>, %arg1: tensor<i32>) -> tensor<8x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 8, 32] : (tensor<4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<4x8x16xf32>, %arg1: tensor<i32>) -> tensor<8x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 8, 16] : (tensor<4x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @closed_call_5(%arg0: tensor<8x16xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<32xf32>, %arg4: tensor<16x32xf32>, %arg5: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) {
    %0:6 = stablehlo.optimization_barrier %arg1, %arg2, %arg3, %arg4, %arg5, %arg0 : tensor<8x32xf32>, tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<8x16xf32>
    %1 = stablehlo.broadcast_in_dim %0#2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %0#0, %2 : tensor<8x32xf32>
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
    %22 = stablehlo.dot_general %0#5, %21, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %24 = stablehlo.dot_general %0#5, %0#4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %25 = stablehlo.multiply %3, %24 : tensor<8x32xf32>
    %26 = stablehlo.multiply %24, %20 : tensor<8x32xf32>
    %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %28 = stablehlo.multiply %27, %25 : tensor<8x32xf32>
    %29 = stablehlo.multiply %28, %16 : tensor<8x32xf32>
    %30 = stablehlo.multiply %29, %14 : tensor<8x32xf32>
    %31 = stablehlo.add %29, %30 : tensor<8x32xf32>
    %cst_6 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %33 = stablehlo.multiply %32, %31 : tensor<8x32xf32>
    %34 = stablehlo.add %26, %33 : tensor<8x32xf32>
    %cst_7 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %36 = stablehlo.multiply %35, %33 : tensor<8x32xf32>
    %37 = stablehlo.multiply %36, %8 : tensor<8x32xf32>
    %38 = stablehlo.add %34, %37 : tensor<8x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %40 = stablehlo.reshape %39 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %42 = stablehlo.dot_general %38, %0#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %43 = stablehlo.transpose %42, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %44 = stablehlo.dot_general %38, %0#3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %45 = stablehlo.add %0#5, %44 : tensor<8x16xf32>
    return %45, %41, %43, %23 : tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>
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
