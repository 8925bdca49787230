// Batched matmul with the batch split over one axis and the contraction
// over another (partial sums reduced at the end).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%a: tensor<8x16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}, {$1}]>},
                %b: tensor<8x32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}, {$2}]>}) -> tensor<8x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x16x32xf32>, tensor<8x32x8xf32>) outs(%f : tensor<8x16x8xf32>) -> tensor<8x16x8xf32>
  return %r : tensor<8x16x8xf32>
}
