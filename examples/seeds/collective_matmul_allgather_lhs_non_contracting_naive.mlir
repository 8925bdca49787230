// Seed 000, "A realistic transformer example", written naively: C = A @ B
// with A sharded on its rows over 8 devices, all-gathered before the matmul
// (what `jax.jit` of `lhs @ rhs` does, with the blocking all-gather the
// seed's first profile shows).
//
//   M, K, N = 4096, 2048, 1024
//   mesh = Mesh(np.array(jax.devices()), axis_names=('i'))
//   A_x = jax.device_put(A, NamedSharding(mesh, P('i', None)))
//   @jax.jit
//   def f(lhs, rhs):
//     return lhs @ rhs
//
// `spmd-collective-matmul` rewrites the all_gather + matmul into the loop
// that collective_matmul_allgather_lhs_non_contracting.mlir writes by hand
// (the seed's shard_map version), and both give identical results.
// Run: trellis-run examples/seeds/collective_matmul_allgather_lhs_non_contracting_naive.mlir --random 0
//      (add --passes=spmd-collective-matmul for the overlapped loop)

trellis.mesh @mesh = <["i"=8]>

func.func @collective_matmul_allgather_lhs_non_contracting(
    %lhs: tensor<4096x2048xf32>, %rhs: tensor<2048x1024xf32>) -> tensor<4096x1024xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {}], []] out_specs = [[]] check_vma = false
      (%lhs, %rhs) : (tensor<4096x2048xf32>, tensor<2048x1024xf32>) -> tensor<4096x1024xf32> {
  ^bb0(%lhs_chunk: tensor<512x2048xf32>, %r: tensor<2048x1024xf32>):
    %zero = arith.constant 0.0 : f32
    %accum_empty = tensor.empty() : tensor<4096x1024xf32>
    %accum0 = linalg.fill ins(%zero : f32) outs(%accum_empty : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    %lhs_full = spmd.all_gather %lhs_chunk over ["i"] dim 0 tiled
        : tensor<512x2048xf32> -> tensor<4096x2048xf32>
    %result = linalg.matmul ins(%lhs_full, %r : tensor<4096x2048xf32>, tensor<2048x1024xf32>)
                            outs(%accum0 : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    spmd.yield %result : tensor<4096x1024xf32>
  }
  return %c : tensor<4096x1024xf32>
}
