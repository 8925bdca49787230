// Explicit mode with an auto_axes region (seed 002): inside, the first axis
// is automatic and the body's type keeps only the other axes' split; the
// region's result is split back as its type says.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $EMESH

func.func @main(%x: tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>)
    -> tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>> {
  %s = math.sin %x : tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>
  %z = trellis.auto_axes @mesh [$0] (%s)
      : (tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>)
     -> tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>> {
  ^bb0(%y: tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {$1}]>>):
    %two = arith.constant dense<2.0> : tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {$1}]>>
    %m = arith.mulf %y, %two : tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {$1}]>>
    %t = math.tanh %m : tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {$1}]>>
    trellis.yield %t : tensor<16x16xf32, #trellis.sharding<@mesh, [{}, {$1}]>>
  }
  %one = arith.constant dense<1.0> : tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>
  %out = arith.addf %z, %one : tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>
  return %out : tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>
}
