// A chain of reshapes and elementwise ops, with a split minor dimension
// that must be gathered before it merges.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> tensor<8x2x8xf32> {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<8x16xf32> into tensor<128xf32>
  %sq = arith.mulf %flat, %flat : tensor<128xf32>
  %back = tensor.expand_shape %sq [[0, 1, 2]] output_shape [8, 2, 8] : tensor<128xf32> into tensor<8x2x8xf32>
  %t = math.tanh %back : tensor<8x2x8xf32>
  return %t : tensor<8x2x8xf32>
}
