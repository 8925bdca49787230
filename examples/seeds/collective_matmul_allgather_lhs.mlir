// Seed 003, "collective matmul": A[B@X, D@Y] * W[D, F@Y] -> Out[B@X, F@Y]
// with the all-gather of A over Y overlapped with compute. The activation
// chunk circulates by ppermute while each step multiplies it with the
// matching rows of the local weight block, sliced by (axis_index + i) mod n.
//
//   def collective_matmul_allgather_lhs(lhs, rhs):
//     axis_size = jax.lax.axis_size('Y')
//     idx = jax.lax.axis_index('Y')
//     chunk_size = lhs.shape[1]
//     def f(i, carrys):
//       accum, lhs = carrys
//       rhs_chunk = jax.lax.dynamic_slice_in_dim(
//           rhs, (idx + i) % axis_size * chunk_size, chunk_size)
//       update = lhs @ rhs_chunk
//       lhs = jax.lax.ppermute(lhs, axis_name='Y',
//           perm=[(j, (j - 1) % axis_size) for j in range(axis_size)])
//       return accum + update, lhs
//     accum = jnp.zeros((lhs.shape[0], rhs.shape[1]))
//     accum = jax.lax.pvary(accum, ('X', 'Y'))
//     accum, lhs = jax.lax.fori_loop(0, axis_size - 1, f, (accum, lhs), unroll=True)
//     i = axis_size - 1
//     rhs_chunk = jax.lax.dynamic_slice_in_dim(
//         rhs, (idx + i) % axis_size * chunk_size, chunk_size)
//     return accum + lhs @ rhs_chunk
//
// On a 2x4 mesh with B=16, D=64, F=32: lhs block f32[8,16], rhs block
// f32[64,8], out block f32[8,8].
// Run: trellis-run examples/seeds/collective_matmul_allgather_lhs.mlir --random 1

trellis.mesh @mesh = <["X"=2, "Y"=4]>

func.func @collective_matmul_allgather_lhs(%a: tensor<16x64xf32>, %w: tensor<64x32xf32>)
    -> tensor<16x32xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}, {"Y"}], [{}, {"Y"}]] out_specs = [[{"X"}, {"Y"}]]
      (%a, %w) : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%lhs: tensor<8x16xf32>, %rhs: tensor<64x8xf32>):
    %axis_size = spmd.axis_size over ["Y"] : index
    %idx = spmd.axis_index over ["Y"] : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %chunk_size = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x8xf32>
    %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %accum0 = spmd.pvary %zeros over ["X", "Y"] : tensor<8x8xf32>
    %last = arith.subi %axis_size, %c1 : index
    %loop:2 = scf.for %i = %c0 to %last step %c1
        iter_args(%accum = %accum0, %l = %lhs) -> (tensor<8x8xf32>, tensor<8x16xf32>) {
      %s = arith.addi %idx, %i : index
      %m = arith.remui %s, %axis_size : index
      %start = arith.muli %m, %chunk_size : index
      %rhs_chunk = tensor.extract_slice %rhs[%start, 0] [16, 8] [1, 1]
          : tensor<64x8xf32> to tensor<16x8xf32>
      %next_accum = linalg.matmul ins(%l, %rhs_chunk : tensor<8x16xf32>, tensor<16x8xf32>)
                                  outs(%accum : tensor<8x8xf32>) -> tensor<8x8xf32>
      %next = spmd.ppermute %l over ["Y"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]]
          : tensor<8x16xf32>
      scf.yield %next_accum, %next : tensor<8x8xf32>, tensor<8x16xf32>
    }
    %s = arith.addi %idx, %last : index
    %m = arith.remui %s, %axis_size : index
    %start = arith.muli %m, %chunk_size : index
    %rhs_chunk = tensor.extract_slice %rhs[%start, 0] [16, 8] [1, 1]
        : tensor<64x8xf32> to tensor<16x8xf32>
    %result = linalg.matmul ins(%loop#1, %rhs_chunk : tensor<8x16xf32>, tensor<16x8xf32>)
                            outs(%loop#0 : tensor<8x8xf32>) -> tensor<8x8xf32>
    spmd.yield %result : tensor<8x8xf32>
  }
  return %out : tensor<16x32xf32>
}
