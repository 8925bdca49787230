module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %arg1: tensor<16x16xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<8x16xf32>
    %2 = stablehlo.exponential %1 : tensor<8x16xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = stablehlo.custom_call @SPMDFullToShardShape(%3) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<4x4xf32>
    %5 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %6 = stablehlo.custom_call @SPMDFullToShardShape(%5) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x16xf32>) -> tensor<4x16xf32>
    %7 = call @shmap_body(%4, %6) : (tensor<4x4xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %8 = stablehlo.custom_call @Sharding(%7) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %9 = stablehlo.custom_call @SPMDShardToFullShape(%8) {backend_config = "", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<4x16xf32>) -> tensor<8x16xf32>
    %10 = stablehlo.tanh %9 : tensor<8x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %13 = stablehlo.add %10, %12 : tensor<8x16xf32>
    return %13 : tensor<8x16xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x4xf32>, %arg1: tensor<4x16xf32>) -> (tensor<4x16xf32> {jax.result_info = "[('data',), None]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
}
