// Seed 000's collective matmul (all-gather on the lhs's non-contracting
// dimension) as JAX prints its shard_map: axis_index lowers to partition_id
// arithmetic on ui32, the Python loop unrolls into three collective_permutes
// around matmuls, and each block lands with dynamic_update_slice.
//
//   mesh = jax.make_mesh((4,), ('i',))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, in_specs=(P('i', None), P(None, 'i')),
//            out_specs=P(None, 'i'))
//   def matmul_allgather_lhs(lhs, rhs):        # [32,16] and [16,32]
//     idx = jax.lax.axis_index('i')
//     shift = partial(jax.lax.ppermute, axis_name='i',
//                     perm=[(j, (j - 1) % 4) for j in range(4)])
//     out = jnp.zeros((32, 8), lhs.dtype)
//     out = jax.lax.dynamic_update_slice(out, lhs @ rhs, (idx * 8, 0))
//     for i in range(1, 4):
//       lhs = shift(lhs)
//       out = jax.lax.dynamic_update_slice(out, lhs @ rhs,
//                                          (((idx + i) % 4) * 8, 0))
//     return out
//
//   trellis-run examples/jax/collective_matmul.mlir --random 6 --reference
module @jit_matmul_allgather_lhs attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["i"=4]>
  func.func public @main(%arg0: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"i"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"i"}]>}) -> (tensor<32x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"i"}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"i"}, {}]>, <@mesh, [{}, {"i"}]>] out_shardings=[<@mesh, [{}, {"i"}]>] manual_axes={"i"} (%arg2: tensor<8x16xf32>, %arg3: tensor<16x8xf32>) {
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<4> : tensor<ui32>
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.divide %1, %c : tensor<ui32>
      %3 = stablehlo.remainder %2, %c_0 : tensor<ui32>
      %4 = stablehlo.convert %3 : (tensor<ui32>) -> tensor<i32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x8xf32>
      %6 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %c_1 = stablehlo.constant dense<8> : tensor<i32>
      %7 = stablehlo.multiply %4, %c_1 : tensor<i32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %8 = stablehlo.dynamic_update_slice %5, %6, %7, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
      %9 = "stablehlo.collective_permute"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %10 = stablehlo.dot_general %9, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %c_1a = stablehlo.constant dense<1> : tensor<i32>
      %11 = stablehlo.add %4, %c_1a : tensor<i32>
      %c_1b = stablehlo.constant dense<4> : tensor<i32>
      %12 = stablehlo.remainder %11, %c_1b : tensor<i32>
      %13 = stablehlo.multiply %12, %c_1 : tensor<i32>
      %14 = stablehlo.dynamic_update_slice %8, %10, %13, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
      %15 = "stablehlo.collective_permute"(%9) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %16 = stablehlo.dot_general %15, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %c_2a = stablehlo.constant dense<2> : tensor<i32>
      %17 = stablehlo.add %4, %c_2a : tensor<i32>
      %c_2b = stablehlo.constant dense<4> : tensor<i32>
      %18 = stablehlo.remainder %17, %c_2b : tensor<i32>
      %19 = stablehlo.multiply %18, %c_1 : tensor<i32>
      %20 = stablehlo.dynamic_update_slice %14, %16, %19, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
      %21 = "stablehlo.collective_permute"(%15) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %22 = stablehlo.dot_general %21, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      %c_3a = stablehlo.constant dense<3> : tensor<i32>
      %23 = stablehlo.add %4, %c_3a : tensor<i32>
      %c_3b = stablehlo.constant dense<4> : tensor<i32>
      %24 = stablehlo.remainder %23, %c_3b : tensor<i32>
      %25 = stablehlo.multiply %24, %c_1 : tensor<i32>
      %26 = stablehlo.dynamic_update_slice %20, %22, %25, %c_2 : (tensor<32x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
      sdy.return %26 : tensor<32x8xf32>
    } : (tensor<32x16xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
