// A partially manual shard_map whose body pscatters an input its in_spec
// leaves whole over the manual axis (the transpose of all_gather_invariant,
// as trellis-grad builds it), fed a value split over that axis: the
// partitioner gathers it, and the gather used to be typed varying, so the
// device-variance check of the partitioned program rejected the pscatter.
// The gather feeding the shard_map is now an all_gather_invariant. Found by
// the gradient of the corpus program shard_map_partial_gather.
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-run %s --iota --reference --output-dir %t --dump-partitioned 2>%t/part.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=PART < %t/part.mlir
// RUN: %python -c "import numpy as np; x = np.arange(512, dtype=np.float32).reshape(16, 32); e = np.exp(x / 512); assert np.allclose(np.load('%t/out0.npy'), e * e, rtol=1e-6)"
// CHECK: reference: out0 (float32[16,32], 8 devices vs 8): match
// PART: spmd.all_gather_invariant %{{.*}} over ["a"] dim 0
// PART: spmd.pscatter %{{.*}} over ["a"] dim 0

trellis.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<16x32xf32> {
  %s = arith.constant dense<512.0> : tensor<16x32xf32>
  %d = arith.divf %x, %s : tensor<16x32xf32>
  %y = math.exp %d : tensor<16x32xf32>
  %r = spmd.shard_map @mesh manual_axes = ["a"] in_specs = [[{}, {}]] out_specs = [[{"a"}, {}]] (%y) : (tensor<16x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%b: tensor<16x32xf32>):
    %p = spmd.pscatter %b over ["a"] dim 0 tiled : tensor<16x32xf32> -> tensor<8x32xf32>
    %m = arith.mulf %p, %p : tensor<8x32xf32>
    spmd.yield %m : tensor<8x32xf32>
  }
  return %r : tensor<16x32xf32>
}
