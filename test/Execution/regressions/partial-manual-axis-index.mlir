// A linalg body inside a partially-manual shard_map may ask for its
// position (spmd.axis_index over a manual axis): the partitioner clones such
// bodies whole and lets position queries through while rejecting other
// trellis/spmd ops there.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// x = [0..7] split over "a" (blocks of 4); each block adds its "a" index.
// CHECK: out0: float32[8]
// CHECK-NEXT: [0. 1. 2. 3. 5. 6. 7. 8.]
// CHECK: reference: out0 (float32[8], 4 devices vs 4): match

trellis.mesh @m = <["a"=2, "b"=2]>
func.func @main(%x: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<8xf32> {
  %y = spmd.shard_map @m manual_axes = ["a"] in_specs = [[{"a"}]] out_specs = [[{"a"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["parallel"]}
        ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%v: f32, %u: f32):
      %i = spmd.axis_index over ["a"] : i32
      %f = arith.sitofp %i : i32 to f32
      %s = arith.addf %v, %f : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    spmd.yield %r : tensor<4xf32>
  }
  return %y : tensor<8xf32>
}
