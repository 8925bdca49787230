module @jit_train_dropout attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg2: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<16x16xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.tanh %0 : tensor<8x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %3 = stablehlo.subtract %2, %1 : tensor<8x16xf32>
    %c = stablehlo.constant dense<32> : tensor<i32>
    %4 = stablehlo.shift_right_logical %arg2, %c : tensor<i32>
    %5 = stablehlo.convert %4 : (tensor<i32>) -> tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_0 = stablehlo.constant dense<-1> : tensor<i32>
    %7 = stablehlo.and %arg2, %c_0 : tensor<i32>
    %8 = stablehlo.convert %7 : (tensor<i32>) -> tensor<ui32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %10 = stablehlo.concatenate %6, %9, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %cst_1 = stablehlo.constant dense<7.500000e-01> : tensor<f32>
    %11 = call @_bernoulli(%10, %cst_1) : (tensor<2xui32>, tensor<f32>) -> tensor<8x16xi1>
    %cst_2 = stablehlo.constant dense<7.500000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %13 = stablehlo.divide %1, %12 : tensor<8x16xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14:2 = call @_where(%11, %13, %cst_3) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<f32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %15 = stablehlo.multiply %14#0, %14#0 : tensor<8x16xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %17 = stablehlo.multiply %16, %14#0 : tensor<8x16xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%15 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %19 = stablehlo.divide %18, %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_8 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %20 = stablehlo.divide %cst_7, %cst_8 : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %22 = stablehlo.multiply %21, %17 : tensor<8x16xf32>
    %23 = call @_where_0(%11, %14#1, %22) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %cst_9 = stablehlo.constant dense<7.500000e-01> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %25 = stablehlo.divide %23, %24 : tensor<8x16xf32>
    %26 = stablehlo.multiply %25, %3 : tensor<8x16xf32>
    %27 = stablehlo.multiply %26, %1 : tensor<8x16xf32>
    %28 = stablehlo.add %26, %27 : tensor<8x16xf32>
    %29 = stablehlo.dot_general %28, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %30 = stablehlo.transpose %29, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    return %19, %30 : tensor<f32>, tensor<16x16xf32>
  }
  func.func private @_bernoulli(%arg0: tensor<2xui32>, %arg1: tensor<f32>) -> tensor<8x16xi1> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %2 = stablehlo.compare LT, %0, %1, FLOAT : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    return %2 : tensor<8x16xi1>
  }
  func.func private @_uniform(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<8x16xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %4 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %7 = stablehlo.reshape %6 : (tensor<1xui32>) -> tensor<ui32>
    %8 = stablehlo.iota dim = 0 : tensor<8x16xui64>
    %9 = stablehlo.iota dim = 1 : tensor<8x16xui64>
    %c = stablehlo.constant dense<16> : tensor<ui64>
    %10 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<8x16xui64>
    %11 = stablehlo.multiply %10, %8 : tensor<8x16xui64>
    %c_0 = stablehlo.constant dense<1> : tensor<ui64>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<8x16xui64>
    %13 = stablehlo.multiply %12, %9 : tensor<8x16xui64>
    %14 = stablehlo.add %11, %13 : tensor<8x16xui64>
    %c_1 = stablehlo.constant dense<32> : tensor<ui64>
    %15 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<8x16xui64>
    %16 = stablehlo.shift_right_logical %14, %15 : tensor<8x16xui64>
    %17 = stablehlo.convert %14 : (tensor<8x16xui64>) -> tensor<8x16xui32>
    %18 = stablehlo.convert %16 : (tensor<8x16xui64>) -> tensor<8x16xui32>
    %19:2 = call @threefry2x32(%5, %7, %18, %17) : (tensor<ui32>, tensor<ui32>, tensor<8x16xui32>, tensor<8x16xui32>) -> (tensor<8x16xui32>, tensor<8x16xui32>)
    %20 = stablehlo.xor %19#0, %19#1 : tensor<8x16xui32>
    %c_2 = stablehlo.constant dense<9> : tensor<ui32>
    %21 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %22 = stablehlo.shift_right_logical %20, %21 : tensor<8x16xui32>
    %c_3 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %23 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %24 = stablehlo.or %22, %23 : tensor<8x16xui32>
    %25 = stablehlo.bitcast_convert %24 : (tensor<8x16xui32>) -> tensor<8x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %27 = stablehlo.subtract %25, %26 : tensor<8x16xf32>
    %28 = stablehlo.subtract %3, %2 : tensor<1x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x16xf32>
    %30 = stablehlo.multiply %27, %29 : tensor<8x16xf32>
    %31 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x16xf32>
    %32 = stablehlo.add %30, %31 : tensor<8x16xf32>
    %33 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<8x16xf32>
    %34 = stablehlo.maximum %33, %32 : tensor<8x16xf32>
    return %34 : tensor<8x16xf32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<8x16xui32>, %arg3: tensor<8x16xui32>) -> (tensor<8x16xui32>, tensor<8x16xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<8x16xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<8x16xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<8x16xui32>, tensor<8x16xui32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<8x16xui32>, %arg2: tensor<8x16xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<8x16xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<8x16xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<8x16xui32>
    %9 = stablehlo.or %5, %8 : tensor<8x16xui32>
    %10 = stablehlo.xor %3, %9 : tensor<8x16xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<8x16xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<8x16xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<8x16xui32>
    %19 = stablehlo.or %15, %18 : tensor<8x16xui32>
    %20 = stablehlo.xor %13, %19 : tensor<8x16xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<8x16xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<8x16xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<8x16xui32>
    %29 = stablehlo.or %25, %28 : tensor<8x16xui32>
    %30 = stablehlo.xor %23, %29 : tensor<8x16xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<8x16xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<8x16xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<8x16xui32>
    %39 = stablehlo.or %35, %38 : tensor<8x16xui32>
    %40 = stablehlo.xor %33, %39 : tensor<8x16xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %42 = stablehlo.add %33, %41 : tensor<8x16xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %44 = stablehlo.add %40, %43 : tensor<8x16xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<8x16xui32>
    %48 = stablehlo.add %44, %47 : tensor<8x16xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_where(%arg0: tensor<8x16xi1>, %arg1: tensor<8x16xf32>, %arg2: tensor<f32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<8x16xi1>, tensor<8x16xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    return %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>
  }
  func.func private @_where_0(%arg0: tensor<8x16xi1>, %arg1: tensor<8x16xf32>, %arg2: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %1 = stablehlo.select %arg0, %arg2, %0 : tensor<8x16xi1>, tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}
