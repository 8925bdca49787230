// Seed 000: out_specs that do not mention a mesh axis untile along it.
//
//   x = jnp.array([[3.]])
//   z = shard_map(lambda: x, mesh=m, in_specs=(), out_specs=P('i', 'j'))()
//   print(z)  # prints the same as jnp.tile(x, (4, 2))
//   z = shard_map(lambda: x, mesh=m, in_specs=(), out_specs=P('i', None))()
//   print(z)  # prints the same as jnp.tile(x, (4, 1)), or just jnp.tile(x, (4,))
//   z = shard_map(lambda: x, mesh=m, in_specs=(), out_specs=P(None, None))()
//   print(z)  # prints the same as jnp.tile(x, (1, 1)), or just x
//
// The closed-over x is a constant of the body.
// Run: trellis-run examples/seeds/untile.mlir --entry tile_i_j

trellis.mesh @m = <["i"=4, "j"=2]>

func.func @tile_i_j() -> tensor<4x2xf32> {
  %z = spmd.shard_map @m in_specs = [] out_specs = [[{"i"}, {"j"}]] () : () -> tensor<4x2xf32> {
    %x = arith.constant dense<3.0> : tensor<1x1xf32>
    spmd.yield %x : tensor<1x1xf32>
  }
  return %z : tensor<4x2xf32>
}

func.func @tile_i() -> tensor<4x1xf32> {
  %z = spmd.shard_map @m in_specs = [] out_specs = [[{"i"}, {}]] () : () -> tensor<4x1xf32> {
    %x = arith.constant dense<3.0> : tensor<1x1xf32>
    spmd.yield %x : tensor<1x1xf32>
  }
  return %z : tensor<4x1xf32>
}

func.func @tile_none() -> tensor<1x1xf32> {
  %z = spmd.shard_map @m in_specs = [] out_specs = [[{}, {}]] () : () -> tensor<1x1xf32> {
    %x = arith.constant dense<3.0> : tensor<1x1xf32>
    spmd.yield %x : tensor<1x1xf32>
  }
  return %z : tensor<1x1xf32>
}
