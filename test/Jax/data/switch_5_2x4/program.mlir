module @jit_switch_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<i32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.clamp %c, %arg0, %c_0 : tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %3 = stablehlo.add %arg1, %2 : tensor<8x8xf32>
      stablehlo.return %3 : tensor<8x8xf32>
    }, {
      %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %3 = stablehlo.multiply %arg1, %2 : tensor<8x8xf32>
      %4 = stablehlo.exponential %3 : tensor<8x8xf32>
      stablehlo.return %4 : tensor<8x8xf32>
    }, {
      %2 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %3 = stablehlo.dot_general %arg1, %2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      stablehlo.return %3 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
