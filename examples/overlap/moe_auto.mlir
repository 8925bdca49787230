// Seed 003's Mixture-of-Experts block written without shard_map, GShard
// style: tokens in G groups of S (the groups sharded over "X"), a
// dispatch mask [G, S, E, C] (token s of group g goes to slot c of expert
// e), E experts with their weights sharded over "X". The sharding
// constraints ask for the dispatched tokens sharded by group, then by
// expert (JAX's with_sharding_constraint), and the experts' outputs by
// expert, then by group; the partitioner turns each pair into an
// all_to_all, feeding the experts' einsum and the combine.
//
//   dispatched[e, g, c, d] = sum_s mask[g, s, e, c] x[g, s, d]
//   y[e, g, c, f]          = sum_d dispatched[e, g, c, d] w[e, d, f]
//   out[g, s, f]           = sum_{e, c} mask[g, s, e, c] y[e, g, c, f]
//
// spmd-chunk-all-to-all then splits both all_to_alls into chunks of
// capacity slots, so that the experts of one chunk run while the next
// chunk travels:
//
//   trellis-run examples/overlap/moe_auto.mlir --random 1 --reference \
//     --passes='spmd-chunk-all-to-all{threshold-bytes=0},spmd-async-collectives{kinds=all}'

trellis.mesh @mesh = <["X"=4]>

#mask = affine_map<(g, s, e, c, d) -> (g, s, e, c)>
#x = affine_map<(g, s, e, c, d) -> (g, s, d)>
#disp = affine_map<(g, s, e, c, d) -> (e, g, c, d)>
#ein = affine_map<(e, g, c, f, d) -> (e, g, c, d)>
#w = affine_map<(e, g, c, f, d) -> (e, d, f)>
#eout = affine_map<(e, g, c, f, d) -> (e, g, c, f)>
#cmask = affine_map<(g, s, f, e, c) -> (g, s, e, c)>
#cy = affine_map<(g, s, f, e, c) -> (e, g, c, f)>
#cout = affine_map<(g, s, f, e, c) -> (g, s, f)>

func.func @moe(%x: tensor<4x16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}, {}]>},
               %mask: tensor<4x16x4x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}, {}, {}]>},
               %w: tensor<4x32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}, {}]>})
    -> (tensor<4x16x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}, {}]>}) {
  %zero = arith.constant 0.0 : f32
  %de = tensor.empty() : tensor<4x4x8x32xf32>
  %d0 = linalg.fill ins(%zero : f32) outs(%de : tensor<4x4x8x32xf32>) -> tensor<4x4x8x32xf32>
  %disp = linalg.generic {indexing_maps = [#mask, #x, #disp],
      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]}
      ins(%mask, %x : tensor<4x16x4x8xf32>, tensor<4x16x32xf32>) outs(%d0 : tensor<4x4x8x32xf32>) {
  ^bb0(%m: f32, %v: f32, %acc: f32):
    %p = arith.mulf %m, %v : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4x8x32xf32>
  %dg = trellis.sharding_constraint %disp to <@mesh, [{}, {"X"}, {}, {}]> : tensor<4x4x8x32xf32>
  %de2 = trellis.sharding_constraint %dg to <@mesh, [{"X"}, {}, {}, {}]> : tensor<4x4x8x32xf32>
  %ye = tensor.empty() : tensor<4x4x8x16xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<4x4x8x16xf32>) -> tensor<4x4x8x16xf32>
  %y = linalg.generic {indexing_maps = [#ein, #w, #eout],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%de2, %w : tensor<4x4x8x32xf32>, tensor<4x32x16xf32>) outs(%y0 : tensor<4x4x8x16xf32>) {
  ^bb0(%v: f32, %u: f32, %acc: f32):
    %p = arith.mulf %v, %u : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4x8x16xf32>
  %ye2 = trellis.sharding_constraint %y to <@mesh, [{"X"}, {}, {}, {}]> : tensor<4x4x8x16xf32>
  %yg = trellis.sharding_constraint %ye2 to <@mesh, [{}, {"X"}, {}, {}]> : tensor<4x4x8x16xf32>
  %oe = tensor.empty() : tensor<4x16x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %o = linalg.generic {indexing_maps = [#cmask, #cy, #cout],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%mask, %yg : tensor<4x16x4x8xf32>, tensor<4x4x8x16xf32>) outs(%o0 : tensor<4x16x16xf32>) {
  ^bb0(%m: f32, %v: f32, %acc: f32):
    %p = arith.mulf %m, %v : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16x16xf32>
  return %o : tensor<4x16x16xf32>
}
