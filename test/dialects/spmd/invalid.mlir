// RUN: trellis-opt -split-input-file -verify-diagnostics %s

func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{names unknown mesh @nomesh}}
  spmd.shard_map @nomesh in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield
  }
  return
}

// -----

// The shard_map checks its mesh after its body is verified: a collective in
// the body says that its shard_map's mesh is unknown.
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @nomesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<4xf32>):
    // expected-error @below {{is inside a spmd.shard_map that names unknown mesh @nomesh}}
    %s = spmd.psum %b over ["i"] : tensor<4xf32>
    spmd.yield %s : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{manual_axes names unknown mesh axis "k" (mesh @mesh has axes ["i", "j"])}}
  spmd.shard_map @mesh manual_axes = ["k"] in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{manual_axes lists "i" twice}}
  spmd.shard_map @mesh manual_axes = ["i", "i"] in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    // expected-error @below {{mesh axis "i" is already manual here}}
    spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[]] out_specs = [] (%b) : (tensor<8xf32>) -> () {
    ^bb0(%c: tensor<8xf32>):
      spmd.yield
    }
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{has 1 inputs but 0 in_specs}}
  spmd.shard_map @mesh in_specs = [] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{has 0 results but 1 out_specs}}
  spmd.shard_map @mesh in_specs = [[]] out_specs = [[]] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{has 1 inputs but its body takes 0 arguments}}
  spmd.shard_map @mesh in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{in_specs[0] has 2 entries but the tensor has rank 1}}
  spmd.shard_map @mesh in_specs = [[{"i"}, {}]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{in_specs[0] names unknown mesh axis "k" (mesh @mesh has axes ["i", "j"])}}
  spmd.shard_map @mesh in_specs = [[{"k"}]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{in_specs[0] names mesh axis "j", which this shard_map does not make manual (manual axes: {"i"})}}
  spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[{"j"}]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<4xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{body argument #0 has element type 'i32' but operand #0 has 'f32'}}
  spmd.shard_map @mesh in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xi32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{body argument #0 has rank 2 but operand #0 has rank 1 (shard_map preserves ranks)}}
  spmd.shard_map @mesh in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8x1xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8x6xf32>) {
  // expected-error @below {{dimension 1 of operand #0 has size 6, which is not divisible by 4, the size of mesh axes {"i"} in in_specs[0]}}
  spmd.shard_map @mesh in_specs = [[{}, {"i"}]] out_specs = [] (%x) : (tensor<8x6xf32>) -> () {
  ^bb0(%b: tensor<8x1xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8x16xf32>) {
  // expected-error @below {{body argument #0 has shape [8, 16], expected [2, 8] (operand shape [8, 16] split by in_specs[0])}}
  spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [] (%x) : (tensor<8x16xf32>) -> () {
  ^bb0(%b: tensor<8x16xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{body argument #0 is split over mesh axis "i" by in_specs[0], so its type must vary over it}}
  spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<2xf32, #spmd.vary<[]>>):
    spmd.yield
  }
  return
}

// -----

// A fully typed body is checked against its out_specs by the verifier too.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @below {{output #0 may vary over mesh axis "i", but out_specs[0] does not mention it (an unmapped output promises equal blocks); psum it over "i" before yielding (spmd.psum ... over ["i"]), or mention "i" in out_specs[0]}}
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32, #spmd.vary<["i"]>>):
    // expected-note @below {{output #0 is computed here}}
    %n = arith.negf %b : tensor<2xf32, #spmd.vary<["i"]>>
    spmd.yield %n : tensor<2xf32, #spmd.vary<["i"]>>
  }
  return %r : tensor<2xf32>
}

// -----

// ... unless check_vma = false.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<2xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[]] check_vma = false (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32, #spmd.vary<["i"]>>):
    spmd.yield %b : tensor<2xf32, #spmd.vary<["i"]>>
  }
  return %r : tensor<2xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{has 1 results but its body yields 0 values}}
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{yielded value #0 must be a ranked tensor, got 'f32'}}
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<8xf32>):
    %c = arith.constant 1.0 : f32
    spmd.yield %c : f32
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{yielded value #0 has element type 'f32' but result #0 has 'f64'}}
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<8xf64> {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield %b : tensor<8xf32>
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{yielded value #0 has rank 1 but result #0 has rank 2 (shard_map preserves ranks)}}
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<8x1xf32> {
  ^bb0(%b: tensor<8xf32>):
    spmd.yield %b : tensor<8xf32>
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<12x12xf32>) {
  // Seed 000's f3 with the wrong result shape: it must be (12, 6).
  // expected-error @below {{result #0 has shape [12, 12], expected [12, 6] (yielded shape [3, 6] concatenated by out_specs[0])}}
  %r = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{"i"}, {}]] (%x) : (tensor<12x12xf32>) -> tensor<12x12xf32> {
  ^bb0(%b: tensor<3x6xf32>):
    %s = spmd.psum %b over ["j"] : tensor<3x6xf32>
    spmd.yield %s : tensor<3x6xf32>
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{out_specs[0] names unknown mesh axis "z" (mesh @mesh has axes ["i", "j"])}}
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[{"z"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    spmd.yield %b : tensor<4xf32>
  }
  return
}

// -----
// Collectives.

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{must be inside the body of a spmd.shard_map (or a device function outlined from one)}}
  %s = spmd.psum %x over ["i"] : tensor<4xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh, spmd.manual_axes = ["i"]} {
  // expected-error @below {{names unknown mesh axis "k" (mesh @mesh has axes ["i", "j"])}}
  %s = spmd.psum %x over ["k"] : tensor<4xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{lists mesh axis "i" twice}}
  %s = spmd.psum %x over ["i", "i"] : tensor<4xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) {
  spmd.shard_map @mesh manual_axes = ["i"] in_specs = [[]] out_specs = [] (%x) : (tensor<8xf32>) -> () {
  ^bb0(%b: tensor<8xf32>):
    // expected-error @below {{names mesh axis "j", which is not manual here (manual axes: {"i"})}}
    %s = spmd.psum %b over ["j"] : tensor<8xf32>
    spmd.yield
  }
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{result type 'tensor<4xf64>' must have the shape and element type of the operand 'tensor<4xf32>'}}
  %s = spmd.psum %x over ["i"] : tensor<4xf32> -> tensor<4xf64>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32, #spmd.vary<["j"]>>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{needs an operand that varies over mesh axis "i", but it is invariant there; insert spmd.pvary over it (spmd-check-variance does so automatically)}}
  %s = spmd.psum %x over ["i"] : tensor<4xf32, #spmd.vary<["j"]>> -> tensor<4xf32, #spmd.vary<["j"]>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32, #spmd.vary<["i", "j"]>>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{result varies over {"i", "j"} but must vary over {"j"}}}
  %s = spmd.psum %x over ["i"] : tensor<4xf32, #spmd.vary<["i", "j"]>> -> tensor<4xf32, #spmd.vary<["i", "j"]>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32, #spmd.vary<["i"]>>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{needs an operand that is invariant over mesh axis "i", but it already varies there}}
  %s = spmd.pvary %x over ["i"] : tensor<4xf32, #spmd.vary<["i"]>> -> tensor<4xf32, #spmd.vary<["i"]>>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{operand element type 'f32' differs from result element type 'i32'}}
  %s = spmd.all_gather %x over ["i"] dim 0 tiled : tensor<4xf32> -> tensor<16xi32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{dim 1 is out of range for operand 'tensor<4xf32>'}}
  %s = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<4xf32> -> tensor<16xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{result shape [8] should be [16] (operand shape [4], group size 4)}}
  %s = spmd.all_gather %x over ["i"] dim 0 tiled : tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{result shape [16] should be [4, 4] (operand shape [4], group size 4)}}
  %s = spmd.all_gather_invariant %x over ["i"] dim 0 : tensor<4xf32> -> tensor<16xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<6xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{dimension 0 of the operand has size 6, which is not divisible by 4, the size of mesh axes {"i"}}}
  %s = spmd.psum_scatter %x over ["i"] dim 0 tiled : tensor<6xf32> -> tensor<1xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{without 'tiled', dimension 0 of the operand must have the group size 4 of mesh axes {"i"}, got 8}}
  %s = spmd.psum_scatter %x over ["i"] dim 0 : tensor<8xf32> -> tensor<f32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{result shape [4] should be [2] (operand shape [8], group size 4)}}
  %s = spmd.pscatter %x over ["i"] dim 0 tiled : tensor<8xf32> -> tensor<4xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{split 2 and concat 0 must be dimensions of the operand 'tensor<8x8xf32>'}}
  %s = spmd.all_to_all %x over ["i"] split 2 concat 0 : tensor<8x8xf32> -> tensor<8x8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<6x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{split dimension 0 has size 6, which is not divisible by 4, the size of mesh axes {"i"}}}
  %s = spmd.all_to_all %x over ["i"] split 0 concat 1 : tensor<6x8xf32> -> tensor<6x8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8x8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{result shape [8, 8] should be [2, 32] (operand shape [8, 8], group size 4)}}
  %s = spmd.all_to_all %x over ["i"] split 0 concat 1 : tensor<8x8xf32> -> tensor<8x8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{pair [0, 4] is out of range for group size 4 of mesh axes {"i"}}}
  %s = spmd.ppermute %x over ["i"] pairs [[0, 4]] : tensor<8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{device 0 is the source of more than one pair}}
  %s = spmd.ppermute %x over ["i"] pairs [[0, 1], [0, 2]] : tensor<8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) attributes {spmd.mesh = @mesh} {
  // expected-error @below {{device 1 is the target of more than one pair}}
  %s = spmd.ppermute %x over ["i"] pairs [[0, 1], [2, 1]] : tensor<8xf32>
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f() {
  // expected-error @below {{must be inside the body of a spmd.shard_map}}
  %i = spmd.axis_index over ["i"] : index
  return
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f() attributes {spmd.mesh = @mesh, spmd.manual_axes = ["i"]} {
  // expected-error @below {{names mesh axis "j", which is not manual here (manual axes: {"i"})}}
  %i = spmd.axis_size over ["j"] : index
  return
}

// -----
// Device-function attributes.

trellis.mesh @mesh = <["i"=4, "j"=2]>
// expected-error @below {{'spmd.mesh' names unknown mesh @other}}
func.func private @f() attributes {spmd.mesh = @other}

// -----

// expected-error @below {{'spmd.mesh' must be a mesh symbol on a function}}
func.func private @f() attributes {spmd.mesh = 3}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
// expected-error @below {{'spmd.manual_axes' must be an array of axis names}}
func.func private @f() attributes {spmd.mesh = @mesh, spmd.manual_axes = [1]}

// -----

// expected-error @below {{'spmd.manual_axes' needs 'spmd.mesh'}}
func.func private @f() attributes {spmd.manual_axes = ["i"]}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
// expected-error @below {{unknown mesh axis "q" (mesh @mesh has axes ["i", "j"])}}
func.func private @f() attributes {spmd.mesh = @mesh, spmd.manual_axes = ["q"]}

// -----

// expected-error @below {{unknown spmd attribute "spmd.other"}}
func.func private @f() attributes {spmd.other = 1}

// -----

// Partially manual: y stays explicit, so the body keeps the sharding over y.
trellis.mesh @mesh = <["x"=2, "y"=2], types = [explicit, explicit]>
func.func @f(%a: tensor<8x4xf32, #trellis.sharding<@mesh, [{"x"}, {"y"}]>>) {
  // expected-error @below {{body argument #0 has type 'tensor<4x4xf32>', but the explicit axes this shard_map leaves alone must keep operand #0's sharding: expected #trellis.sharding<@mesh, [{}, {"y"}]>}}
  spmd.shard_map @mesh manual_axes = ["x"] in_specs = [[{"x"}, {}]] out_specs = []
      (%a) : (tensor<8x4xf32, #trellis.sharding<@mesh, [{"x"}, {"y"}]>>) -> () {
  ^bb0(%b: tensor<4x4xf32>):
    spmd.yield
  }
  return
}

// -----

// expected-error @below {{'spmd.transpose' must be a unit attribute on a function}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose = 1 : i32} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'spmd.nonlinear' must be a unit attribute on a function argument}}
func.func @f(%x: tensor<4xf32> {spmd.nonlinear = "yes"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{unknown spmd argument attribute "spmd.linear" on argument #0}}
func.func @f(%x: tensor<4xf32> {spmd.linear}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'spmd.sites' must be an array of site dictionaries}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.sites = "none"} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'spmd.device_func' must name a function on a spmd.shard_map}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.device_func = @g} {
  return %x : tensor<4xf32>
}

// -----

trellis.mesh @mesh = <["i"=2]>

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{pairs must be [source, target] pairs}}
    %p = "spmd.ppermute"(%b) <{axes = ["i"], pairs = array<i64: 0, 1, 1>}> : (tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %p : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}
