// Writing a block into a split destination: an update to a window, then
// elementwise work on the whole.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%dst: tensor<16x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>},
                %src: tensor<4x8xf32>) -> tensor<16x16xf32> {
  %r = tensor.insert_slice %src into %dst[6, 3] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x16xf32>
  %s = arith.mulf %r, %r : tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}
