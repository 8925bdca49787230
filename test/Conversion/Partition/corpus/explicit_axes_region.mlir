// Auto mode with an explicit_axes region (seed 002): inside, values carry
// their sharding in types; outside the compiler chooses.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = math.sin %x : tensor<16x16xf32>
  %z = trellis.explicit_axes @mesh [$0, $1] (%s) : (tensor<16x16xf32>) -> tensor<16x16xf32> {
  ^bb0(%y: tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>):
    %m = arith.mulf %y, %y : tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>
    trellis.yield %m : tensor<16x16xf32, #trellis.sharding<@mesh, [{$0}, {$1}]>>
  }
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %out = arith.addf %z, %one : tensor<16x16xf32>
  return %out : tensor<16x16xf32>
}
