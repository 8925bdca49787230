// Seed 003's auto-mode matmul in the seed's own dtype: bf16[8,2048] x
// bf16[2048,8192], In sharded ('X', 'Y'), W ('Y', None), the output
// requested ('X', None). The partitioner gives the seed's HLO: a local
// bf16[2,1024] x bf16[1024,8192] dot and one all-reduce over Y. The dot
// accumulates in f32 and rounds once per device, the psum adds the two
// halves in f32 and rounds again (docs/Precision.md); --reference compares
// within two bf16 ulps.
//   trellis-run examples/seeds/auto_mode_bf16.mlir --random 1 --reference

trellis.mesh @mesh = <["X"=4, "Y"=2]>

func.func @matmul_fn(%in: tensor<8x2048xbf16> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {"Y"}]>},
                     %w: tensor<2048x8192xbf16> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>})
    -> (tensor<8x8192xbf16> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {}]>}) {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<8x8192xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<8x8192xbf16>) -> tensor<8x8192xbf16>
  %out = linalg.matmul ins(%in, %w : tensor<8x2048xbf16>, tensor<2048x8192xbf16>)
                       outs(%f : tensor<8x8192xbf16>) -> tensor<8x8192xbf16>
  return %out : tensor<8x8192xbf16>
}
