// Splitting an unsplit dimension keeps the other dimensions' splits.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0, $1}, {}]>}) -> tensor<16x8x8xf32> {
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [16, 8, 8] : tensor<16x64xf32> into tensor<16x8x8xf32>
  %e = math.exp %r : tensor<16x8x8xf32>
  return %e : tensor<16x8x8xf32>
}
