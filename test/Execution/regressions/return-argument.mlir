// An entry that returns an argument as is, next to shard_map results: the
// canonicalizer forwards a shard_map result that only passes its input
// through, and the executor rejected the program ("result #1 of @main does
// not come from its spmd.shard_map"). Found by test/Differential/difftest.py.
// RUN: trellis-run %s --iota --reference 2>&1 | FileCheck %s
// RUN: trellis-run %s --entry manual --iota --reference 2>&1 | FileCheck %s
// RUN: trellis-run %s --entry twice --iota --reference 2>&1 | FileCheck %s --check-prefix=TWICE
// CHECK: out0: float32[4]
// CHECK-NEXT: [-0. -1. -2. -3.]
// CHECK: out1: float32[4]
// CHECK-NEXT: [0. 1. 2. 3.]
// CHECK: reference: out0 (float32[4], 2 devices vs 2): match
// CHECK: reference: out1 (float32[4], 2 devices vs 2): match
// TWICE: out0: float32[4]
// TWICE-NEXT: [0. 1. 2. 3.]
// TWICE: out1: float32[4]
// TWICE-NEXT: [0. 1. 2. 3.]
// TWICE: reference: out1 (float32[4], 2 devices vs 1): match

trellis.mesh @m = <["a"=2]>
func.func @main(%x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[{"a"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    %n = arith.negf %b : tensor<2xf32>
    spmd.yield %n : tensor<2xf32>
  }
  return %s, %y : tensor<4xf32>, tensor<4xf32>
}

func.func @manual(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[{"a"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    %n = arith.negf %b : tensor<2xf32>
    spmd.yield %n : tensor<2xf32>
  }
  return %s, %y : tensor<4xf32>, tensor<4xf32>
}

func.func @twice(%x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
