// Out-of-range simulation options are reported, and nothing runs.
// RUN: not trellis-run %s --compute-slots=-1 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: not trellis-run %s --link-latency-us=-5 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: not trellis-run %s --link-bandwidth-gbps=-1 2>&1 | FileCheck %s --check-prefix=LINK
// SLOTS: trellis-run: error: --compute-slots must be 0 (no limit) or more, got -1
// LINK: trellis-run: error: --link-latency-us and --link-bandwidth-gbps must not be negative

trellis.mesh @mesh = <["i"=2]>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
