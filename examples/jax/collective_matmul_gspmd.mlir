// Seed 000's collective matmul of collective_matmul.mlir as JAX printed
// its shard_map before Shardy (GSPMD): the per-device code is a call of
// @shmap_body between @SPMDFullToShardShape and @SPMDShardToFullShape
// custom calls. The importer infers the mesh x0 x x1 (both of size 2: "i"
// is x0 x x1), outlines the region into one spmd.shard_map, inlines the
// body, reads partition_id as the device's position over both axes and
// the collective_permutes as one ring over them.
//
//   mesh = jax.make_mesh((4,), ('i',))
//   (jax.config.update('jax_use_shardy_partitioner', False))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, in_specs=(P('i', None), P(None, 'i')),
//            out_specs=P(None, 'i'))
//   def matmul_allgather_lhs(lhs, rhs):        # [32,16] and [16,32]
//     ...                                      # as in collective_matmul.mlir
//
//   trellis-run examples/jax/collective_matmul_gspmd.mlir --random 6 --reference
module @jit_matmul_allgather_lhs attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x16xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<16x32xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}) -> (tensor<32x32xf32> {jax.result_info = "", mhlo.sharding = "{devices=[1,4]<=[4]}"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", mhlo.sharding = "{devices=[4,1]<=[4]}"} : (tensor<32x16xf32>) -> tensor<32x16xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<32x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "", mhlo.sharding = "{devices=[1,4]<=[4]}"} : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<16x32xf32>) -> tensor<16x8xf32>
    %4 = call @shmap_body(%1, %3) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
    %5 = stablehlo.custom_call @Sharding(%4) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {backend_config = "", mhlo.sharding = "{devices=[1,4]<=[4]}"} : (tensor<32x8xf32>) -> tensor<32x32xf32>
    return %6 : tensor<32x32xf32>
  }
  func.func private @shmap_body(%arg0: tensor<8x16xf32>, %arg1: tensor<16x8xf32>) -> (tensor<32x8xf32> {jax.result_info = "[None, ('i',)]"}) {
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %0 = stablehlo.partition_id : tensor<ui32>
    %1 = stablehlo.divide %0, %c : tensor<ui32>
    %2 = stablehlo.remainder %1, %c_0 : tensor<ui32>
    %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x8xf32>
    %5 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %c_1 = stablehlo.constant dense<8> : tensor<i32>
    %6 = stablehlo.multiply %3, %c_1 : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.dynamic_update_slice %4, %5, %6, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    %8 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %9 = stablehlo.dot_general %8, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %c_1a = stablehlo.constant dense<1> : tensor<i32>
    %10 = stablehlo.add %3, %c_1a : tensor<i32>
    %c_1b = stablehlo.constant dense<4> : tensor<i32>
    %11 = stablehlo.remainder %10, %c_1b : tensor<i32>
    %12 = stablehlo.multiply %11, %c_1 : tensor<i32>
    %13 = stablehlo.dynamic_update_slice %7, %9, %12, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    %14 = "stablehlo.collective_permute"(%8) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %15 = stablehlo.dot_general %14, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %c_2a = stablehlo.constant dense<2> : tensor<i32>
    %16 = stablehlo.add %3, %c_2a : tensor<i32>
    %c_2b = stablehlo.constant dense<4> : tensor<i32>
    %17 = stablehlo.remainder %16, %c_2b : tensor<i32>
    %18 = stablehlo.multiply %17, %c_1 : tensor<i32>
    %19 = stablehlo.dynamic_update_slice %13, %15, %18, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    %20 = "stablehlo.collective_permute"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %21 = stablehlo.dot_general %20, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %c_3a = stablehlo.constant dense<3> : tensor<i32>
    %22 = stablehlo.add %3, %c_3a : tensor<i32>
    %c_3b = stablehlo.constant dense<4> : tensor<i32>
    %23 = stablehlo.remainder %22, %c_3b : tensor<i32>
    %24 = stablehlo.multiply %23, %c_1 : tensor<i32>
    %25 = stablehlo.dynamic_update_slice %19, %21, %24, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    return %25 : tensor<32x8xf32>
  }
}
