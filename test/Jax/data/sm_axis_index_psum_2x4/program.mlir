module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {"model"}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data", "model"} (%arg1: tensor<4x4xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<4> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %5 = stablehlo.convert %4 : (tensor<i32>) -> tensor<f32>
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %6 = stablehlo.add %cst, %5 : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
      %8 = stablehlo.multiply %arg1, %7 : tensor<4x4xf32>
      %9 = "stablehlo.all_reduce"(%8) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %10 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %10 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %9 : tensor<4x4xf32>
    } : (tensor<8x16xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
