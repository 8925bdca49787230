// --reference compares equal infinities as equal: inf - inf is NaN, so
// `expected inf, got inf` was reported as a mismatch (exit 1) on correct
// results. Found by test/Differential/difftest.py.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([np.inf, 1, -np.inf, np.nan], np.float32))"
// RUN: trellis-run %s --input 0=%t/x.npy --reference 2>&1 | FileCheck %s
// CHECK: out0: float32[4]
// CHECK-NEXT: [ inf   2. -inf  nan]
// CHECK: reference: out0 (float32[4], 2 devices vs 1): match

trellis.mesh @m = <["a"=2]>
func.func @main(%x: tensor<4xf32> {trellis.sharding = #trellis.sharding<@m, [{"a"}]>}) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
