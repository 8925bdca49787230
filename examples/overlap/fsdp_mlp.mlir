// A 4-layer MLP trained with fully sharded data parallelism (FSDP, seed
// 003's "collective pipelining" exercise): the batch is split over the 8
// devices of "d", and so is every layer's weight matrix (by rows); each
// layer all-gathers its weights, then computes h = relu(h @ W[l]).
//
//   def layer(h, w_shard):
//     w = jax.lax.all_gather(w_shard, 'd', tiled=True)
//     return jax.nn.relu(h @ w)
//   shard_map(lambda x, ws: fori_loop(0, 4, lambda l, h: layer(h, ws[l]), x),
//             mesh, in_specs=(P('d', None), P(None, 'd', None)),
//             out_specs=P('d', None))
//
// As written, every layer waits for its gather. spmd-pipeline-collectives
// starts layer l+1's gather while layer l computes (the gather of layer 0
// before the loop, the last layer peeled):
//   trellis-run examples/overlap/fsdp_mlp.mlir --random 1 --reference \
//     --passes='spmd-pipeline-collectives' --clock=virtual \
//     --link-latency-us 2 --link-bandwidth-gbps 1
// bench/fsdp_overlap.py measures both forms at larger sizes.

trellis.mesh @mesh = <["d"=8]>

func.func @main(%x: tensor<64x64xf32>, %w: tensor<4x64x64xf32>) -> tensor<64x64xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"d"}, {}], [{}, {"d"}, {}]] out_specs = [[{"d"}, {}]]
      (%x, %w) : (tensor<64x64xf32>, tensor<4x64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%xb: tensor<8x64xf32>, %wb: tensor<4x8x64xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cl = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %zeros = arith.constant dense<0.0> : tensor<8x64xf32>
    %h = scf.for %l = %c0 to %cl step %c1 iter_args(%a = %xb) -> (tensor<8x64xf32>) {
      %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 8, 64] [1, 1, 1] : tensor<4x8x64xf32> to tensor<8x64xf32>
      %wl = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<8x64xf32> -> tensor<64x64xf32>
      %e = tensor.empty() : tensor<8x64xf32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
      %m = linalg.matmul ins(%a, %wl : tensor<8x64xf32>, tensor<64x64xf32>) outs(%z : tensor<8x64xf32>) -> tensor<8x64xf32>
      %r = arith.maximumf %m, %zeros : tensor<8x64xf32>
      scf.yield %r : tensor<8x64xf32>
    }
    spmd.yield %h : tensor<8x64xf32>
  }
  return %y : tensor<64x64xf32>
}
