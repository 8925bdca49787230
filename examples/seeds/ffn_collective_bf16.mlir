// Seed 003's overlapped FFN block (examples/seeds/ffn_collective.mlir) in
// bf16, the seed's dtype: the same AG-matmul, tanh gelu and RS-matmul, every
// tensor bf16. The matmuls accumulate in f32 and round once
// (docs/Precision.md); gelu rounds after every op; the RS-matmul's
// circulating accumulator rounds after every step.
// Run: trellis-run examples/seeds/ffn_collective_bf16.mlir --random 11 --reference

trellis.mesh @mesh = <["X"=2, "Y"=4]>

func.func @ffn_collective(%x: tensor<16x64xbf16>, %w_up: tensor<64x128xbf16>,
                          %w_down: tensor<128x64xbf16>) -> tensor<16x64xbf16> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}, {"Y"}], [{}, {"Y"}], [{"Y"}, {}]]
                              out_specs = [[{"X"}, {"Y"}]]
      (%x, %w_up, %w_down) : (tensor<16x64xbf16>, tensor<64x128xbf16>, tensor<128x64xbf16>)
                          -> tensor<16x64xbf16> {
  ^bb0(%xb: tensor<8x16xbf16>, %wu: tensor<64x32xbf16>, %wd: tensor<32x64xbf16>):
    %n = spmd.axis_size over ["Y"] : index
    %idx = spmd.axis_index over ["Y"] : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : bf16
    %last = arith.subi %n, %c1 : index

    // Up-projection: AG-matmul, h = x_full_row_block @ w_up_block.
    %he = tensor.empty() : tensor<8x32xbf16>
    %h0 = linalg.fill ins(%zero : bf16) outs(%he : tensor<8x32xbf16>) -> tensor<8x32xbf16>
    %ag:2 = scf.for %i = %c0 to %last step %c1
        iter_args(%h = %h0, %l = %xb) -> (tensor<8x32xbf16>, tensor<8x16xbf16>) {
      %s = arith.addi %idx, %i : index
      %m = arith.remui %s, %n : index
      %row = arith.muli %m, %c16 : index
      %w_chunk = tensor.extract_slice %wu[%row, 0] [16, 32] [1, 1] : tensor<64x32xbf16> to tensor<16x32xbf16>
      %h_next = linalg.matmul ins(%l, %w_chunk : tensor<8x16xbf16>, tensor<16x32xbf16>)
                              outs(%h : tensor<8x32xbf16>) -> tensor<8x32xbf16>
      %l_next = spmd.ppermute %l over ["Y"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x16xbf16>
      scf.yield %h_next, %l_next : tensor<8x32xbf16>, tensor<8x16xbf16>
    }
    %s_last = arith.addi %idx, %last : index
    %m_last = arith.remui %s_last, %n : index
    %row_last = arith.muli %m_last, %c16 : index
    %w_last = tensor.extract_slice %wu[%row_last, 0] [16, 32] [1, 1] : tensor<64x32xbf16> to tensor<16x32xbf16>
    %h_full = linalg.matmul ins(%ag#1, %w_last : tensor<8x16xbf16>, tensor<16x32xbf16>)
                            outs(%ag#0 : tensor<8x32xbf16>) -> tensor<8x32xbf16>

    // gelu (tanh approximation): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    %ge = tensor.empty() : tensor<8x32xbf16>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%h_full : tensor<8x32xbf16>) outs(%ge : tensor<8x32xbf16>) {
    ^bb0(%v: bf16, %unused: bf16):
      %half = arith.constant 0.5 : bf16
      %one = arith.constant 1.0 : bf16
      %k = arith.constant 0.7978845608028654 : bf16
      %c = arith.constant 0.044715 : bf16
      %v2 = arith.mulf %v, %v : bf16
      %v3 = arith.mulf %v2, %v : bf16
      %cv3 = arith.mulf %c, %v3 : bf16
      %inner = arith.addf %v, %cv3 : bf16
      %scaled = arith.mulf %k, %inner : bf16
      %t = math.tanh %scaled : bf16
      %onet = arith.addf %one, %t : bf16
      %hv = arith.mulf %half, %v : bf16
      %r = arith.mulf %hv, %onet : bf16
      linalg.yield %r : bf16
    } -> tensor<8x32xbf16>

    // Down-projection: RS-matmul. The accumulator for output chunk
    // (idx + i + 1) mod n travels to the left; after n steps device idx holds
    // chunk idx summed over all devices.
    %ae = tensor.empty() : tensor<8x16xbf16>
    %acc0 = linalg.fill ins(%zero : bf16) outs(%ae : tensor<8x16xbf16>) -> tensor<8x16xbf16>
    %rs = scf.for %i = %c0 to %last step %c1 iter_args(%acc = %acc0) -> (tensor<8x16xbf16>) {
      %s = arith.addi %idx, %i : index
      %s1 = arith.addi %s, %c1 : index
      %chunk = arith.remui %s1, %n : index
      %col = arith.muli %chunk, %c16 : index
      %wd_chunk = tensor.extract_slice %wd[0, %col] [32, 16] [1, 1] : tensor<32x64xbf16> to tensor<32x16xbf16>
      %acc_next = linalg.matmul ins(%g, %wd_chunk : tensor<8x32xbf16>, tensor<32x16xbf16>)
                                outs(%acc : tensor<8x16xbf16>) -> tensor<8x16xbf16>
      %sent = spmd.ppermute %acc_next over ["Y"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x16xbf16>
      scf.yield %sent : tensor<8x16xbf16>
    }
    %own_col = arith.muli %idx, %c16 : index
    %wd_own = tensor.extract_slice %wd[0, %own_col] [32, 16] [1, 1] : tensor<32x64xbf16> to tensor<32x16xbf16>
    %result = linalg.matmul ins(%g, %wd_own : tensor<8x32xbf16>, tensor<32x16xbf16>)
                            outs(%rs : tensor<8x16xbf16>) -> tensor<8x16xbf16>
    spmd.yield %result : tensor<8x16xbf16>
  }
  return %out : tensor<16x64xbf16>
}
