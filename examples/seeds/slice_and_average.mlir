// Seed 003, shard_map: slicing and averaging across devices.
//
//   mesh = jax.make_mesh((2, 4), ('x', 'y'), (AxisType.Explicit, AxisType.Explicit))
//   x = jnp.arange(0, 512, dtype=jnp.int32, out_sharding=jax.P(('x', 'y')))
//   @jax.shard_map(in_specs=jax.P(('x', 'y')), out_specs=jax.P())
//   def slice_and_average(x):
//     assert x.shape == (512 // 8,)                 # local view: 64 elements
//     return jax.lax.pmean(x[:4], axis_name=('x', 'y'))
//   out = slice_and_average(x)
//   assert out.shape == (4,)
//
// The result is mean(x[:4], x[64:68], x[128:132], ...) = [224, 225, 226, 227].
// JAX's pmean of int32 divides with true division, so the result is float32;
// here the slice is converted first and averaged as float32.
// Run: trellis-run examples/seeds/slice_and_average.mlir --iota

trellis.mesh @mesh = <["x"=2, "y"=4], types = [explicit, explicit]>

func.func @slice_and_average(%x: tensor<512xi32, #trellis.sharding<@mesh, [{"x", "y"}]>>) -> tensor<4xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"x", "y"}]] out_specs = [[]]
      (%x) : (tensor<512xi32, #trellis.sharding<@mesh, [{"x", "y"}]>>) -> tensor<4xf32> {
  ^bb0(%block: tensor<64xi32>):
    %head = tensor.extract_slice %block[0] [4] [1] : tensor<64xi32> to tensor<4xi32>
    %f = arith.sitofp %head : tensor<4xi32> to tensor<4xf32>
    %mean = spmd.pmean %f over ["x", "y"] : tensor<4xf32>
    spmd.yield %mean : tensor<4xf32>
  }
  return %out : tensor<4xf32>
}
