// Mixed mode: the first axis is explicit (in types), the others auto. The
// batch is split explicitly; the compiler chooses the hidden dimension's
// layout from the weight's auto sharding.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $XMESH

func.func @main(%x: tensor<16x32xf32, #trellis.sharding<@mesh, [{$0}, {}]>>,
                %w: tensor<32x64xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$1, $2}]>})
    -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x32xf32, #trellis.sharding<@mesh, [{$0}, {}]>>, tensor<32x64xf32>)
                     outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %t = math.tanh %y : tensor<16x64xf32>
  return %t : tensor<16x64xf32>
}
