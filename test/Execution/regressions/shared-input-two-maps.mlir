// An unannotated argument fed to two shard_maps that split it along
// different dimensions over the same axis: propagation proposed the axis on
// both dimensions, and --reference (which drops the user's shardings and
// propagates) took the wrong block. Found by test/Differential/difftest.py.
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --iota --reference --output-dir %t 2>&1 | FileCheck %s
// RUN: %python -c "import numpy as np; x = np.arange(32, dtype=np.int32).reshape(16, 2); assert np.array_equal(np.load('%t/out0.npy'), x)"
// RUN: trellis-run %s --entry unannotated --iota --reference --output-dir %t/u 2>&1 | FileCheck %s
// RUN: %python -c "import numpy as np; x = np.arange(32, dtype=np.int32).reshape(16, 2); assert np.array_equal(np.load('%t/u/out0.npy'), x)"
// CHECK: reference: out0 (int32[16,2], 4 devices vs 4): match

trellis.mesh @m = <["a"=2, "b"=2, "c"=1]>
func.func @main(%x: tensor<16x2xi32> {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}) -> tensor<16x2xi32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %v = scf.for %iv = %lb to %ub step %st iter_args(%c = %x) -> (tensor<16x2xi32>) {
    %y = arith.muli %c, %x : tensor<16x2xi32>
    scf.yield %y : tensor<16x2xi32>
  }
  %s = spmd.shard_map @m in_specs = [[{}, {"a"}], [{"a"}, {"c"}]] out_specs = [[{"a"}, {"c"}]] check_vma = false (%x, %x) : (tensor<16x2xi32>, tensor<16x2xi32>) -> (tensor<16x2xi32>) {
  ^bb0(%b3: tensor<16x1xi32>, %b5: tensor<8x2xi32>):
    spmd.yield %b5 : tensor<8x2xi32>
  }
  return %s : tensor<16x2xi32>
}

// The dead loop is what made propagation reach the argument twice.
func.func @unannotated(%x: tensor<16x2xi32>) -> tensor<16x2xi32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %v = scf.for %iv = %lb to %ub step %st iter_args(%c = %x) -> (tensor<16x2xi32>) {
    %y = arith.muli %c, %x : tensor<16x2xi32>
    scf.yield %y : tensor<16x2xi32>
  }
  %s = spmd.shard_map @m in_specs = [[{}, {"a"}], [{"a"}, {"c"}]] out_specs = [[{"a"}, {"c"}]] check_vma = false (%x, %x) : (tensor<16x2xi32>, tensor<16x2xi32>) -> (tensor<16x2xi32>) {
  ^bb0(%b3: tensor<16x1xi32>, %b5: tensor<8x2xi32>):
    spmd.yield %b5 : tensor<8x2xi32>
  }
  return %s : tensor<16x2xi32>
}
