// sharding_constraint pins layouts between elementwise steps: split rows,
// then columns, then both, then replicated.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %a = trellis.sharding_constraint %x to <@mesh, [{$0}, {}]> : tensor<16x16xf32>
  %b = math.exp %a : tensor<16x16xf32>
  %c = trellis.sharding_constraint %b to <@mesh, [{}, {$0}]> : tensor<16x16xf32>
  %d = arith.mulf %c, %c : tensor<16x16xf32>
  %e = trellis.sharding_constraint %d to <@mesh, [{$1}, {$0, $2}]> : tensor<16x16xf32>
  %f = math.tanh %e : tensor<16x16xf32>
  %g = trellis.sharding_constraint %f to <@mesh, [{}, {}]> : tensor<16x16xf32>
  return %g : tensor<16x16xf32>
}
