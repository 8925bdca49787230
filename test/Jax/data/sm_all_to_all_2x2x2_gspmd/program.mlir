module @jit__lambda attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>) -> (tensor<16x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x8xf32>) -> tensor<4x8xf32>
    %2 = call @shmap_body(%1) : (tensor<4x8xf32>) -> tensor<16x2xf32>
    %3 = stablehlo.custom_call @Sharding(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x2xf32>) -> tensor<16x2xf32>
    %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {backend_config = "", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<16x2xf32>) -> tensor<16x8xf32>
    return %4 : tensor<16x8xf32>
  }
  func.func private @shmap_body(%arg0: tensor<4x8xf32>) -> (tensor<16x2xf32> {jax.result_info = "[None, ('fsdp', 'model')]"}) {
    %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<16x2xf32>
    return %0 : tensor<16x2xf32>
  }
}
