// Ring attention (seed 003's reason for shard_map; issue 28): the sequence
// of Q, K and V is split over "i" (4 devices, 16 rows each). Every device
// keeps its query block and attends to one key/value block per step, the
// blocks travelling around the ring by ppermute while the current one is
// used (spmd-async-collectives starts each ppermute before the step's
// compute and waits after it), with the online softmax (running row
// maximum m, row sum l and unnormalised output o). After 4 steps each
// device has seen every block: out = softmax(Q K^T / sqrt(16)) V, its rows.
// The last step sends nothing (n - 1 transfers, as an all-gather's).
// attention_allgather.mlir is the same attention with K and V gathered
// first; test/Examples/overlap/ring_attention.test checks both against
// numpy. Written by bench/overlap/attention.py --examples.

trellis.mesh @mesh = <["i"=4]>

func.func @ring_attention(%query: tensor<64x16xf32>, %key: tensor<64x16xf32>, %value: tensor<64x16xf32>) -> tensor<64x16xf32> {
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
    %steps = spmd.axis_size over ["i"] : index
    // steps - 1 steps with a ppermute, then the last one without.
    %last = arith.subi %steps, %c1 : index
    %loop:5 = scf.for %s = %c0 to %last step %c1
        iter_args(%m = %m0, %l = %l0, %o = %o0, %k = %kb, %v = %vb)
        -> (tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
      // The next step's blocks come from the device before this one.
      %k_next = spmd.ppermute %k over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<16x16xf32>
      %v_next = spmd.ppermute %v over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<16x16xf32>
      // scores[r, c] = (q[r, :] . k[c, :]) / sqrt(D)
      %se = tensor.empty() : tensor<16x16xf32>
      %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<16x16xf32>) -> tensor<16x16xf32>
      %scores = linalg.generic {indexing_maps = [affine_map<(r, c, d) -> (r, d)>,
                                                affine_map<(r, c, d) -> (c, d)>,
                                                affine_map<(r, c, d) -> (r, c)>],
                               iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%qb, %k : tensor<16x16xf32>, tensor<16x16xf32>) outs(%s0 : tensor<16x16xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %ps = arith.mulf %p, %scale : f32
        %sum = arith.addf %acc, %ps : f32
        linalg.yield %sum : f32
      } -> tensor<16x16xf32>
      // m_new[r] = max(m[r], max_c scores[r, c])
      %m_new = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                               affine_map<(r, c) -> (r)>],
                              iterator_types = ["parallel", "reduction"]}
          ins(%scores : tensor<16x16xf32>) outs(%m : tensor<16xf32>) {
      ^bb0(%x: f32, %acc: f32):
        %mx = arith.maximumf %acc, %x : f32
        linalg.yield %mx : f32
      } -> tensor<16xf32>
      // p[r, c] = exp(scores[r, c] - m_new[r])
      %pe = tensor.empty() : tensor<16x16xf32>
      %p = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                           affine_map<(r, c) -> (r)>,
                                           affine_map<(r, c) -> (r, c)>],
                          iterator_types = ["parallel", "parallel"]}
          ins(%scores, %m_new : tensor<16x16xf32>, tensor<16xf32>) outs(%pe : tensor<16x16xf32>) {
      ^bb0(%x: f32, %mx: f32, %unused: f32):
        %dx = arith.subf %x, %mx : f32
        %ex = math.exp %dx : f32
        linalg.yield %ex : f32
      } -> tensor<16x16xf32>
      // corr[r] = exp(m[r] - m_new[r]); l_new[r] = l[r] * corr[r] + sum_c p[r, c]
      %ce = tensor.empty() : tensor<16xf32>
      %corr = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>,
                                              affine_map<(r) -> (r)>,
                                              affine_map<(r) -> (r)>],
                             iterator_types = ["parallel"]}
          ins(%m, %m_new : tensor<16xf32>, tensor<16xf32>) outs(%ce : tensor<16xf32>) {
      ^bb0(%old: f32, %new: f32, %unused: f32):
        %d = arith.subf %old, %new : f32
        %e = math.exp %d : f32
        linalg.yield %e : f32
      } -> tensor<16xf32>
      %ls = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>,
                                            affine_map<(r) -> (r)>,
                                            affine_map<(r) -> (r)>],
                           iterator_types = ["parallel"]}
          ins(%l, %corr : tensor<16xf32>, tensor<16xf32>) outs(%ce : tensor<16xf32>) {
      ^bb0(%a: f32, %b: f32, %unused: f32):
        %prod = arith.mulf %a, %b : f32
        linalg.yield %prod : f32
      } -> tensor<16xf32>
      %l_new = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                               affine_map<(r, c) -> (r)>],
                              iterator_types = ["parallel", "reduction"]}
          ins(%p : tensor<16x16xf32>) outs(%ls : tensor<16xf32>) {
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
          ins(%o, %corr : tensor<16x16xf32>, tensor<16xf32>) outs(%oe : tensor<16x16xf32>) {
      ^bb0(%a: f32, %b: f32, %unused: f32):
        %prod = arith.mulf %a, %b : f32
        linalg.yield %prod : f32
      } -> tensor<16x16xf32>
      %o_new = linalg.matmul ins(%p, %v : tensor<16x16xf32>, tensor<16x16xf32>)
                             outs(%os : tensor<16x16xf32>) -> tensor<16x16xf32>
      scf.yield %m_new, %l_new, %o_new, %k_next, %v_next
          : tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
    }
    // The last step, on the block that arrived last.
    // scores[r, c] = (q[r, :] . k[c, :]) / sqrt(D)
    %se = tensor.empty() : tensor<16x16xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<16x16xf32>) -> tensor<16x16xf32>
    %scores = linalg.generic {indexing_maps = [affine_map<(r, c, d) -> (r, d)>,
                                              affine_map<(r, c, d) -> (c, d)>,
                                              affine_map<(r, c, d) -> (r, c)>],
                             iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%qb, %loop#3 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%s0 : tensor<16x16xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %ps = arith.mulf %p, %scale : f32
      %sum = arith.addf %acc, %ps : f32
      linalg.yield %sum : f32
    } -> tensor<16x16xf32>
    // m_new[r] = max(m[r], max_c scores[r, c])
    %m_new = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                             affine_map<(r, c) -> (r)>],
                            iterator_types = ["parallel", "reduction"]}
        ins(%scores : tensor<16x16xf32>) outs(%loop#0 : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %mx = arith.maximumf %acc, %x : f32
      linalg.yield %mx : f32
    } -> tensor<16xf32>
    // p[r, c] = exp(scores[r, c] - m_new[r])
    %pe = tensor.empty() : tensor<16x16xf32>
    %p = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                         affine_map<(r, c) -> (r)>,
                                         affine_map<(r, c) -> (r, c)>],
                        iterator_types = ["parallel", "parallel"]}
        ins(%scores, %m_new : tensor<16x16xf32>, tensor<16xf32>) outs(%pe : tensor<16x16xf32>) {
    ^bb0(%x: f32, %mx: f32, %unused: f32):
      %dx = arith.subf %x, %mx : f32
      %ex = math.exp %dx : f32
      linalg.yield %ex : f32
    } -> tensor<16x16xf32>
    // corr[r] = exp(m[r] - m_new[r]); l_new[r] = l[r] * corr[r] + sum_c p[r, c]
    %ce = tensor.empty() : tensor<16xf32>
    %corr = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>,
                                            affine_map<(r) -> (r)>,
                                            affine_map<(r) -> (r)>],
                           iterator_types = ["parallel"]}
        ins(%loop#0, %m_new : tensor<16xf32>, tensor<16xf32>) outs(%ce : tensor<16xf32>) {
    ^bb0(%old: f32, %new: f32, %unused: f32):
      %d = arith.subf %old, %new : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    } -> tensor<16xf32>
    %ls = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>,
                                          affine_map<(r) -> (r)>,
                                          affine_map<(r) -> (r)>],
                         iterator_types = ["parallel"]}
        ins(%loop#1, %corr : tensor<16xf32>, tensor<16xf32>) outs(%ce : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32, %unused: f32):
      %prod = arith.mulf %a, %b : f32
      linalg.yield %prod : f32
    } -> tensor<16xf32>
    %l_new = linalg.generic {indexing_maps = [affine_map<(r, c) -> (r, c)>,
                                             affine_map<(r, c) -> (r)>],
                            iterator_types = ["parallel", "reduction"]}
        ins(%p : tensor<16x16xf32>) outs(%ls : tensor<16xf32>) {
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
        ins(%loop#2, %corr : tensor<16x16xf32>, tensor<16xf32>) outs(%oe : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %unused: f32):
      %prod = arith.mulf %a, %b : f32
      linalg.yield %prod : f32
    } -> tensor<16x16xf32>
    %o_new = linalg.matmul ins(%p, %loop#4 : tensor<16x16xf32>, tensor<16x16xf32>)
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
