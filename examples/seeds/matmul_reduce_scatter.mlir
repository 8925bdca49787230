// Seed 000: matmul with a fully sharded result.
//
//   @partial(shard_map, mesh=mesh, in_specs=(P('i', 'j'), P('j', None)),
//            out_specs=P('i', 'j'))
//   def matmul_reduce_scatter(a_block, b_block):
//     c_partialsum = jnp.matmul(a_block, b_block)          # f32[8/X, 32]
//     c_block = jax.lax.psum_scatter(c_partialsum, 'j', scatter_dimension=1,
//                                    tiled=True)           # f32[8/X, 32/Y]
//     return c_block
//
// Run: trellis-run examples/seeds/matmul_reduce_scatter.mlir --iota   (c == a @ b)

trellis.mesh @mesh = <["i"=4, "j"=2]>

func.func @matmul_reduce_scatter(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], [{"j"}, {}]]
                            out_specs = [[{"i"}, {"j"}]]
      (%a, %b) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%a_block: tensor<2x8xf32>, %b_block: tensor<8x32xf32>):
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<2x32xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x32xf32>) -> tensor<2x32xf32>
    %c_partialsum = linalg.matmul ins(%a_block, %b_block : tensor<2x8xf32>, tensor<8x32xf32>)
                                  outs(%init : tensor<2x32xf32>) -> tensor<2x32xf32>
    %c_block = spmd.psum_scatter %c_partialsum over ["j"] dim 1 tiled
        : tensor<2x32xf32> -> tensor<2x16xf32>
    spmd.yield %c_block : tensor<2x16xf32>
  }
  return %c : tensor<8x32xf32>
}
