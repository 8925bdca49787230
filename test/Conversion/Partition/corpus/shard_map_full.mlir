// A global program with an embedded fully-manual shard_map (seed 000's
// matmul with psum): inputs are resharded to its in_specs, its body runs as
// written, and the auto code around it is partitioned.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%a: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{}, {$0}]>},
                %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %a2 = math.tanh %a : tensor<16x32xf32>
  %c = spmd.shard_map @mesh in_specs = [[{$1}, {$0}], [{$0}, {}]] out_specs = [[{$1}, {}]]
      (%a2, %b) : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%la: tensor<#(16/1)x#(32/0)xf32>, %lb: tensor<#(32/0)x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<#(16/1)x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<#(16/1)x8xf32>) -> tensor<#(16/1)x8xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<#(16/1)x#(32/0)xf32>, tensor<#(32/0)x8xf32>) outs(%f : tensor<#(16/1)x8xf32>) -> tensor<#(16/1)x8xf32>
    %s = spmd.psum %m over [$0] : tensor<#(16/1)x8xf32>
    spmd.yield %s : tensor<#(16/1)x8xf32>
  }
  %d = arith.mulf %c, %c : tensor<16x8xf32>
  return %d : tensor<16x8xf32>
}
