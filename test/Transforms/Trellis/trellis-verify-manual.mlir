// RUN: trellis-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect --trellis-verify-manual
// RUN: trellis-opt %S/Inputs/verify-manual-ok.mlir --trellis-global-to-manual --trellis-verify-manual | FileCheck %s --check-prefix=OK

// What trellis-global-to-manual leaves passes: function arguments and
// shard_map results keep their layout, a shard_map body is per-device.
// OK-LABEL: func @main
// OK: spmd.shard_map
// OK-NOT: trellis.sharding_constraint
// OK-LABEL: func @explicit
// OK: spmd.shard_map

trellis.mesh @m = <["a"=2], types = [explicit]>
func.func @reshard_left(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'trellis.reshard' op is left after trellis-global-to-manual; only per-device code can be lowered}}
  %y = trellis.reshard %x : tensor<4xf32> -> tensor<4xf32, #trellis.sharding<@m, [{"a"}]>>
  %z = trellis.reshard %y : tensor<4xf32, #trellis.sharding<@m, [{"a"}]>> -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Global code computes replicated values: a sharded result there was not
// partitioned.
trellis.mesh @m = <["a"=2], types = [explicit]>
func.func @global_sharded(%x: tensor<4xf32, #trellis.sharding<@m, [{"a"}]>>) -> tensor<4xf32, #trellis.sharding<@m, [{"a"}]>> {
  // expected-error @below {{'arith.negf' op still has a result of sharded type 'tensor<4xf32, #trellis.sharding<@m, [{"a"}]>>' after trellis-global-to-manual}}
  %y = arith.negf %x : tensor<4xf32, #trellis.sharding<@m, [{"a"}]>>
  return %y : tensor<4xf32, #trellis.sharding<@m, [{"a"}]>>
}

// -----

// Per-device code has per-device types (a partially manual shard_map's
// body may still shard over its automatic axes only before partitioning).
trellis.mesh @m = <["a"=2, "b"=2], types = [explicit, explicit]>
func.func @manual_sharded(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @m manual_axes = ["a"] in_specs = [[{"a"}]] out_specs = [[{"a"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<4xf32>):
    // expected-error @below {{'test.op' op still has a result of sharded type}}
    %y = "test.op"(%b) : (tensor<4xf32>) -> tensor<4xf32, #trellis.sharding<@m, [{"b"}]>>
    %z = "test.op"(%y) : (tensor<4xf32, #trellis.sharding<@m, [{"b"}]>>) -> tensor<4xf32>
    spmd.yield %z : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}
