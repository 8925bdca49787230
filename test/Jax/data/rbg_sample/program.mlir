module @jit_rbg attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<8xui32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<32> : tensor<i32>
    %0 = stablehlo.shift_right_logical %arg0, %c : tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_0 = stablehlo.constant dense<-1> : tensor<i32>
    %3 = stablehlo.and %arg0, %c_0 : tensor<i32>
    %4 = stablehlo.convert %3 : (tensor<i32>) -> tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %6 = stablehlo.concatenate %2, %5, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %7 = stablehlo.concatenate %6, %6, dim = 0 : (tensor<2xui32>, tensor<2xui32>) -> tensor<4xui32>
    %8 = call @_normal(%7) : (tensor<4xui32>) -> tensor<4x8xf32>
    %c_1 = stablehlo.constant dense<3> : tensor<ui32>
    %9 = stablehlo.reshape %7 : (tensor<4xui32>) -> tensor<2x2xui32>
    %10 = call @_threefry_fold_in(%9, %c_1) : (tensor<2x2xui32>, tensor<ui32>) -> tensor<2x2xui32>
    %11 = stablehlo.reshape %10 : (tensor<2x2xui32>) -> tensor<4xui32>
    %12 = stablehlo.reshape %11 : (tensor<4xui32>) -> tensor<2x2xui32>
    %13 = stablehlo.bitcast_convert %12 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %13, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)
    %14 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %15 = stablehlo.reshape %14 : (tensor<2x2xui32>) -> tensor<4xui32>
    return %8, %output : tensor<4x8xf32>, tensor<8xui32>
  }
  func.func private @_normal(%arg0: tensor<4xui32>) -> tensor<4x8xf32> {
    %0 = call @_normal_real(%arg0) : (tensor<4xui32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @_normal_real(%arg0: tensor<4xui32>) -> tensor<4x8xf32> {
    %cst = stablehlo.constant dense<-0.99999994> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<4xui32>, tensor<f32>, tensor<f32>) -> tensor<4x8xf32>
    %1 = chlo.erf_inv %0 : tensor<4x8xf32> -> tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<1.41421354> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<4x8xf32>
    return %3 : tensor<4x8xf32>
  }
  func.func private @_uniform(%arg0: tensor<4xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<4x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %3 = stablehlo.bitcast_convert %2 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %3, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x8xui32>)
    %4 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %5 = stablehlo.reshape %4 : (tensor<2x2xui32>) -> tensor<4xui32>
    %c = stablehlo.constant dense<9> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<4x8xui32>
    %7 = stablehlo.shift_right_logical %output, %6 : tensor<4x8xui32>
    %c_0 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<4x8xui32>
    %9 = stablehlo.or %7, %8 : tensor<4x8xui32>
    %10 = stablehlo.bitcast_convert %9 : (tensor<4x8xui32>) -> tensor<4x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %12 = stablehlo.subtract %10, %11 : tensor<4x8xf32>
    %13 = stablehlo.subtract %1, %0 : tensor<1x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<4x8xf32>
    %15 = stablehlo.multiply %12, %14 : tensor<4x8xf32>
    %16 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<4x8xf32>
    %17 = stablehlo.add %15, %16 : tensor<4x8xf32>
    %18 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<4x8xf32>
    %19 = stablehlo.maximum %18, %17 : tensor<4x8xf32>
    return %19 : tensor<4x8xf32>
  }
  func.func private @_threefry_fold_in(%arg0: tensor<2x2xui32>, %arg1: tensor<ui32>) -> tensor<2x2xui32> {
    %c = stablehlo.constant dense<32> : tensor<ui32>
    %0 = stablehlo.shift_right_logical %arg1, %c : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_0 = stablehlo.constant dense<4294967295> : tensor<ui32>
    %2 = stablehlo.and %arg1, %c_0 : tensor<ui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %4 = stablehlo.concatenate %1, %3, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %5 = stablehlo.slice %arg0 [0:2, 0:1] : (tensor<2x2xui32>) -> tensor<2x1xui32>
    %6 = stablehlo.reshape %5 : (tensor<2x1xui32>) -> tensor<2xui32>
    %7 = stablehlo.slice %arg0 [0:2, 1:2] : (tensor<2x2xui32>) -> tensor<2x1xui32>
    %8 = stablehlo.reshape %7 : (tensor<2x1xui32>) -> tensor<2xui32>
    %9 = stablehlo.slice %4 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %10 = stablehlo.slice %4 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<1xui32>) -> tensor<1x1xui32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<1xui32>) -> tensor<1x1xui32>
    %13 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %14 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %15:2 = call @threefry2x32(%13, %14, %11, %12) : (tensor<2x1xui32>, tensor<2x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>) -> (tensor<2x1xui32>, tensor<2x1xui32>)
    %16 = stablehlo.concatenate %15#0, %15#1, dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x2xui32>
    return %16 : tensor<2x2xui32>
  }
  func.func private @threefry2x32(%arg0: tensor<2x1xui32>, %arg1: tensor<2x1xui32>, %arg2: tensor<1x1xui32>, %arg3: tensor<1x1xui32>) -> (tensor<2x1xui32>, tensor<2x1xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<2x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<2x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<2x1xui32>
    %4 = stablehlo.add %3, %arg0 : tensor<2x1xui32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<2x1xui32>
    %6 = stablehlo.add %5, %arg1 : tensor<2x1xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %7:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %4, %iterArg_6 = %6, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %8 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %8:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %9 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %9, %8#0, %8#1, %8#2, %8#3, %8#4, %8#5, %8#6, %8#7 : tensor<i32>, tensor<i32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %7#2, %7#3 : tensor<2x1xui32>, tensor<2x1xui32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<2x1xui32>, %arg2: tensor<2x1xui32>, %arg3: tensor<2x1xui32>, %arg4: tensor<2x1xui32>, %arg5: tensor<2x1xui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<2x1xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<2x1xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<2x1xui32>
    %9 = stablehlo.or %5, %8 : tensor<2x1xui32>
    %10 = stablehlo.xor %3, %9 : tensor<2x1xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<2x1xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<2x1xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<2x1xui32>
    %19 = stablehlo.or %15, %18 : tensor<2x1xui32>
    %20 = stablehlo.xor %13, %19 : tensor<2x1xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<2x1xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<2x1xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<2x1xui32>
    %29 = stablehlo.or %25, %28 : tensor<2x1xui32>
    %30 = stablehlo.xor %23, %29 : tensor<2x1xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<2x1xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<2x1xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<2x1xui32>
    %39 = stablehlo.or %35, %38 : tensor<2x1xui32>
    %40 = stablehlo.xor %33, %39 : tensor<2x1xui32>
    %41 = stablehlo.add %33, %arg3 : tensor<2x1xui32>
    %42 = stablehlo.add %40, %arg4 : tensor<2x1xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %43 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %44 = stablehlo.convert %43 : (tensor<i32>) -> tensor<ui32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<ui32>) -> tensor<2x1xui32>
    %46 = stablehlo.add %42, %45 : tensor<2x1xui32>
    return %0, %41, %46, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<4xui32>, tensor<4xui32>
  }
}
