// Zero padding of a split tensor (a convolution's halo, written globally).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1}]>}) -> tensor<18x20xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<16x16xf32> to tensor<18x20xf32>
  %t = math.tanh %p : tensor<18x20xf32>
  return %t : tensor<18x20xf32>
}
