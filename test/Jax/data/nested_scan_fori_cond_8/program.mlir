module @jit_nested attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}]>}) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:4 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %c, %iterArg_2 = %0, %iterArg_3 = %1) : tensor<4x16xf32>, tensor<i32>, tensor<16xf32>, tensor<4xf32>
    cond {
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<4x16xf32>, tensor<i32>) -> tensor<16xf32>
      %4:2 = func.call @closed_call(%iterArg_2, %3) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<f32>)
      %5 = func.call @dynamic_update_index_in_dim(%iterArg_3, %4#1, %iterArg_1) : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %6, %4#0, %5 : tensor<4x16xf32>, tensor<i32>, tensor<16xf32>, tensor<4xf32>
    }
    return %2#2, %2#3 : tensor<16xf32>, tensor<4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x16xf32>, %arg1: tensor<i32>) -> tensor<16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 16] : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x16xf32>) -> tensor<16xf32>
    return %1 : tensor<16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> (tensor<16xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_3 = %c_0, %iterArg_4 = %c, %iterArg_5 = %arg0) : tensor<16xf32>, tensor<i32>, tensor<i32>, tensor<16xf32>
    cond {
      %c_6 = stablehlo.constant dense<3> : tensor<i32>
      %6 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %6:2 = func.call @closed_call_0(%iterArg, %iterArg_4, %iterArg_5) : (tensor<16xf32>, tensor<i32>, tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %7, %6#0, %6#1 : tensor<16xf32>, tensor<i32>, tensor<i32>, tensor<16xf32>
    }
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0#3 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.compare GT, %1, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.convert %2 : (tensor<i1>) -> tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %7 = stablehlo.add %0#3, %6 : tensor<16xf32>
      stablehlo.return %7 : tensor<16xf32>
    }, {
      %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %7 = stablehlo.subtract %0#3, %6 : tensor<16xf32>
      stablehlo.return %7 : tensor<16xf32>
    }) : (tensor<i32>) -> tensor<16xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_2) applies stablehlo.maximum across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    return %4, %5 : tensor<16xf32>, tensor<f32>
  }
  func.func private @closed_call_0(%arg0: tensor<16xf32>, %arg1: tensor<i32>, %arg2: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %cst = stablehlo.constant dense<0.899999976> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %2 = stablehlo.multiply %arg2, %1 : tensor<16xf32>
    %3 = stablehlo.add %2, %arg0 : tensor<16xf32>
    return %0, %3 : tensor<i32>, tensor<16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
