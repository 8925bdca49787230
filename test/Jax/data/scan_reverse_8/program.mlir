module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<6x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<6x16xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:4 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %c, %iterArg_2 = %0, %iterArg_3 = %1) : tensor<6x16xf32>, tensor<i32>, tensor<16xf32>, tensor<6x16xf32>
    cond {
      %c_4 = stablehlo.constant dense<6> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<6> : tensor<i32>
      %3 = stablehlo.subtract %c_4, %iterArg_1 : tensor<i32>
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.subtract %3, %c_5 : tensor<i32>
      %5 = func.call @dynamic_index_in_dim(%iterArg, %4) : (tensor<6x16xf32>, tensor<i32>) -> tensor<16xf32>
      %6:2 = func.call @closed_call(%iterArg_2, %5) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
      %7 = func.call @dynamic_update_index_in_dim(%iterArg_3, %6#1, %4) : (tensor<6x16xf32>, tensor<16xf32>, tensor<i32>) -> tensor<6x16xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_1, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %8, %6#0, %7 : tensor<6x16xf32>, tensor<i32>, tensor<16xf32>, tensor<6x16xf32>
    }
    return %2#2, %2#3 : tensor<16xf32>, tensor<6x16xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<6x16xf32>, %arg1: tensor<i32>) -> tensor<16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 16] : (tensor<6x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16xf32>) -> tensor<16xf32>
    return %1 : tensor<16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<16xf32>
    %2 = stablehlo.add %1, %arg1 : tensor<16xf32>
    return %2, %arg0 : tensor<16xf32>, tensor<16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<6x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<i32>) -> tensor<6x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<6x16xf32>, tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<6x16xf32>
    return %1 : tensor<6x16xf32>
  }
}
