// Seed 003, "compiler, take the wheel" (auto sharding): the inputs are
// sharded, the output's sharding is requested, and the partitioner decides
// the rest.
//
//   mesh = jax.make_mesh((4, 2), ('X', 'Y'))
//   In = jax.device_put(In, NamedSharding(mesh, P('X', 'Y')))   # [8, 2048]
//   W = jax.device_put(W, NamedSharding(mesh, P('Y', None)))    # [2048, 8192]
//   @jax.jit(out_shardings=NamedSharding(mesh, P('X', None)))
//   def matmul_fn(In, W): return In @ W
//
// The seed's HLO: a local bf16[2,1024] x bf16[1024,8192] dot and one
// all-reduce over Y. Here in f32; auto_mode_bf16.mlir is the same in the
// seed's bf16:
//   trellis-opt examples/seeds/auto_mode.mlir --trellis-global-to-manual
//   trellis-run examples/seeds/auto_mode.mlir --random 1 --reference

trellis.mesh @mesh = <["X"=4, "Y"=2]>

func.func @matmul_fn(%in: tensor<8x2048xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {"Y"}]>},
                     %w: tensor<2048x8192xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>})
    -> (tensor<8x8192xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}]>}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8192xf32>) -> tensor<8x8192xf32>
  %out = linalg.matmul ins(%in, %w : tensor<8x2048xf32>, tensor<2048x8192xf32>)
                       outs(%f : tensor<8x8192xf32>) -> tensor<8x8192xf32>
  return %out : tensor<8x8192xf32>
}
