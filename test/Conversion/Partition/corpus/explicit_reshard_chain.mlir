// Explicit mode: a chain of trellis.reshard ops moving a tensor through
// several layouts (split, swap dimensions, merge axes, replicate).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $EMESH

func.func @main(%x: tensor<16x16xi32, #trellis.sharding<@mesh, [{$0}, {$1}]>>) -> tensor<16x16xi32> {
  %a = trellis.reshard %x : tensor<16x16xi32, #trellis.sharding<@mesh, [{$0}, {$1}]>> -> tensor<16x16xi32, #trellis.sharding<@mesh, [{$1}, {$0}]>>
  %b = trellis.reshard %a : tensor<16x16xi32, #trellis.sharding<@mesh, [{$1}, {$0}]>> -> tensor<16x16xi32, #trellis.sharding<@mesh, [{$0, $1}, {}]>>
  %c = trellis.reshard %b : tensor<16x16xi32, #trellis.sharding<@mesh, [{$0, $1}, {}]>> -> tensor<16x16xi32, #trellis.sharding<@mesh, [{}, {$1, $0}]>>
  %d = arith.addi %c, %c : tensor<16x16xi32, #trellis.sharding<@mesh, [{}, {$1, $0}]>>
  %r = trellis.reshard %d : tensor<16x16xi32, #trellis.sharding<@mesh, [{}, {$1, $0}]>> -> tensor<16x16xi32>
  return %r : tensor<16x16xi32>
}
