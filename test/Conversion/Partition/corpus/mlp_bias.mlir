// MLP with bias adds: a 1-D bias broadcast over the batch, sharded like
// the hidden units.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {}]>},
                %w: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$0}]>},
                %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %eb = tensor.empty() : tensor<8x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%eb : tensor<8x32xf32>) dimensions = [0]
  %es = tensor.empty() : tensor<8x32xf32>
  %y = linalg.add ins(%h, %bb : tensor<8x32xf32>, tensor<8x32xf32>) outs(%es : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}
