module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x32xf32>, %arg1: tensor<4x16x32xf32>, %arg2: tensor<4x32x16xf32>, %arg3: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:5 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %arg2, %iterArg_2 = %c, %iterArg_3 = %arg3) : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>
    cond {
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_2, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_2) : (tensor<4x32xf32>, tensor<i32>) -> tensor<32xf32>
      %2 = func.call @dynamic_index_in_dim_0(%iterArg_0, %iterArg_2) : (tensor<4x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %3 = func.call @dynamic_index_in_dim_1(%iterArg_1, %iterArg_2) : (tensor<4x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %4 = func.call @closed_call(%iterArg_3, %1, %2, %3) : (tensor<8x16xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_2, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %iterArg_1, %5, %4 : tensor<4x32xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>, tensor<i32>, tensor<8x16xf32>
    }
    return %0#4 : tensor<8x16xf32>
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
  func.func private @closed_call(%arg0: tensor<8x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>) -> tensor<8x16xf32> {
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
    return %18 : tensor<8x16xf32>
  }
}
