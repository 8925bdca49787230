// When the unpartitioned program's partitioning folds everything away (its
// shard_map's results are unused and the returned argument already has the
// result's layout), the entry is a plain function whose signature still
// carries shardings: --reference failed in the lowering ("'trellis.sharding'
// on argument #0 needs a ranked tensor, got 'memref<...>'"). Found by
// test/Differential/difftest.py.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// CHECK: out0: float32[8,2]
// CHECK: reference: out0 (float32[8,2], 4 devices vs 1): match

trellis.mesh @m = <["a"=2, "b"=1, "c"=1, "d"=2]>
func.func @main(%arg0: tensor<2x2xf32> {trellis.sharding = #trellis.sharding<@m, [{"b"}, {"d"}]>}, %arg1: tensor<8x2xf32> {trellis.sharding = #trellis.sharding<@m, [{"b", "c"}, {}]>}) -> tensor<8x2xf32> {
  %s:2 = spmd.shard_map @m in_specs = [[{"c"}, {"a"}], [{}, {"b"}]] out_specs = [[{"a", "d"}, {}], [{"d"}, {"a"}]] check_vma = false (%arg1, %arg0) : (tensor<8x2xf32>, tensor<2x2xf32>) -> (tensor<32x1xf32>, tensor<16x2xf32>) {
  ^bb0(%b1: tensor<8x1xf32>, %b2: tensor<2x2xf32>):
    spmd.yield %b1, %b1 : tensor<8x1xf32>, tensor<8x1xf32>
  }
  %v = trellis.sharding_constraint %arg1 to <@m, [{"a"}, {"c"}]> : tensor<8x2xf32>
  return %v : tensor<8x2xf32>
}
