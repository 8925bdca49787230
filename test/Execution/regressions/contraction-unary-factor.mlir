// A linalg.generic shaped like a matmul whose body applies exp to a factor
// (acc + a * exp(b)): isaContractionOpInterface accepts it, and
// trellis-linalg-to-kernels lowered it to a plain matmul kernel, computing
// a @ b with exit code 0. Such bodies now stay loops. The same program with
// exp on both factors and a reduction dimension split unevenly (10 over 4
// devices): the partitioner zeroed the padded inputs as for a product, but
// exp(0) * exp(0) = 1 added 2 to every result. Checked against numpy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --entry one --random 1 --save-inputs --output-dir %t/one --quiet
// RUN: %python -c "import numpy as np; a = np.load('%t/one/arg0.npy'); b = np.load('%t/one/arg1.npy'); o = np.load('%t/one/out0.npy'); assert np.allclose(o, a @ np.exp(b), rtol=1e-5, atol=1e-5), abs(o - a @ np.exp(b)).max()"
// RUN: trellis-run %s --entry both --random 1 --save-inputs --output-dir %t/both --quiet
// RUN: %python -c "import numpy as np; a = np.load('%t/both/arg0.npy'); b = np.load('%t/both/arg1.npy'); o = np.load('%t/both/out0.npy'); assert np.allclose(o, np.exp(a) @ np.exp(b), rtol=1e-5, atol=1e-5), abs(o - np.exp(a) @ np.exp(b)).max()"

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
trellis.mesh @m = <["x"=4]>

func.func @one(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %ey = math.exp %y : f32
      %m = arith.mulf %x, %ey : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

func.func @both(%a: tensor<8x10xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>},
                %b: tensor<10x4xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x10xf32>, tensor<10x4xf32>) outs(%c : tensor<8x4xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %ex = math.exp %x : f32
      %ey = math.exp %y : f32
      %m = arith.mulf %ex, %ey : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
