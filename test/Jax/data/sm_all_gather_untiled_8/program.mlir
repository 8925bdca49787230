module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=8]> {stablehlo.mesh = {axes = [{name = "data", size = 8 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<1x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"data"} (%arg1: tensor<1x4xf32>) {
      %1 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
      %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<1x1x4xf32>) -> tensor<8x1x4xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8x1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
      sdy.return %3 : tensor<1x4xf32>
    } : (tensor<8x4xf32>) -> tensor<1x4xf32>
    return %0 : tensor<1x4xf32>
  }
}
