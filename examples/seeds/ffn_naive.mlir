// Seed 003's Transformer FFN block written naively (the "Naive Comm" column
// of the seed's table): In[B@X, D@Y] -> all_gather over Y, matmul with
// W_in[D, F@Y] -> gelu -> matmul with W_out[F@Y, D] -> psum_scatter over Y
// -> Out[B@X, D@Y]. ffn_collective.mlir is the same block with both
// collectives overlapped by hand; `spmd-collective-matmul` derives such
// loops from this program (the all_gather on the contracting dimension of
// the up-projection, the psum_scatter of the down-projection).
//
// On a 2x4 mesh with B=16, D=64, F=128: x block f32[8,16], w_up block
// f32[64,32], w_down block f32[32,64], out block f32[8,16].
// Run: trellis-run examples/seeds/ffn_naive.mlir --random 2
//      (add --passes='spmd-collective-matmul{force}' for the overlapped loops:
//       this small example is below the pass's default size threshold)

trellis.mesh @mesh = <["X"=2, "Y"=4]>

func.func @ffn_naive(%x: tensor<16x64xf32>, %w_up: tensor<64x128xf32>,
                     %w_down: tensor<128x64xf32>) -> tensor<16x64xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}, {"Y"}], [{}, {"Y"}], [{"Y"}, {}]]
                              out_specs = [[{"X"}, {"Y"}]]
      (%x, %w_up, %w_down) : (tensor<16x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>)
                          -> tensor<16x64xf32> {
  ^bb0(%xb: tensor<8x16xf32>, %wu: tensor<64x32xf32>, %wd: tensor<32x64xf32>):
    %zero = arith.constant 0.0 : f32
    // Up-projection: gather the activation's D over Y, then multiply.
    %x_full = spmd.all_gather %xb over ["Y"] dim 1 tiled : tensor<8x16xf32> -> tensor<8x64xf32>
    %he = tensor.empty() : tensor<8x32xf32>
    %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<8x32xf32>) -> tensor<8x32xf32>
    %h = linalg.matmul ins(%x_full, %wu : tensor<8x64xf32>, tensor<64x32xf32>)
                       outs(%h0 : tensor<8x32xf32>) -> tensor<8x32xf32>

    // gelu (tanh approximation): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    %ge = tensor.empty() : tensor<8x32xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%h : tensor<8x32xf32>) outs(%ge : tensor<8x32xf32>) {
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

    // Down-projection: partial sums over F@Y, reduce-scattered over Y.
    %pe = tensor.empty() : tensor<8x64xf32>
    %p0 = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x64xf32>) -> tensor<8x64xf32>
    %partial = linalg.matmul ins(%g, %wd : tensor<8x32xf32>, tensor<32x64xf32>)
                             outs(%p0 : tensor<8x64xf32>) -> tensor<8x64xf32>
    %result = spmd.psum_scatter %partial over ["Y"] dim 1 tiled
        : tensor<8x64xf32> -> tensor<8x16xf32>
    spmd.yield %result : tensor<8x16xf32>
  }
  return %out : tensor<16x64xf32>
}
