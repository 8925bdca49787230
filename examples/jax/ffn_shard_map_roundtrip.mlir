// Seed 003's FFN block of ffn_shard_map.mlir in Shardy's round-trip form
// (what XLA dumps and some jax.export versions print): the sdy dialect is
// hidden in strings under mhlo.frontend_attributes next to GSPMD strings:
// the meshes in xla.sdy.meshes, each sharding in xla.sdy.sharding, the
// manual computation as @xla.sdy.GlobalToLocalShape, a call of
// @xla.sdy.manual_computation_body and @xla.sdy.LocalToGlobalShape, the
// result's sharding in @xla.sdy.FuncResultSharding. The importer reads the
// strings back (the Shardy one wins over the GSPMD one) and imports the
// same program as ffn_shard_map.mlir: one spmd.shard_map over "X", "Y".
//
//   trellis-run examples/jax/ffn_shard_map_roundtrip.mlir --random 2 --reference
module @jit_ffn attributes {jax.uses_shape_polymorphism = false, mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22X\22=2, \22Y\22=4]>}"}, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22X\22}, {\22Y\22}]>"}, mhlo.sharding = "{devices=[2,4]<=[8]}"}, %arg1: tensor<64x128xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {\22Y\22}]>"}, mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<128x64xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22Y\22}, {}]>"}, mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}) -> (tensor<16x64xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[2,4]<=[8]}"}) {
    %0:3 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0, %arg1, %arg2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22X\22}, {\22Y\22}]>, <@mesh, [{}, {\22Y\22}]>, <@mesh, [{\22Y\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22X\22, \22Y\22}>"}} : (tensor<16x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> (tensor<8x16xf32>, tensor<64x32xf32>, tensor<32x64xf32>)
    %1 = call @xla.sdy.manual_computation_body(%0#0, %0#1, %0#2) {mhlo.frontend_attributes = {inlineable = "xla_late"}} : (tensor<8x16xf32>, tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22X\22, \22Y\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22X\22}, {\22Y\22}]>]>"}} : (tensor<8x16xf32>) -> tensor<16x64xf32>
    %3 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22X\22}, {\22Y\22}]>]>"}} : (tensor<16x64xf32>) -> tensor<16x64xf32>
    return %3 : tensor<16x64xf32>
  }
  func.func @xla.sdy.manual_computation_body(%arg0: tensor<8x16xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<32x64xf32>) -> tensor<8x16xf32> {
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
