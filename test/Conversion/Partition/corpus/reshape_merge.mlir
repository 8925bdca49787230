// Merging a split major dimension with an unsplit minor one keeps the split.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x8x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}, {}]>}) -> tensor<128x8xf32> {
  %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<16x8x8xf32> into tensor<128x8xf32>
  %n = arith.negf %r : tensor<128x8xf32>
  return %n : tensor<128x8xf32>
}
