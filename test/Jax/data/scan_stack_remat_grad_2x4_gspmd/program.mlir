module @jit_loss attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x32xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg1: tensor<4x16x32xf32> {mhlo.sharding = "{devices=[1,1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<4x32x16xf32> {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg3: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x32xf32> {jax.result_info = "result[1]['b1']"}, tensor<4x16x32xf32> {jax.result_info = "result[1]['w1']"}, tensor<4x32x16xf32> {jax.result_info = "result[1]['w2']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:6 = stablehlo.while(%iterArg = %arg0, %iterArg_10 = %arg1, %iterArg_11 = %arg2, %iterArg_12 = %c, %iterArg_13 = %arg3, %iterArg_14 = %0) : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x8x16xf32>
    cond {
      %c_15 = stablehlo.constant dense<4> : tensor<i32>
      %15 = stablehlo.compare LT, %iterArg_12, %c_15, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    } do {
      %15 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_12) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %16 = func.call @dynamic_index_in_dim_0(%iterArg_10, %iterArg_12) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %17 = func.call @dynamic_index_in_dim_1(%iterArg_11, %iterArg_12) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %18:2 = func.call @closed_call(%iterArg_13, %15, %16, %17) : (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
      %19 = func.call @dynamic_update_index_in_dim(%iterArg_14, %18#1, %iterArg_12) : (tensor<4x8x16xf32>, tensor<8x16xf32>, tensor<i32>) -> tensor<4x8x16xf32>
      %c_15 = stablehlo.constant dense<1> : tensor<i32>
      %20 = stablehlo.add %iterArg_12, %c_15 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_10, %iterArg_11, %20, %18#0, %19 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x8x16xf32>
    }
    %2 = stablehlo.multiply %1#4, %1#4 : tensor<8x16xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %4 = stablehlo.multiply %3, %1#4 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%2 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %6 = stablehlo.divide %5, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %8 = stablehlo.divide %cst_4, %cst_5 : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %10 = stablehlo.multiply %9, %4 : tensor<8x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x32xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x16x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x32x16xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %14:9 = stablehlo.while(%iterArg = %1#5, %iterArg_10 = %arg0, %iterArg_11 = %arg1, %iterArg_12 = %arg2, %iterArg_13 = %c_9, %iterArg_14 = %10, %iterArg_15 = %11, %iterArg_16 = %12, %iterArg_17 = %13) : tensor<4x8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
    cond {
      %c_18 = stablehlo.constant dense<4> : tensor<i32>
      %15 = stablehlo.compare LT, %iterArg_13, %c_18, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    } do {
      %c_18 = stablehlo.constant dense<4> : tensor<i32>
      %15 = stablehlo.subtract %c_18, %iterArg_13 : tensor<i32>
      %c_19 = stablehlo.constant dense<1> : tensor<i32>
      %16 = stablehlo.subtract %15, %c_19 : tensor<i32>
      %17 = func.call @dynamic_index_in_dim_2(%iterArg, %16) : (tensor<4x8x16xf32>, tensor<i32>) -> tensor<8x16xf32>
      %18 = func.call @dynamic_index_in_dim(%iterArg_10, %16) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %19 = func.call @dynamic_index_in_dim_0(%iterArg_11, %16) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %20 = func.call @dynamic_index_in_dim_1(%iterArg_12, %16) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %21:4 = func.call @closed_call_3(%iterArg_14, %17, %18, %19, %20) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>)
      %22 = func.call @dynamic_update_index_in_dim_4(%iterArg_15, %21#1, %16) : (tensor<4x32xf32>, tensor<32xf32>, tensor<i32>) -> tensor<4x32xf32>
      %23 = func.call @dynamic_update_index_in_dim_5(%iterArg_16, %21#2, %16) : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<4x16x32xf32>
      %24 = func.call @dynamic_update_index_in_dim_6(%iterArg_17, %21#3, %16) : (tensor<4x32x16xf32>, tensor<32x16xf32>, tensor<i32>) -> tensor<4x32x16xf32>
      %c_20 = stablehlo.constant dense<1> : tensor<i32>
      %25 = stablehlo.add %iterArg_13, %c_20 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_10, %iterArg_11, %iterArg_12, %25, %21#0, %22, %23, %24 : tensor<4x8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
    }
    return %6, %14#6, %14#7, %14#8 : tensor<f32>, tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
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
  func.func private @closed_call(%arg0: tensor<8x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x32xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<8x32xf32>
    %8 = stablehlo.add %3, %7 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<8x32xf32>
    %11 = stablehlo.tanh %10 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %13 = stablehlo.add %12, %11 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<8x32xf32>
    %16 = stablehlo.multiply %3, %15 : tensor<8x32xf32>
    %17 = stablehlo.dot_general %16, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %18 = stablehlo.add %arg0, %17 : tensor<8x16xf32>
    return %18, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<i32>) -> tensor<4x8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x8x16xf32>, tensor<1x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x16xf32>
    return %1 : tensor<4x8x16xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<4x8x16xf32>, %arg1: tensor<i32>) -> tensor<8x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 8, 16] : (tensor<4x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @closed_call_3(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<32xf32>, %arg3: tensor<16x32xf32>, %arg4: tensor<32x16xf32>) -> (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) {
    %0:5 = stablehlo.optimization_barrier %arg1, %arg2, %arg3, %arg4, %arg0 : tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<8x16xf32>
    %1 = stablehlo.dot_general %0#0, %0#2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.broadcast_in_dim %0#1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %4 = stablehlo.add %1, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<8x32xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<8x32xf32>
    %7 = stablehlo.multiply %4, %4 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.multiply %10, %6 : tensor<8x32xf32>
    %12 = stablehlo.add %4, %11 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.multiply %13, %12 : tensor<8x32xf32>
    %15 = stablehlo.tanh %14 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %17 = stablehlo.subtract %16, %15 : tensor<8x32xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %19 = stablehlo.add %18, %15 : tensor<8x32xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %21 = stablehlo.multiply %20, %19 : tensor<8x32xf32>
    %22 = stablehlo.multiply %4, %21 : tensor<8x32xf32>
    %23 = stablehlo.dot_general %0#4, %22, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    %24 = stablehlo.transpose %23, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %25 = stablehlo.dot_general %0#4, %0#3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %26 = stablehlo.multiply %4, %25 : tensor<8x32xf32>
    %27 = stablehlo.multiply %25, %21 : tensor<8x32xf32>
    %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %29 = stablehlo.multiply %28, %26 : tensor<8x32xf32>
    %30 = stablehlo.multiply %29, %17 : tensor<8x32xf32>
    %31 = stablehlo.multiply %30, %15 : tensor<8x32xf32>
    %32 = stablehlo.add %30, %31 : tensor<8x32xf32>
    %cst_6 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %34 = stablehlo.multiply %33, %32 : tensor<8x32xf32>
    %35 = stablehlo.add %27, %34 : tensor<8x32xf32>
    %cst_7 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %37 = stablehlo.multiply %36, %34 : tensor<8x32xf32>
    %38 = stablehlo.multiply %37, %9 : tensor<8x32xf32>
    %39 = stablehlo.add %35, %38 : tensor<8x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %41 = stablehlo.reshape %40 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.reduce(%41 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %43 = stablehlo.dot_general %39, %0#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %44 = stablehlo.transpose %43, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %45 = stablehlo.dot_general %39, %0#2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %46 = stablehlo.add %0#4, %45 : tensor<8x16xf32>
    return %46, %42, %44, %24 : tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>
  }
  func.func private @dynamic_update_index_in_dim_4(%arg0: tensor<4x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<i32>) -> tensor<4x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x32xf32>, tensor<1x32xf32>, tensor<i32>, tensor<i32>) -> tensor<4x32xf32>
    return %1 : tensor<4x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_5(%arg0: tensor<4x16x32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<i32>) -> tensor<4x16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x16x32xf32>, tensor<1x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x16x32xf32>
    return %1 : tensor<4x16x32xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<4x32x16xf32>, %arg1: tensor<32x16xf32>, %arg2: tensor<i32>) -> tensor<4x32x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<32x16xf32>) -> tensor<1x32x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x32x16xf32>, tensor<1x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x16xf32>
    return %1 : tensor<4x32x16xf32>
  }
}
