// A partially-manual shard_map (JAX's shard_map with axis_names={'a'}): the
// first axis is manual inside, the others stay automatic and the body is
// partitioned over them (the batch over the second axis).
// RUN: %python %S/../run_corpus.py trellis-run %s %t | FileCheck %s
// CHECK-COUNT-7: mesh {{.*}}: ok

trellis.mesh @mesh = $MESH

func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$1}, {$0}]>},
                %w: tensor<32x8xf32> {trellis.sharding = #trellis.sharding<@mesh, [{$0}, {}]>}) -> tensor<16x8xf32> {
  %c = spmd.shard_map @mesh manual_axes = [$0] in_specs = [[{}, {$0}], [{$0}, {}]] out_specs = [[{}, {}]]
      (%x, %w) : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%lx: tensor<16x#(32/0)xf32>, %lw: tensor<#(32/0)x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
    %m = linalg.matmul ins(%lx, %lw : tensor<16x#(32/0)xf32>, tensor<#(32/0)x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
    %t = math.tanh %m : tensor<16x8xf32>
    %s = spmd.psum %t over [$0] : tensor<16x8xf32>
    spmd.yield %s : tensor<16x8xf32>
  }
  %d = arith.mulf %c, %c : tensor<16x8xf32>
  return %d : tensor<16x8xf32>
}
