// RUN: trellis-opt %s --split-input-file --verify-diagnostics

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{future type '!spmd.future<tensor<4xf32>>' does not hold the operand type 'tensor<8xf32>'}}
  %f = spmd.ppermute_start %x over ["i"] pairs [[0, 1]] : tensor<8xf32> -> !spmd.future<tensor<4xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{pair [0, 4] is out of range for group size 4 of mesh axes {"i"}}}
  %f = spmd.ppermute_start %x over ["i"] pairs [[0, 4]] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{device 1 is the target of more than one pair}}
  %f = spmd.ppermute_start %x over ["j"] pairs [[0, 1], [1, 1]] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{must be inside the body of a spmd.shard_map (or a device function outlined from one)}}
  %f = spmd.ppermute_start %x over ["i"] pairs [[0, 1]] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  return
}

// -----

func.func @f(%f: !spmd.future<tensor<8xf32>>) {
  // expected-error @below {{'spmd.ppermute_wait' op failed to verify that the result is the future's value}}
  %r = "spmd.ppermute_wait"(%f) : (!spmd.future<tensor<8xf32>>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{operand #0 must be}}
  %r = "spmd.ppermute_wait"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// The starts check what their synchronous forms check, against the future.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.all_gather_start' op result shape [4, 8] should be [8, 8] (operand shape [2, 8], group size 4)}}
  %f = spmd.all_gather_start %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<4x8xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x6xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.psum_scatter_start' op dimension 1 of the operand has size 6, which is not divisible by 4, the size of mesh axes {"i"}}}
  %f = spmd.psum_scatter_start %x over ["i"] dim 1 tiled : tensor<2x6xf32> -> !spmd.future<tensor<2x2xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.psum_start' op result type 'tensor<2x8xi32>' must have the shape and element type of the operand 'tensor<2x8xf32>'}}
  %f = spmd.psum_start %x over ["i"] : tensor<2x8xf32> -> !spmd.future<tensor<2x8xi32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.all_to_all_start' op result shape [8, 4] should be [8, 2] (operand shape [2, 8], group size 4)}}
  %f = spmd.all_to_all_start %x over ["i"] split 1 concat 0 : tensor<2x8xf32> -> !spmd.future<tensor<8x4xf32>>
  return
}

// -----

// The future holds the synchronous form's result variance: a psum's result
// no longer varies over its axes.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%v: tensor<2x8xf32, #spmd.vary<["i", "j"]>>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.psum_start' op result varies over {"i", "j"} but must vary over {"j"}}}
  %f = spmd.psum_start %v over ["i"] : tensor<2x8xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<2x8xf32, #spmd.vary<["i", "j"]>>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x8xf32>) {
  // expected-error @below {{must be inside the body of a spmd.shard_map (or a device function outlined from one)}}
  %f = spmd.all_gather_start %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
  return
}

// -----

// Each start has its own wait.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  %f = spmd.ppermute_start %x over ["i"] pairs [[0, 1]] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  // expected-error @below {{'spmd.collective_wait' op waits for a ppermute_start; use spmd.ppermute_wait}}
  %r = spmd.collective_wait %f : !spmd.future<tensor<8xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  %f = spmd.psum_start %x over ["i"] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  // expected-error @below {{'spmd.ppermute_wait' op waits for spmd.psum_start; use spmd.collective_wait}}
  %r = spmd.ppermute_wait %f : !spmd.future<tensor<8xf32>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.psum_start' op future must hold a ranked tensor, not 'f32'}}
  %f = spmd.psum_start %x over ["i"] : tensor<2x8xf32> -> !spmd.future<f32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<2x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{'spmd.all_gather_start' op future must hold a ranked tensor, not 'tensor<*xf32>'}}
  %f = spmd.all_gather_start %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<*xf32>>
  return
}
