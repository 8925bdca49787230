module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x8xf32>) -> (tensor<2x8xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data", "model"}, {"fsdp"}]>] out_shardings=[<@mesh, [{}, {"fsdp"}]>] manual_axes={"data", "fsdp", "model"} (%arg1: tensor<2x4xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 4, 5], [2, 3, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %4 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
      %3 = stablehlo.divide %1, %2 : tensor<2x4xf32>
      sdy.return %3 : tensor<2x4xf32>
    } : (tensor<8x8xf32>) -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}
