// A partially-manual shard_map whose body all-gathers over its manual axis
// (seed 001's all_gather_invariant: the unmapped out_spec needs an invariant
// result, which the variance check holds it to) while the automatic axes
// split another dimension.
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {$1, $2}]>}) -> tensor<16x32xf32> {
  %c = spmd.shard_map @mesh manual_axes = [$0] in_specs = [[{$0}, {}]] out_specs = [[{}, {}]]
      (%x) : (tensor<16x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%lx: tensor<#(16/0)x32xf32>):
    %e = math.exp %lx : tensor<#(16/0)x32xf32>
    %g = spmd.all_gather_invariant %e over [$0] dim 0 tiled : tensor<#(16/0)x32xf32> -> tensor<16x32xf32>
    spmd.yield %g : tensor<16x32xf32>
  }
  %d = arith.addf %c, %x : tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}
