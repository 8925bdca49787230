// A global-view (auto-sharded) FFN block for auto-ffn.test.
trellis.mesh @mesh = <["X"=2, "Y"=4]>

func.func @ffn(%x: tensor<16x512xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {"Y"}]>},
               %wu: tensor<512x256xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {"Y"}]>},
               %wd: tensor<256x512xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"Y"}, {}]>})
    -> (tensor<16x512xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"X"}, {"Y"}]>}) {
  %zero = arith.constant 0.0 : f32
  %he = tensor.empty() : tensor<16x256xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<16x256xf32>) -> tensor<16x256xf32>
  %h = linalg.matmul ins(%x, %wu : tensor<16x512xf32>, tensor<512x256xf32>) outs(%h0 : tensor<16x256xf32>) -> tensor<16x256xf32>
  %g = math.tanh %h : tensor<16x256xf32>
  %oe = tensor.empty() : tensor<16x512xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<16x512xf32>) -> tensor<16x512xf32>
  %o = linalg.matmul ins(%g, %wd : tensor<16x256xf32>, tensor<256x512xf32>) outs(%o0 : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %o : tensor<16x512xf32>
}
