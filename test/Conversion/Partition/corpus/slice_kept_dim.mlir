// A slice that keeps the split dimension whole: the split survives and the
// slice is local.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0, $1}, {}]>})
    -> (tensor<16x10xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0, $1}, {}]>}) {
  %a = tensor.extract_slice %x[0, 7] [16, 10] [1, 1] : tensor<16x32xf32> to tensor<16x10xf32>
  %b = math.exp %a : tensor<16x10xf32>
  return %b : tensor<16x10xf32>
}
