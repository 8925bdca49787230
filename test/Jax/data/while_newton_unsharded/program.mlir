module @jit_while_newton attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:4 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg0, %iterArg_1 = %c, %iterArg_2 = %0) : tensor<16xf32>, tensor<16xf32>, tensor<i32>, tensor<16xf32>
    cond {
      %c_3 = stablehlo.constant dense<50> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = stablehlo.multiply %iterArg_2, %iterArg_2 : tensor<16xf32>
      %4 = stablehlo.subtract %3, %iterArg : tensor<16xf32>
      %5 = stablehlo.abs %4 : tensor<16xf32>
      %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %6 = stablehlo.reduce(%5 init: %cst_4) applies stablehlo.maximum across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
      %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %7 = stablehlo.compare GT, %6, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_6 = stablehlo.constant dense<false> : tensor<i1>
      %8 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i1>) -> tensor<i1>
      %9 = stablehlo.compare NE, %2, %8, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = stablehlo.convert %9 : tensor<i1>
      %11 = stablehlo.and %10, %7 : tensor<i1>
      stablehlo.return %11 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      %3 = stablehlo.divide %iterArg_0, %iterArg_2 : tensor<16xf32>
      %4 = stablehlo.add %iterArg_2, %3 : tensor<16xf32>
      %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %6 = stablehlo.multiply %5, %4 : tensor<16xf32>
      stablehlo.return %iterArg, %iterArg_0, %2, %6 : tensor<16xf32>, tensor<16xf32>, tensor<i32>, tensor<16xf32>
    }
    return %1#2, %1#3 : tensor<i32>, tensor<16xf32>
  }
}
