// Megatron MLP: the up-projection is split by columns and the down-projection
// by rows over the first axis; the batch over the second. The partial sums
// of the down-projection are reduced once.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {}]>},
                %w1: tensor<32x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$0}]>},
                %w2: tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>})
    -> (tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {}]>}) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %eg = tensor.empty() : tensor<16x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<16x64xf32>) outs(%eg : tensor<16x64xf32>) {
  ^bb0(%v: f32, %u: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
