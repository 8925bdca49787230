// Seed 000, "TL;DR example": matmul_basic on a 4x2 mesh.
//
//   mesh = Mesh(devices.reshape(4, 2), ('i', 'j'))
//   a = jnp.arange(8 * 16.).reshape(8, 16)
//   b = jnp.arange(16 * 32.).reshape(16, 32)
//   @partial(shard_map, mesh=mesh, in_specs=(P('i', 'j'), P('j', None)),
//            out_specs=P('i', None))
//   def matmul_basic(a_block, b_block):   # a_block: f32[2, 8], b_block: f32[8, 32]
//     z_partialsum = jnp.dot(a_block, b_block)
//     z_block = jax.lax.psum(z_partialsum, 'j')
//     return z_block
//   c = matmul_basic(a, b)  # c: f32[8, 32]
//
// Run: trellis-run examples/seeds/matmul_basic.mlir --iota   (c == a @ b)

trellis.mesh @mesh = <["i"=4, "j"=2]>

func.func @matmul_basic(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}], [{"j"}, {}]]
                            out_specs = [[{"i"}, {}]]
      (%a, %b) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> {
  ^bb0(%a_block: tensor<2x8xf32>, %b_block: tensor<8x32xf32>):
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<2x32xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x32xf32>) -> tensor<2x32xf32>
    %z_partialsum = linalg.matmul ins(%a_block, %b_block : tensor<2x8xf32>, tensor<8x32xf32>)
                                  outs(%init : tensor<2x32xf32>) -> tensor<2x32xf32>
    %z_block = spmd.psum %z_partialsum over ["j"] : tensor<2x32xf32>
    spmd.yield %z_block : tensor<2x32xf32>
  }
  return %c : tensor<8x32xf32>
}
