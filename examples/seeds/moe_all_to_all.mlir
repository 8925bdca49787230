// Seed 003, "Mixture of Experts": route each token to its expert's device
// with all_to_all, apply the expert, and route the results back.
//
//   W: float32[E@X, D, F]   expert weights, one expert per device here
//   A: float32[S@X, D]      activations
//   B: int32[S@X]           routing: the expert of each token, in [0, E)
//   Goal: Out[i] = A[i] @ W[B[i]]
//
// The seed describes the shard_map approach without code; this is a
// capacity-based dispatch (capacity = tokens per device, so nothing is
// dropped). On each device, for its T local tokens:
//   pos[t]      = number of earlier local tokens routed to the same expert
//   mask[t,e,c] = 1 if B[t] == e and pos[t] == c
//   dispatch[e,c,:] = sum_t mask[t,e,c] A[t,:]            (tokens per expert)
//   received = all_to_all(dispatch, split 0, concat 0)   (received[j]: from device j)
//   y = received @ W_local                                (this device's expert)
//   combined = all_to_all(y, split 0, concat 0)          (combined[e]: from expert e)
//   Out[t,:] = sum_{e,c} mask[t,e,c] combined[e,c,:]
//
// Mesh X=4, E=4, S=32 (8 per device), D=16, F=8.
// Run: trellis-run examples/seeds/moe_all_to_all.mlir
//        --input W=examples/seeds/inputs/moe_W.npy --input A=examples/seeds/inputs/moe_A.npy
//        --input B=examples/seeds/inputs/moe_B.npy

trellis.mesh @mesh = <["X"=4]>

func.func @moe(%W: tensor<4x16x8xf32> {trellis.name = "W"},
               %A: tensor<32x16xf32> {trellis.name = "A"},
               %B: tensor<32xi32> {trellis.name = "B"}) -> tensor<32x8xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}], [{"X"}], [{"X"}]] out_specs = [[{"X"}]]
      (%W, %A, %B) : (tensor<4x16x8xf32>, tensor<32x16xf32>, tensor<32xi32>) -> tensor<32x8xf32> {
  ^bb0(%w: tensor<1x16x8xf32>, %a: tensor<8x16xf32>, %b: tensor<8xi32>):
    %zero = arith.constant 0.0 : f32
    %zero_i = arith.constant 0 : i32

    // pos[t] = #{t' < t : b[t'] == b[t]}
    %pe = tensor.empty() : tensor<8xi32>
    %p0 = linalg.fill ins(%zero_i : i32) outs(%pe : tensor<8xi32>) -> tensor<8xi32>
    %pos = linalg.generic {indexing_maps = [affine_map<(t, u) -> (t)>,
                                            affine_map<(t, u) -> (u)>,
                                            affine_map<(t, u) -> (t)>],
                           iterator_types = ["parallel", "reduction"]}
        ins(%b, %b : tensor<8xi32>, tensor<8xi32>) outs(%p0 : tensor<8xi32>) {
    ^bb0(%bt: i32, %bu: i32, %acc: i32):
      %t = linalg.index 0 : index
      %u = linalg.index 1 : index
      %earlier = arith.cmpi ult, %u, %t : index
      %same = arith.cmpi eq, %bt, %bu : i32
      %both = arith.andi %earlier, %same : i1
      %inc = arith.extui %both : i1 to i32
      %sum = arith.addi %acc, %inc : i32
      linalg.yield %sum : i32
    } -> tensor<8xi32>

    // mask[t, e, c] = (b[t] == e && pos[t] == c)
    %me = tensor.empty() : tensor<8x4x8xf32>
    %mask = linalg.generic {indexing_maps = [affine_map<(t, e, c) -> (t)>,
                                             affine_map<(t, e, c) -> (t)>,
                                             affine_map<(t, e, c) -> (t, e, c)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%b, %pos : tensor<8xi32>, tensor<8xi32>) outs(%me : tensor<8x4x8xf32>) {
    ^bb0(%bt: i32, %pt: i32, %unused: f32):
      %e = linalg.index 1 : index
      %c = linalg.index 2 : index
      %ei = arith.index_cast %e : index to i32
      %ci = arith.index_cast %c : index to i32
      %is_e = arith.cmpi eq, %bt, %ei : i32
      %is_c = arith.cmpi eq, %pt, %ci : i32
      %hit = arith.andi %is_e, %is_c : i1
      %v = arith.uitofp %hit : i1 to f32
      linalg.yield %v : f32
    } -> tensor<8x4x8xf32>

    // dispatch[e, c, d] = sum_t mask[t, e, c] * a[t, d]
    %de = tensor.empty() : tensor<4x8x16xf32>
    %d0 = linalg.fill ins(%zero : f32) outs(%de : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %dispatch = linalg.generic {indexing_maps = [affine_map<(e, c, d, t) -> (t, e, c)>,
                                                 affine_map<(e, c, d, t) -> (t, d)>,
                                                 affine_map<(e, c, d, t) -> (e, c, d)>],
                                iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%mask, %a : tensor<8x4x8xf32>, tensor<8x16xf32>) outs(%d0 : tensor<4x8x16xf32>) {
    ^bb0(%m: f32, %x: f32, %acc: f32):
      %p = arith.mulf %m, %x : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<4x8x16xf32>

    // Send each expert's tokens to the expert's device.
    %received = spmd.all_to_all %dispatch over ["X"] split 0 concat 0
        : tensor<4x8x16xf32> -> tensor<4x8x16xf32>

    // Apply this device's expert to every received token.
    %flat = tensor.collapse_shape %received [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
    %wl = tensor.collapse_shape %w [[0, 1], [2]] : tensor<1x16x8xf32> into tensor<16x8xf32>
    %ye = tensor.empty() : tensor<32x8xf32>
    %y0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<32x8xf32>) -> tensor<32x8xf32>
    %y_flat = linalg.matmul ins(%flat, %wl : tensor<32x16xf32>, tensor<16x8xf32>)
                            outs(%y0 : tensor<32x8xf32>) -> tensor<32x8xf32>
    %y = tensor.expand_shape %y_flat [[0, 1], [2]] output_shape [4, 8, 8]
        : tensor<32x8xf32> into tensor<4x8x8xf32>

    // Send the results back to the tokens' devices.
    %combined = spmd.all_to_all %y over ["X"] split 0 concat 0
        : tensor<4x8x8xf32> -> tensor<4x8x8xf32>

    // out[t, f] = sum_{e, c} mask[t, e, c] * combined[e, c, f]
    %oe = tensor.empty() : tensor<8x8xf32>
    %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x8xf32>) -> tensor<8x8xf32>
    %o = linalg.generic {indexing_maps = [affine_map<(t, f, e, c) -> (t, e, c)>,
                                          affine_map<(t, f, e, c) -> (e, c, f)>,
                                          affine_map<(t, f, e, c) -> (t, f)>],
                         iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
        ins(%mask, %combined : tensor<8x4x8xf32>, tensor<4x8x8xf32>) outs(%o0 : tensor<8x8xf32>) {
    ^bb0(%m: f32, %y_: f32, %acc: f32):
      %p = arith.mulf %m, %y_ : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    spmd.yield %o : tensor<8x8xf32>
  }
  return %out : tensor<32x8xf32>
}
