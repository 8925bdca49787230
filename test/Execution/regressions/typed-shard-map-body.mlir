// A global function whose shard_map body carries device-variance types (as
// spmd-check-variance, spmd-transpose and trellis-grad leave it): the
// partitioner inlined the body onto plain local blocks, so an elementwise op
// mixing a block argument and a typed value failed to verify. Found by the
// first trellis-grad tests.
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --iota --reference --output-dir %t 2>&1 | FileCheck %s
// RUN: %python -c "import numpy as np; x = np.arange(8, dtype=np.float32); assert np.array_equal(np.load('%t/out0.npy'), x - np.tile([12, 16], 4))"
// CHECK: reference: out0 (float32[8], 4 devices vs 4): match

trellis.mesh @m = <["i"=4]>
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32, #spmd.vary<["i"]>>):
    %s = spmd.psum %b over ["i"] : tensor<2xf32, #spmd.vary<["i"]>> -> tensor<2xf32, #spmd.vary<[]>>
    %v = spmd.pvary %s over ["i"] : tensor<2xf32, #spmd.vary<[]>> -> tensor<2xf32, #spmd.vary<["i"]>>
    %e = tensor.empty() : tensor<2xf32, #spmd.vary<["i"]>>
    %t = linalg.copy ins(%v : tensor<2xf32, #spmd.vary<["i"]>>) outs(%e : tensor<2xf32, #spmd.vary<["i"]>>) -> tensor<2xf32, #spmd.vary<["i"]>>
    %d = arith.subf %b, %t : tensor<2xf32, #spmd.vary<["i"]>>
    spmd.yield %d : tensor<2xf32, #spmd.vary<["i"]>>
  }
  return %r : tensor<8xf32>
}
