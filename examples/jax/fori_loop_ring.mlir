// A fori_loop with a collective inside, as JAX prints it in a shard_map:
// every device passes a block around the ring three times and adds up
// what it receives, so each ends with the sum of all four blocks. The
// counted while becomes an scf.for, the collective_permute over
// partition-id pairs an spmd.ppermute over "x".
//
//   mesh = jax.make_mesh((4,), ('x',))
//   @jax.jit
//   @partial(shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
//   def ring_sum(x):                                    # [8] -> block [2]
//     def body(i, carry):
//       acc, buf = carry
//       buf = jax.lax.ppermute(buf, 'x', [(j, (j + 1) % 4) for j in range(4)])
//       return acc + buf, buf
//     return jax.lax.fori_loop(0, 3, body, (x, x))[0]
//
//   trellis-run examples/jax/fori_loop_ring.mlir --iota --reference
module @jit_ring_sum attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<2xf32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg1, %iterArg_1 = %arg1) : tensor<i32>, tensor<2xf32>, tensor<2xf32>
       cond {
        %c_2 = stablehlo.constant dense<3> : tensor<i32>
        %2 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %2 : tensor<i1>
      } do {
        %2 = "stablehlo.collective_permute"(%iterArg_1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
        %3 = stablehlo.add %iterArg_0, %2 : tensor<2xf32>
        %c_2 = stablehlo.constant dense<1> : tensor<i32>
        %4 = stablehlo.add %iterArg, %c_2 : tensor<i32>
        stablehlo.return %4, %3, %2 : tensor<i32>, tensor<2xf32>, tensor<2xf32>
      }
      sdy.return %1#1 : tensor<2xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
