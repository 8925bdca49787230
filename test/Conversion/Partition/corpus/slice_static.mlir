// Static slices of a split tensor: a window crossing block boundaries, and a
// strided slice.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>})
    -> (tensor<6x20xf32>, tensor<8x8xf32>) {
  %a = tensor.extract_slice %x[3, 5] [6, 20] [1, 1] : tensor<16x32xf32> to tensor<6x20xf32>
  %b = tensor.extract_slice %x[0, 1] [8, 8] [2, 4] : tensor<16x32xf32> to tensor<8x8xf32>
  return %a, %b : tensor<6x20xf32>, tensor<8x8xf32>
}
