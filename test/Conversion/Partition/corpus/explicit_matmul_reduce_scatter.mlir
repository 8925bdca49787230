// Explicit mode, seed 002/003's einsum with out_sharding: both operands
// split on the contracting dimension over the first axis; the result type
// asks for rows split over it, so the partial sums are reduce-scattered
// (psum_scatter), never all-reduced.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $EMESH

func.func @main(%x: tensor<16x32xf32, #trellis.sharding<@mesh, [{}, {$0}]>>,
                %w: tensor<32x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>)
    -> tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>) -> tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>
  %y = linalg.matmul ins(%x, %w : tensor<16x32xf32, #trellis.sharding<@mesh, [{}, {$0}]>>, tensor<32x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>)
                     outs(%f : tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>) -> tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>
  return %y : tensor<16x8xf32, #trellis.sharding<@mesh, [{$0}, {}]>>
}
