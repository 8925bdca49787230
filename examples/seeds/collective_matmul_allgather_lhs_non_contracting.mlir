// Seed 000, "A realistic transformer example": collective matmul written by
// hand in shard_map. C = A @ B with A sharded on its rows (a non-contracting
// dimension) over 8 devices; instead of all-gathering A, each device
// multiplies the chunk it holds while the next chunk arrives by ppermute.
//
//   M, K, N = 4096, 2048, 1024
//   def collective_matmul_allgather_lhs_non_contracting(lhs, rhs):
//     axis_size = jax.lax.psum(1, axis_name='i')
//     axis_index = jax.lax.axis_index(axis_name='i')
//     chunk_size = lhs.shape[0]
//     def f(i, carrys):
//       accum, lhs = carrys
//       update = lhs @ rhs
//       lhs = jax.lax.ppermute(lhs, axis_name='i',
//                              perm=[(j, (j - 1) % axis_size) for j in range(axis_size)])
//       update_index = (((axis_index + i) % axis_size) * chunk_size, 0)
//       accum = jax.lax.dynamic_update_slice(accum, update, update_index)
//       return accum, lhs
//     accum = jnp.zeros((lhs.shape[0] * axis_size, rhs.shape[1]), dtype=lhs.dtype)
//     # fori_loop cause a crash: hlo_sharding.cc:817 Check failed: !IsManual()
//     for i in range(0, axis_size - 1):
//       accum, lhs = f(i, (accum, lhs))
//     update = lhs @ rhs
//     i = axis_size - 1
//     update_index = (((axis_index + i) % axis_size) * chunk_size, 0)
//     accum = jax.lax.dynamic_update_slice(accum, update, update_index)
//     return accum
//   jit_sharded_f = jax.jit(shard_map(..., mesh, in_specs=(P('i', None), P()),
//                                     out_specs=P()))
//
// Here the loop is a real scf.for with the ppermute inside (the seed had to
// unroll it because fori_loop crashed XLA). The accumulator is equal on every
// device only by construction (each writes every chunk once), which the
// static variance check cannot prove, hence check_vma = false (JAX users
// write check_vma=False for the same reason).
// Run: trellis-run examples/seeds/collective_matmul_allgather_lhs_non_contracting.mlir --random 0

trellis.mesh @mesh = <["i"=8]>

func.func @collective_matmul_allgather_lhs_non_contracting(
    %lhs: tensor<4096x2048xf32>, %rhs: tensor<2048x1024xf32>) -> tensor<4096x1024xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {}], []] out_specs = [[]] check_vma = false
      (%lhs, %rhs) : (tensor<4096x2048xf32>, tensor<2048x1024xf32>) -> tensor<4096x1024xf32> {
  ^bb0(%lhs_chunk: tensor<512x2048xf32>, %r: tensor<2048x1024xf32>):
    %axis_size = spmd.axis_size over ["i"] : index
    %axis_index = spmd.axis_index over ["i"] : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %chunk_size = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %accum_empty = tensor.empty() : tensor<4096x1024xf32>
    %accum0 = linalg.fill ins(%zero : f32) outs(%accum_empty : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    %last = arith.subi %axis_size, %c1 : index
    %loop:2 = scf.for %i = %c0 to %last step %c1
        iter_args(%accum = %accum0, %l = %lhs_chunk) -> (tensor<4096x1024xf32>, tensor<512x2048xf32>) {
      // update = lhs @ rhs
      %e = tensor.empty() : tensor<512x1024xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
      %update = linalg.matmul ins(%l, %r : tensor<512x2048xf32>, tensor<2048x1024xf32>)
                              outs(%z : tensor<512x1024xf32>) -> tensor<512x1024xf32>
      // circular shift to the left
      %next = spmd.ppermute %l over ["i"]
          pairs [[0, 7], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 6]]
          : tensor<512x2048xf32>
      // device 0 computes chunks 0, 1, ...; device 1 computes chunks 1, 2, ...
      %s = arith.addi %axis_index, %i : index
      %m = arith.remui %s, %axis_size : index
      %row = arith.muli %m, %chunk_size : index
      %updated = tensor.insert_slice %update into %accum[%row, 0] [512, 1024] [1, 1]
          : tensor<512x1024xf32> into tensor<4096x1024xf32>
      scf.yield %updated, %next : tensor<4096x1024xf32>, tensor<512x2048xf32>
    }
    // the last chunk, without the ppermute
    %e = tensor.empty() : tensor<512x1024xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %update = linalg.matmul ins(%loop#1, %r : tensor<512x2048xf32>, tensor<2048x1024xf32>)
                            outs(%z : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %s = arith.addi %axis_index, %last : index
    %m = arith.remui %s, %axis_size : index
    %row = arith.muli %m, %chunk_size : index
    %result = tensor.insert_slice %update into %loop#0[%row, 0] [512, 1024] [1, 1]
        : tensor<512x1024xf32> into tensor<4096x1024xf32>
    spmd.yield %result : tensor<4096x1024xf32>
  }
  return %c : tensor<4096x1024xf32>
}
