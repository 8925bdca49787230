// Seed 003's FFN block of ffn_shard_map.mlir as JAX printed a shard_map
// before Shardy (GSPMD): no op delimits the per-device code. Each input
// passes a @Sharding custom call and @SPMDFullToShardShape (to its block),
// the body is a call of @shmap_body with the collectives over
// partition-id groups, and the output leaves through @Sharding {manual}
// and @SPMDShardToFullShape. The importer infers the mesh x0, x1, x2 (all of
// size 2; "X" is x0 and "Y" is x1 x x2), outlines the region between the
// custom calls into one spmd.shard_map and inlines @shmap_body into it.
//
//   mesh = jax.make_mesh((2, 4), ('X', 'Y'))
//   (jax.config.update('jax_use_shardy_partitioner', False))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, out_specs=P('X', 'Y'),
//            in_specs=(P('X', 'Y'), P(None, 'Y'), P('Y', None)))
//   def ffn(x, w_up, w_down):                     # [16,64] [64,128] [128,64]
//     x = jax.lax.all_gather(x, 'Y', axis=1, tiled=True)
//     h = jax.nn.gelu(x @ w_up)                   # tanh approximation
//     return jax.lax.psum_scatter(h @ w_down, 'Y', scatter_dimension=1,
//                                 tiled=True)
//
//   trellis-run examples/jax/ffn_shard_map_gspmd.mlir --random 2 --reference
module @jit_ffn attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<64x128xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<128x64xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<16x64xf32> {jax.result_info = "", mhlo.sharding = "{devices=[2,4]<=[8]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x64xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<64x128xf32>) -> tensor<64x32xf32>
    %4 = stablehlo.custom_call @Sharding(%arg2) {backend_config = "", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<128x64xf32>) -> tensor<128x64xf32>
    %5 = stablehlo.custom_call @SPMDFullToShardShape(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<128x64xf32>) -> tensor<32x64xf32>
    %6 = call @shmap_body(%1, %3, %5) : (tensor<8x16xf32>, tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<8x16xf32>
    %7 = stablehlo.custom_call @Sharding(%6) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %8 = stablehlo.custom_call @SPMDShardToFullShape(%7) {backend_config = "", mhlo.sharding = "{devices=[2,4]<=[8]}"} : (tensor<8x16xf32>) -> tensor<16x64xf32>
    return %8 : tensor<16x64xf32>
  }
  func.func private @shmap_body(%arg0: tensor<8x16xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<32x64xf32>) -> (tensor<8x16xf32> {jax.result_info = "[('X', 'Y')]"}) {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x16xf32>) -> tensor<8x64xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<8x32xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<8x32xf32>
    %6 = stablehlo.add %1, %5 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<8x32xf32>
    %9 = stablehlo.tanh %8 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.add %10, %9 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %13 = stablehlo.multiply %12, %11 : tensor<8x32xf32>
    %14 = stablehlo.multiply %1, %13 : tensor<8x32xf32>
    %15 = stablehlo.dot_general %14, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
    %16 = "stablehlo.reduce_scatter"(%15) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %17 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<8x64xf32>) -> tensor<8x16xf32>
    return %16 : tensor<8x16xf32>
  }
}
