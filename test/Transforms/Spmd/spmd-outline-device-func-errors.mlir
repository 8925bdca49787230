// RUN: trellis-opt %s --split-input-file --verify-diagnostics --spmd-outline-device-func=entry=f

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{is not fully manual, so it has no per-device program to outline (run trellis-partition first)}}
  %p = spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  return %p : tensor<8xf32>
}

// -----

// expected-error @below {{spmd-outline-device-func: no function named @f}}
module {
  func.func @g() {
    return
  }
}
