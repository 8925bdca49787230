// Seed 003's FFN block written with shard_map, as JAX prints it: the
// manual computation becomes spmd.shard_map, the all_gather and
// reduce_scatter over partition-id groups become spmd.all_gather and
// spmd.psum_scatter over the mesh axis "Y".
//
//   mesh = jax.make_mesh((2, 4), ('X', 'Y'))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, out_specs=P('X', 'Y'),
//            in_specs=(P('X', 'Y'), P(None, 'Y'), P('Y', None)))
//   def ffn(x, w_up, w_down):                     # [16,64] [64,128] [128,64]
//     x = jax.lax.all_gather(x, 'Y', axis=1, tiled=True)
//     h = jax.nn.gelu(x @ w_up)                   # tanh approximation
//     return jax.lax.psum_scatter(h @ w_down, 'Y', scatter_dimension=1,
//                                 tiled=True)
//
//   trellis-run examples/jax/ffn_shard_map.mlir --random 2 --reference
module @jit_ffn attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func public @main(%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}, %arg1: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"Y"}]>}, %arg2: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}) -> (tensor<16x64xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"X"}, {"Y"}]>, <@mesh, [{}, {"Y"}]>, <@mesh, [{"Y"}, {}]>] out_shardings=[<@mesh, [{"X"}, {"Y"}]>] manual_axes={"X", "Y"} (%arg3: tensor<8x16xf32>, %arg4: tensor<64x32xf32>, %arg5: tensor<32x64xf32>) {
      %1 = "stablehlo.all_gather"(%arg3) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x16xf32>) -> tensor<8x64xf32>
      %2 = stablehlo.dot_general %1, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
      %3 = stablehlo.multiply %2, %2 : tensor<8x32xf32>
      %4 = stablehlo.multiply %3, %2 : tensor<8x32xf32>
      %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
      %6 = stablehlo.multiply %5, %4 : tensor<8x32xf32>
      %7 = stablehlo.add %2, %6 : tensor<8x32xf32>
      %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
      %9 = stablehlo.multiply %8, %7 : tensor<8x32xf32>
      %10 = stablehlo.tanh %9 : tensor<8x32xf32>
      %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
      %12 = stablehlo.add %11, %10 : tensor<8x32xf32>
      %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
      %14 = stablehlo.multiply %13, %12 : tensor<8x32xf32>
      %15 = stablehlo.multiply %2, %14 : tensor<8x32xf32>
      %16 = stablehlo.dot_general %15, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
      %17 = "stablehlo.reduce_scatter"(%16) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %18 = stablehlo.add %arg6, %arg7 : tensor<f32>
        stablehlo.return %18 : tensor<f32>
      }) : (tensor<8x64xf32>) -> tensor<8x16xf32>
      sdy.return %17 : tensor<8x16xf32>
    } : (tensor<16x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
    return %0 : tensor<16x64xf32>
  }
}
