// A transpose carries the split to the other dimension.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>})
    -> (tensor<32x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {$0}]>}) {
  %e = tensor.empty() : tensor<32x16xf32>
  %t = linalg.transpose ins(%x : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) permutation = [1, 0]
  return %t : tensor<32x16xf32>
}
