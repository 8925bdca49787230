// The attention of ring_attention.mlir written the simple way: K and V
// are all-gathered over "i" first, then each device computes softmax(q K^T
// / sqrt(16)) V for its 16 query rows with the same online-softmax step,
// once, over all 64 keys. Nothing overlaps the gathers. Written by
// bench/overlap/attention.py --examples.

trellis.mesh @mesh = <["i"=4]>

func.func @attention_allgather(%query: tensor<64x16xf32>, %key: tensor<64x16xf32>, %value: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}, {}], [{"i"}, {}], [{"i"}, {}]]
                            out_specs = [[{"i"}, {}]]
      (%query, %key, %value) : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%qb: tensor<16x16xf32>, %kb: tensor<16x16xf32>, %vb: tensor<16x16xf32>):
    %zero = arith.constant 0.0 : f32
    // Below every score: exp(lowest - m) is 0 (a finite stand-in for -inf).
    %lowest = arith.constant -1.0e30 : f32
    %scale = arith.constant 0.25 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = tensor.empty() : tensor<16xf32>
    %m0 = linalg.fill ins(%lowest : f32) outs(%me : tensor<16xf32>) -> tensor<16xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%me : tensor<16xf32>) -> tensor<16xf32>
    %o0e = tensor.empty() : tensor<16x16xf32>
    %o0 = linalg.fill ins(%zero : f32) outs(%o0e : tensor<16x16xf32>) -> tensor<16x16xf32>
    %k = spmd.all_gather %kb over ["i"] dim 0 tiled : tensor<16x16xf32> -> tensor<64x16xf32>
    %v = spmd.all_gather %vb over ["i"] dim 0 tiled : tensor<16x16xf32> -> tensor<64x16xf32>
    // scores[r, c] = (q[r, :] . k[c, :]) / sqrt(D)
    %se = tensor.empty() : tensor<16x64xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<16x64xf32>) -> tensor<16x64xf32>
    %scores = linalg.generic {indexing_maps = [affine_map<(r, c, d) -> (r, d)>,
                                              affine_map<(r, c, d) -> (c, d)>,
                                              affine_map<(r, c, d) -> (r, c)>],
                             iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%qb, %k : tensor<16x16xf32>, tensor<64x16xf32>) outs(%s0 : tensor<16x64xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %ps = arith.mulf %p, %scale : f32
      %sum = arith.addf %acc, %ps : f32
      linalg.yield %sum : f32
    } -> tensor<16x64xf32>
    // m_new[r] = max(m[r], max_c scores[r, c])
    %m_new = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                             affine_map<(r, c) -> (r)>],
                            iterator_types = ["parallel", "reduction"]}
        ins(%scores : tensor<16x64xf32>) outs(%m0 : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %mx = arith.maximumf %acc, %x : f32
      linalg.yield %mx : f32
    } -> tensor<16xf32>
    // p[r, c] = exp(scores[r, c] - m_new[r])
    %pe = tensor.empty() : tensor<16x64xf32>
    %p = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                         affine_map<(r, c) -> (r)>,
                                         affine_map<(r, c) -> (r, c)>],
                        iterator_types = ["parallel", "parallel"]}
        ins(%scores, %m_new : tensor<16x64xf32>, tensor<16xf32>) outs(%pe : tensor<16x64xf32>) {
    ^bb0(%x: f32, %mx: f32, %unused: f32):
      %dx = arith.subf %x, %mx : f32
      %ex = math.exp %dx : f32
      linalg.yield %ex : f32
    } -> tensor<16x64xf32>
    // corr[r] = exp(m[r] - m_new[r]); l_new[r] = l[r] * corr[r] + sum_c p[r, c]
    %ce = tensor.empty() : tensor<16xf32>
    %corr = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>,
                                            affine_map<(r) -> (r)>,
                                            affine_map<(r) -> (r)>],
                           iterator_types = ["parallel"]}
        ins(%m0, %m_new : tensor<16xf32>, tensor<16xf32>) outs(%ce : tensor<16xf32>) {
    ^bb0(%old: f32, %new: f32, %unused: f32):
      %d = arith.subf %old, %new : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    } -> tensor<16xf32>
    %ls = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>,
                                          affine_map<(r) -> (r)>,
                                          affine_map<(r) -> (r)>],
                         iterator_types = ["parallel"]}
        ins(%l0, %corr : tensor<16xf32>, tensor<16xf32>) outs(%ce : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32, %unused: f32):
      %prod = arith.mulf %a, %b : f32
      linalg.yield %prod : f32
    } -> tensor<16xf32>
    %l_new = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                             affine_map<(r, c) -> (r)>],
                            iterator_types = ["parallel", "reduction"]}
        ins(%p : tensor<16x64xf32>) outs(%ls : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %sum = arith.addf %acc, %x : f32
      linalg.yield %sum : f32
    } -> tensor<16xf32>
    // o_new[r, d] = o[r, d] * corr[r] + sum_c p[r, c] v[c, d]
    %oe = tensor.empty() : tensor<16x16xf32>
    %os = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>,
                                          affine_map<(r, d) -> (r)>,
                                          affine_map<(r, d) -> (r, d)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%o0, %corr : tensor<16x16xf32>, tensor<16xf32>) outs(%oe : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %unused: f32):
      %prod = arith.mulf %a, %b : f32
      linalg.yield %prod : f32
    } -> tensor<16x16xf32>
    %o_new = linalg.matmul ins(%p, %v : tensor<16x64xf32>, tensor<64x16xf32>)
                           outs(%os : tensor<16x16xf32>) -> tensor<16x16xf32>
    // out[r, d] = o[r, d] / l[r]
    %fe = tensor.empty() : tensor<16x16xf32>
    %out = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>,
                                           affine_map<(r, d) -> (r)>,
                                           affine_map<(r, d) -> (r, d)>],
                          iterator_types = ["parallel", "parallel"]}
        ins(%o_new, %l_new : tensor<16x16xf32>, tensor<16xf32>) outs(%fe : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %unused: f32):
      %q = arith.divf %a, %b : f32
      linalg.yield %q : f32
    } -> tensor<16x16xf32>
    spmd.yield %out : tensor<16x16xf32>
  }
  return %r : tensor<64x16xf32>
}
