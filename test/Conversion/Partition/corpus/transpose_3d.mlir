// A 3-D permutation with two split dimensions.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<8x16x4xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}, {}]>}) -> tensor<4x8x16xf32> {
  %e = tensor.empty() : tensor<4x8x16xf32>
  %t = linalg.transpose ins(%x : tensor<8x16x4xf32>) outs(%e : tensor<4x8x16xf32>) permutation = [2, 0, 1]
  return %t : tensor<4x8x16xf32>
}
