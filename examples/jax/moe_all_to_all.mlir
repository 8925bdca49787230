// Seed 003's mixture of experts as JAX prints a shard_map: each token is
// sent to its expert's device with all_to_all and the results come back
// the same way (capacity = tokens per device, nothing dropped). Out[i] =
// A[i] @ W[B[i]].
//
//   mesh = jax.make_mesh((4,), ('X',))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, in_specs=(P('X'), P('X'), P('X')),
//            out_specs=P('X'))
//   def moe(W, A, B):                 # [4,16,8] f32, [32,16] f32, [32] i32
//     T, E = B.shape[0], 4
//     onehot = (B[:, None] == jnp.arange(E)).astype(jnp.float32)     # [T,E]
//     t = jnp.arange(T)
//     pos = jnp.sum((B[:, None] == B[None, :]) & (t[:, None] > t[None, :]),
//                   axis=1, dtype=jnp.int32)           # earlier, same expert
//     slot = (pos[:, None] == jnp.arange(T)).astype(jnp.float32)     # [T,C]
//     mask = onehot[:, :, None] * slot[:, None, :]                   # [T,E,C]
//     dispatch = jnp.einsum('tec,td->ecd', mask, A)
//     received = jax.lax.all_to_all(dispatch, 'X', 0, 0, tiled=True)
//     y = jnp.einsum('ecd,df->ecf', received, W.reshape(16, 8))
//     back = jax.lax.all_to_all(y, 'X', 0, 0, tiled=True)
//     return jnp.einsum('tec,ecf->tf', mask, back)
//
//   trellis-run examples/jax/moe_all_to_all.mlir --reference
//     --input arg0=examples/seeds/inputs/moe_W.npy
//     --input arg1=examples/seeds/inputs/moe_A.npy
//     --input arg2=examples/seeds/inputs/moe_B.npy
module @jit_moe attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["X"=4]>
  func.func public @main(%arg0: tensor<4x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}, {}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}, %arg2: tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>}) -> (tensor<32x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{"X"}, {}, {}]>, <@mesh, [{"X"}, {}]>, <@mesh, [{"X"}]>] out_shardings=[<@mesh, [{"X"}, {}]>] manual_axes={"X"} (%arg3: tensor<1x16x8xf32>, %arg4: tensor<8x16xf32>, %arg5: tensor<8xi32>) {
      %1 = stablehlo.broadcast_in_dim %arg5, dims = [0] : (tensor<8xi32>) -> tensor<8x4xi32>
      %2 = stablehlo.iota dim = 1 : tensor<8x4xi32>
      %3 = stablehlo.compare  EQ, %1, %2,  SIGNED : (tensor<8x4xi32>, tensor<8x4xi32>) -> tensor<8x4xi1>
      %4 = stablehlo.convert %3 : (tensor<8x4xi1>) -> tensor<8x4xf32>
      %5 = stablehlo.broadcast_in_dim %arg5, dims = [0] : (tensor<8xi32>) -> tensor<8x8xi32>
      %6 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<8xi32>) -> tensor<8x8xi32>
      %7 = stablehlo.compare  EQ, %5, %6,  SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
      %8 = stablehlo.iota dim = 0 : tensor<8x8xi32>
      %9 = stablehlo.iota dim = 1 : tensor<8x8xi32>
      %10 = stablehlo.compare  GT, %8, %9,  SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
      %11 = stablehlo.and %7, %10 : tensor<8x8xi1>
      %12 = stablehlo.convert %11 : (tensor<8x8xi1>) -> tensor<8x8xi32>
      %c = stablehlo.constant dense<0> : tensor<i32>
      %13 = stablehlo.reduce(%12 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x8xi32>, tensor<i32>) -> tensor<8xi32>
      %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<8xi32>) -> tensor<8x8xi32>
      %15 = stablehlo.compare  EQ, %14, %9,  SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
      %16 = stablehlo.convert %15 : (tensor<8x8xi1>) -> tensor<8x8xf32>
      %17 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4x8xf32>
      %18 = stablehlo.broadcast_in_dim %16, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
      %19 = stablehlo.multiply %17, %18 : tensor<8x4x8xf32>
      %20 = stablehlo.dot_general %19, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8xf32>, tensor<8x16xf32>) -> tensor<4x8x16xf32>
      %21 = "stablehlo.all_to_all"(%20) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
      %22 = stablehlo.reshape %arg3 : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
      %23 = stablehlo.dot_general %21, %22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8x16xf32>, tensor<16x8xf32>) -> tensor<4x8x8xf32>
      %24 = "stablehlo.all_to_all"(%23) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
      %25 = stablehlo.dot_general %19, %24, contracting_dims = [1, 2] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<8x4x8xf32>, tensor<4x8x8xf32>) -> tensor<8x8xf32>
      sdy.return %25 : tensor<8x8xf32>
    } : (tensor<4x16x8xf32>, tensor<32x16xf32>, tensor<32xi32>) -> tensor<32x8xf32>
    return %0 : tensor<32x8xf32>
  }
}
