// x^T @ y with x split over rows: the contraction runs over the split
// dimension after the transpose.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %y: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %t = linalg.transpose ins(%x : tensor<32x16xf32>) outs(%e : tensor<16x32xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %r = linalg.matmul ins(%t, %y : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
