// Collectives on index tensors: the partitioner all_gathers a sharded
// tensor<8xindex> argument, and spmd-to-runtime asked index for its bit
// width (a segfault). Found by test/Differential/difftest.py.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// RUN: trellis-run %s --entry gather_index --iota --reference 2>&1 | FileCheck %s --check-prefix=GATHER
// CHECK: out0: int32[8]
// CHECK-NEXT: [ 0  2  4  6  8 10 12 14]
// CHECK: reference: out0 (int32[8], 2 devices vs 2): match
// GATHER: out0: int64[8]
// GATHER-NEXT: [0 1 2 3 4 5 6 7]
// GATHER: reference: out0 (int64[8], 2 devices vs 1): match

trellis.mesh @m = <["a"=2]>
func.func @main(%x: tensor<8xi32>, %i: tensor<8xindex> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<8xi32> {
  %s = spmd.shard_map @m in_specs = [[{}], [{}]] out_specs = [[{}]] (%x, %i) : (tensor<8xi32>, tensor<8xindex>) -> tensor<8xi32> {
  ^bb0(%b: tensor<8xi32>, %bi: tensor<8xindex>):
    spmd.yield %b : tensor<8xi32>
  }
  %y = arith.addi %s, %s : tensor<8xi32>
  return %y : tensor<8xi32>
}

func.func @gather_index(%i: tensor<8xindex> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> (tensor<8xindex> {trellis.sharding = #trellis.sharding<@m, [{}]>}) {
  return %i : tensor<8xindex>
}
