// Seed 003, "a complete Transformer MLP block with overlapped
// communication": In[B@X, D@Y] -> AG-matmul with W_in[D, F@Y] -> gelu ->
// RS-matmul with W_out[F@Y, D] -> Out[B@X, D@Y].
//
//   @jax.shard_map(in_specs=(jax.P('X', 'Y'), jax.P(None, 'Y'), jax.P('Y', None)),
//                  out_specs=jax.P('X', 'Y'))
//   def ffn_collective(x, w_up, w_down):
//     h = collective_matmul_allgather(x, w_up)        # AG-matmul
//     h = jax.nn.gelu(h)
//     out = collective_matmul_reducescatter(h, w_down)  # RS-matmul
//     return out
//
// The AG-matmul is collective_matmul_allgather_lhs (the activation chunk
// circulates; each step uses the matching rows of w_up). The RS-matmul is the
// complement the seed describes: each step computes the partial product for
// one output chunk and adds it to an accumulator that circulates by
// ppermute; device e works on chunk (e + i + 1) mod n at step i, so after n
// steps it holds the fully reduced chunk e. jax.nn.gelu is the tanh
// approximation (its default).
//
// On a 2x4 mesh with B=16, D=64, F=128: x block f32[8,16], w_up block
// f32[64,32], w_down block f32[32,64], h block f32[8,32], out block f32[8,16].
// Run: trellis-run examples/seeds/ffn_collective.mlir --random 2

trellis.mesh @mesh = <["X"=2, "Y"=4]>

func.func @ffn_collective(%x: tensor<16x64xf32>, %w_up: tensor<64x128xf32>,
                          %w_down: tensor<128x64xf32>) -> tensor<16x64xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}, {"Y"}], [{}, {"Y"}], [{"Y"}, {}]]
                              out_specs = [[{"X"}, {"Y"}]]
      (%x, %w_up, %w_down) : (tensor<16x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>)
                          -> tensor<16x64xf32> {
  ^bb0(%xb: tensor<8x16xf32>, %wu: tensor<64x32xf32>, %wd: tensor<32x64xf32>):
    %n = spmd.axis_size over ["Y"] : index
    %idx = spmd.axis_index over ["Y"] : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %last = arith.subi %n, %c1 : index

    // Up-projection: AG-matmul, h = x_full_row_block @ w_up_block.
    %he = tensor.empty() : tensor<8x32xf32>
    %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<8x32xf32>) -> tensor<8x32xf32>
    %ag:2 = scf.for %i = %c0 to %last step %c1
        iter_args(%h = %h0, %l = %xb) -> (tensor<8x32xf32>, tensor<8x16xf32>) {
      %s = arith.addi %idx, %i : index
      %m = arith.remui %s, %n : index
      %row = arith.muli %m, %c16 : index
      %w_chunk = tensor.extract_slice %wu[%row, 0] [16, 32] [1, 1] : tensor<64x32xf32> to tensor<16x32xf32>
      %h_next = linalg.matmul ins(%l, %w_chunk : tensor<8x16xf32>, tensor<16x32xf32>)
                              outs(%h : tensor<8x32xf32>) -> tensor<8x32xf32>
      %l_next = spmd.ppermute %l over ["Y"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x16xf32>
      scf.yield %h_next, %l_next : tensor<8x32xf32>, tensor<8x16xf32>
    }
    %s_last = arith.addi %idx, %last : index
    %m_last = arith.remui %s_last, %n : index
    %row_last = arith.muli %m_last, %c16 : index
    %w_last = tensor.extract_slice %wu[%row_last, 0] [16, 32] [1, 1] : tensor<64x32xf32> to tensor<16x32xf32>
    %h_full = linalg.matmul ins(%ag#1, %w_last : tensor<8x16xf32>, tensor<16x32xf32>)
                            outs(%ag#0 : tensor<8x32xf32>) -> tensor<8x32xf32>

    // gelu (tanh approximation): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    %ge = tensor.empty() : tensor<8x32xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%h_full : tensor<8x32xf32>) outs(%ge : tensor<8x32xf32>) {
    ^bb0(%v: f32, %unused: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k = arith.constant 0.7978845608028654 : f32
      %c = arith.constant 0.044715 : f32
      %v2 = arith.mulf %v, %v : f32
      %v3 = arith.mulf %v2, %v : f32
      %cv3 = arith.mulf %c, %v3 : f32
      %inner = arith.addf %v, %cv3 : f32
      %scaled = arith.mulf %k, %inner : f32
      %t = math.tanh %scaled : f32
      %onet = arith.addf %one, %t : f32
      %hv = arith.mulf %half, %v : f32
      %r = arith.mulf %hv, %onet : f32
      linalg.yield %r : f32
    } -> tensor<8x32xf32>

    // Down-projection: RS-matmul. The accumulator for output chunk
    // (idx + i + 1) mod n travels to the left; after n steps device idx holds
    // chunk idx summed over all devices.
    %ae = tensor.empty() : tensor<8x16xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%ae : tensor<8x16xf32>) -> tensor<8x16xf32>
    %rs = scf.for %i = %c0 to %last step %c1 iter_args(%acc = %acc0) -> (tensor<8x16xf32>) {
      %s = arith.addi %idx, %i : index
      %s1 = arith.addi %s, %c1 : index
      %chunk = arith.remui %s1, %n : index
      %col = arith.muli %chunk, %c16 : index
      %wd_chunk = tensor.extract_slice %wd[0, %col] [32, 16] [1, 1] : tensor<32x64xf32> to tensor<32x16xf32>
      %acc_next = linalg.matmul ins(%g, %wd_chunk : tensor<8x32xf32>, tensor<32x16xf32>)
                                outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
      %sent = spmd.ppermute %acc_next over ["Y"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x16xf32>
      scf.yield %sent : tensor<8x16xf32>
    }
    %own_col = arith.muli %idx, %c16 : index
    %wd_own = tensor.extract_slice %wd[0, %own_col] [32, 16] [1, 1] : tensor<32x64xf32> to tensor<32x16xf32>
    %result = linalg.matmul ins(%g, %wd_own : tensor<8x32xf32>, tensor<32x16xf32>)
                            outs(%rs : tensor<8x16xf32>) -> tensor<8x16xf32>
    spmd.yield %result : tensor<8x16xf32>
  }
  return %out : tensor<16x64xf32>
}
