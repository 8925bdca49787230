// RUN: trellis-opt %s --split-input-file --verify-diagnostics --spmd-transpose=naive=true
// Errors of the naive mode (its transposes divide by group sizes).

trellis.mesh @m = <["i"=4]>
func.func @f(%x: tensor<8xi32>) -> tensor<8xi32> attributes {spmd.transpose} {
  %r = spmd.shard_map @m in_specs = [[]] out_specs = [[{"i"}]] (%x) : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%b: tensor<8xi32>):
    // expected-error @below {{'spmd.pscatter' op needs a floating-point element type to be transposed (its transpose divides by the group size)}}
    %s = spmd.pscatter %b over ["i"] dim 0 tiled : tensor<8xi32> -> tensor<2xi32>
    spmd.yield %s : tensor<2xi32>
  }
  return %r : tensor<8xi32>
}

// -----

trellis.mesh @m = <["i"=4]>
func.func @f(%x: tensor<8xi32>) -> tensor<2xi32> attributes {spmd.transpose} {
  // expected-error @below {{'spmd.shard_map' op output #0 needs rescaling to be transposed, which needs a floating-point element type}}
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[]] (%x) : (tensor<8xi32>) -> tensor<2xi32> {
  ^bb0(%b: tensor<2xi32>):
    %s = spmd.psum %b over ["i"] : tensor<2xi32>
    spmd.yield %s : tensor<2xi32>
  }
  return %r : tensor<2xi32>
}
