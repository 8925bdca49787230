module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "fsdp"=2, "model"=2]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "fsdp", size = 2 : i64}, {name = "model", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data", "model"}, {"fsdp"}]>] out_shardings=[<@mesh, [{"data", "model"}, {"fsdp"}]>] manual_axes={"data", "fsdp", "model"} (%arg1: tensor<2x4xf32>) {
      %1 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 5], [5, 0], [1, 4], [4, 1], [2, 7], [7, 2], [3, 6], [6, 3]]> : tensor<8x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
      sdy.return %1 : tensor<2x4xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
