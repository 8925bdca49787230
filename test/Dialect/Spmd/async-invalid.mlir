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
