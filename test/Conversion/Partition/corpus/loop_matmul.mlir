// An scf.for loop carrying a split activation through repeated layers with
// the same weight (a recurrent layer).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %w: tensor<32x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$1}]>}) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<16x32xf32>) {
    %e = tensor.empty() : tensor<16x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    %m = linalg.matmul ins(%h, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
    %t = math.tanh %m : tensor<16x32xf32>
    scf.yield %t : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}
