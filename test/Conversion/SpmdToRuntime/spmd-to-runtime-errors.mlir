// RUN: trellis-opt %s --spmd-to-runtime --split-input-file --verify-diagnostics

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<8xf32>):
    // expected-error @below {{is not in a device function; run spmd-outline-device-func first}}
    %s = spmd.psum %b over ["i"] : tensor<8xf32>
    spmd.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> attributes {spmd.mesh = @mesh} {
  // expected-error @below {{has a dynamic shape; the executor lowers static shapes only}}
  %s = spmd.psum %x over ["i"] : tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> attributes {spmd.mesh = @mesh} {
  // expected-error @below {{has element type 'complex<f32>', which the runtime does not support}}
  %s = spmd.psum %x over ["i"] : tensor<4xcomplex<f32>>
  return %s : tensor<4xcomplex<f32>>
}

// -----

trellis.mesh @mesh = <["i"=4]>
func.func @f(%f: !spmd.future<tensor<4xf32>>) -> tensor<4xf32> attributes {spmd.mesh = @mesh} {
  // expected-error @below {{waits for a future that no ppermute_start in a device function produced}}
  %r = spmd.ppermute_wait %f : !spmd.future<tensor<4xf32>>
  return %r : tensor<4xf32>
}

// -----

// The runtime packs axis lists four bits an axis: the 16th axis of a mesh
// packed into an empty list and psum returned the unreduced value.
trellis.mesh @m = <["a"=1, "b"=1, "c"=1, "d"=1, "e"=1, "f"=1, "g"=1, "h"=1, "i"=1, "j"=1, "k"=1, "l"=1, "m"=1, "n"=1, "o"=1, "p"=2]>
func.func @sixteenth_axis(%x: tensor<2xf32>) -> tensor<2xf32> attributes {spmd.mesh = @m} {
  // expected-error @below {{'spmd.psum' op names mesh axis "p", axis #15 of @m; the runtime addresses only the 15 first axes of a mesh (move it to the front)}}
  %s = spmd.psum %x over ["p"] : tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

trellis.mesh @m = <["a"=1, "b"=1, "c"=1, "d"=1, "e"=1, "f"=1, "g"=1, "h"=1, "i"=1, "j"=1, "k"=1, "l"=1, "m"=1, "n"=1, "o"=1, "p"=2]>
func.func @sixteenth_axis_index() -> index attributes {spmd.mesh = @m} {
  // expected-error @below {{'spmd.axis_index' op names mesh axis "p", axis #15 of @m}}
  %i = spmd.axis_index over ["p"] : index
  return %i : index
}

// -----

// A module lowered for another runtime ABI (TrellisRuntimeABI.def).
// expected-error @below {{'builtin.module' op holds calls lowered for Trellis runtime ABI 99 (trellis.rt_abi_version), but this build lowers for version 5}}
module attributes {trellis.rt_abi_version = 99 : i32} {
  trellis.mesh @mesh = <["i"=4]>
}

// -----

// The runtime's names belong to it: a program's own function of such a
// name would be called by the lowered collectives.
trellis.mesh @mesh = <["i"=4]>
// expected-error @below {{'func.func' op is named @trellis_rt_axis_index, a function of the Trellis runtime; only a declaration of type '(i64) -> i64' may use the name}}
func.func @trellis_rt_axis_index(%a: i64) -> i64 {
  return %a : i64
}

// -----

// Its exact declaration is fine (a module lowered before).
trellis.mesh @mesh = <["i"=4]>
func.func private @trellis_rt_axis_index(i64) -> i64
func.func @f(%b: tensor<8xf32>) -> index attributes {spmd.mesh = @mesh, spmd.manual_axes = ["i"]} {
  %i = spmd.axis_index over ["i"] : index
  return %i : index
}

// -----

// A collective in a module nested in a device function would call runtime
// functions declared outside that module's symbol table (found by fuzzing:
// the pass succeeded on IR that then failed verification).
trellis.mesh @mesh = <["x"=4]>
func.func @g() attributes {spmd.mesh = @mesh} {
  builtin.module {
    %d = tensor.empty() : tensor<4x8xf32>
    // expected-error @below {{is inside a nested symbol table; spmd-to-runtime lowers ops of the top-level module's functions only}}
    %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8xf32> -> tensor<4x8xf32>
  }
  return
}
