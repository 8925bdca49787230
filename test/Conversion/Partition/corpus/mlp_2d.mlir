// 2-D sharded MLP: batch over the first axis, hidden units over the second
// (weights split by columns then rows), output sharded like the input.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %w1: tensor<32x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$1, $2}]>},
                %w2: tensor<64x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1, $2}, {}]>})
    -> (tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>}) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f1 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %g = math.exp %h : tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%g, %w2 : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f2 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
