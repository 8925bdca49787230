// A layer written as a function and called twice: calls are inlined before
// propagation, so the constraint inside the callee shapes both call sites.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func private @layer(%a: tensor<16x16xf32>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.matmul ins(%a, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = trellis.sharding_constraint %r to <@mesh, [{$0}, {$1}]> : tensor<16x16xf32>
  %t = math.tanh %c : tensor<16x16xf32>
  return %t : tensor<16x16xf32>
}

func.func @main(%a: tensor<16x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>},
                %w: tensor<16x16xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$1}]>}) -> tensor<16x16xf32> {
  %h = func.call @layer(%a, %w) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %o = func.call @layer(%h, %w) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %o : tensor<16x16xf32>
}
