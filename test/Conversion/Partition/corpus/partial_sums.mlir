// Two contractions split over the same axis, combined linearly (a - b, then
// negated) before any nonlinearity: partial sums are carried and reduced
// once; a third contraction split differently is reduced on its own.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%a1: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {$0}]>},
                %b1: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %a2: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {$0}]>},
                %b2: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %c: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$0, $1}]>}) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p1 = linalg.matmul ins(%a1, %b1 : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p2 = linalg.matmul ins(%a2, %b2 : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p3 = linalg.matmul ins(%c, %b1 : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %d = arith.subf %p1, %p2 : tensor<16x8xf32>
  %n = arith.negf %d : tensor<16x8xf32>
  %s = arith.addf %n, %p3 : tensor<16x8xf32>
  %t = math.tanh %s : tensor<16x8xf32>
  return %t : tensor<16x8xf32>
}
