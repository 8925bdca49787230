// RUN: trellis-opt -allow-unregistered-dialect -split-input-file -verify-diagnostics %s

// expected-error @below {{needs at least one axis}}
trellis.mesh @m = <[]>

// -----

// expected-error @below {{axis "i" is declared twice}}
trellis.mesh @m = <["i"=2, "i"=2]>

// -----

// expected-error @below {{axis names must be non-empty}}
trellis.mesh @m = <[""=2]>

// -----

// expected-error @below {{axis "i" must have a positive size, got 0}}
trellis.mesh @m = <["i"=0]>

// -----

// expected-error @below {{has 2 axis names, 2 sizes and 1 types; they must match}}
trellis.mesh @m = <["i"=2, "j"=2], types = [explicit]>

// -----

// A malformed second mesh reports itself; the first mesh's check of the
// encodings that name it must not read its axis types (found by fuzzing).
trellis.mesh @a = <["x"=2]>
// expected-error @below {{has 2 axis names, 2 sizes and 1 types; they must match}}
"trellis.mesh"() <{sym_name = "b", axis_names = ["y", "z"], axis_sizes = array<i64: 2, 2>, axis_types = [#trellis<axis_type explicit>]}> : () -> ()
func.func private @f(tensor<4xf32, #trellis.sharding<@b, [{"z"}]>>)

// -----

trellis.mesh @a = <["x"=2]>
// expected-error @below {{attribute 'axis_types' failed to satisfy constraint}}
"trellis.mesh"() <{sym_name = "b", axis_names = ["y", "z"], axis_sizes = array<i64: 2, 2>, axis_types = [#trellis<axis_type explicit>, 1 : i32]}> : () -> ()
func.func private @f(tensor<4xf32, #trellis.sharding<@b, [{"z"}]>>)

// -----

// expected-error @below {{unknown axis type 'sideways' (expected auto, explicit or manual)}}
trellis.mesh @m = <["i"=2], types = [sideways]>

// -----

// expected-error @below {{expected 'types' or 'devices', got 'order'}}
trellis.mesh @m = <["i"=2], order = [1, 0]>

// -----

// expected-error @below {{lists 3 devices but the mesh has 4 positions}}
trellis.mesh @m = <["i"=4], devices = [0, 1, 2]>

// -----

// expected-error @below {{devices must be a permutation of 0..3; got device 1 twice}}
trellis.mesh @m = <["i"=4], devices = [0, 1, 1, 2]>

// -----

// expected-error @below {{devices must be a permutation of 0..1; got device 7 out of range}}
trellis.mesh @m = <["i"=2], devices = [0, 7]>

// -----

// expected-error @below {{mesh axis "X" appears more than once in a dimension sharding}}
func.func private @f(tensor<8xf32, #trellis.sharding<@m, [{"X", "X"}]>>)

// -----

// expected-error @below {{mesh axis "X" appears more than once in a sharding}}
func.func private @f(tensor<8x8xf32, #trellis.sharding<@m, [{"X"}, {"X"}]>>)

// -----

// expected-error @below {{mesh axis "Y" appears more than once in a sharding}}
func.func private @f(tensor<8xf32, #trellis.sharding<@m, [{"Y"}], unreduced = {"Y"}>>)

// -----

// expected-error @below {{mesh axis "i" appears more than once in a partition spec}}
"test.op"() {spec = #trellis.spec<[{"i"}, {"i"}]>} : () -> ()

// -----

// expected-error @below {{mesh axis names must be non-empty}}
"test.op"() {dim = #trellis.dim<{""}>} : () -> ()

// -----

// expected-error @below {{expected 'replicated' or 'unreduced', got 'reduced'}}
func.func private @f(tensor<8xf32, #trellis.sharding<@m, [{}], reduced = {"X"}>>)

// -----

// expected-error @below {{has 1 dimensions but the tensor has rank 2}}
func.func private @f(tensor<8x8xf32, #trellis.sharding<@m, [{"X"}]>>)

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
// expected-error @below {{type 'tensor<4xf32, #trellis.sharding<@nomesh, [{"X"}]>>' names unknown mesh @nomesh}}
func.func private @f(tensor<4xf32, #trellis.sharding<@nomesh, [{"X"}]>>)

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
// expected-error @below {{unknown mesh axis "Z" (mesh @m has axes ["X", "Y"])}}
func.func private @f(tensor<4xf32, #trellis.sharding<@m, [{"Z"}]>>)

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<6xf32>) {
  // expected-error @below {{invalid sharding in type 'tensor<6xf32, #trellis.sharding<@m, [{"Y"}]>>': dimension 0 of size 6 is not divisible by the size 4 of mesh axes {"Y"}}}
  %0 = "test.op"(%x) : (tensor<6xf32>) -> tensor<6xf32, #trellis.sharding<@m, [{"Y"}]>>
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
// expected-error @below {{'trellis.sharding' on argument #0 must be a #trellis.sharding attribute}}
func.func private @f(tensor<8xf32> {trellis.sharding = 3 : i32})

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
// expected-error @below {{'trellis.sharding' on argument #0 needs a ranked tensor, got 'f32'}}
func.func private @f(f32 {trellis.sharding = #trellis.sharding<@m, []>})

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
// expected-error @below {{sharding of argument #0 has 2 dimensions but the tensor has rank 1}}
func.func private @f(tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"X"}, {}]>})

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
// expected-error @below {{sharding of result #0 names unknown mesh @other}}
func.func private @f() -> (tensor<8xf32> {trellis.sharding = #trellis.sharding<@other, [{"X"}]>})

// -----

// expected-error @below {{unknown trellis argument attribute "trellis.shardng"}}
func.func private @f(tensor<2xf32> {trellis.shardng = 1})

// -----

// expected-error @below {{unknown trellis result attribute "trellis.shardng"}}
func.func private @f() -> (tensor<2xf32> {trellis.shardng = 1})

// -----

// expected-error @below {{unknown trellis attribute "trellis.other"}}
"test.op"() {trellis.other = 1} : () -> ()

// -----

trellis.mesh @m = <["X"=2]>
// expected-error @below {{'trellis.sharding' has 1 shardings for 2 results}}
%0:2 = "test.op"() {trellis.sharding = [#trellis.sharding<@m, [{}]>]} : () -> (tensor<2xf32>, tensor<2xf32>)

// -----

trellis.mesh @m = <["X"=2]>
// expected-error @below {{'trellis.sharding' on an op with 2 results must be an array of shardings}}
%0:2 = "test.op"() {trellis.sharding = #trellis.sharding<@m, [{}]>} : () -> (tensor<2xf32>, tensor<2xf32>)

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<8xf32, #trellis.sharding<@m, [{"X"}]>>) {
  // expected-error @below {{changes only the sharding; operand 'tensor<8xf32, #trellis.sharding<@m, [{"X"}]>>' and result 'tensor<8xi32>' differ in shape or element type}}
  %0 = trellis.reshard %x : tensor<8xf32, #trellis.sharding<@m, [{"X"}]>> -> tensor<8xi32>
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{sharding has 2 dimensions but the tensor has rank 1}}
  %0 = trellis.sharding_constraint %x to <@m, [{"X"}, {}]> : tensor<8xf32>
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error @below {{names unknown mesh @q}}
  %0 = trellis.sharding_constraint %x to <@q, [{"X"}]> : tensor<8xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{names unknown mesh @m}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    trellis.yield %y : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{names unknown mesh axis "Z" of mesh @m}}
  %0 = trellis.auto_axes @m ["Z"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    trellis.yield %y : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{lists mesh axis "X" twice}}
  %0 = trellis.auto_axes @m ["X", "X"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    trellis.yield %y : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{switches mesh axis "X" from explicit to auto, but it is auto here}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    trellis.yield %y : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{switches mesh axis "Y" from auto to explicit, but it is explicit here}}
  %0 = trellis.explicit_axes @m ["Y"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    trellis.yield %y : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{has 1 operands but its body takes 0 arguments}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c = "test.op"() : () -> tensor<4xf32>
    trellis.yield %c : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4x4xf32, #trellis.sharding<@m, [{"X"}, {"Y"}]>>) {
  // expected-error @below {{body argument #0 has type 'tensor<4x4xf32>', expected 'tensor<4x4xf32, #trellis.sharding<@m, [{}, {"Y"}]>>' (operand #0's type without the listed axes)}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4x4xf32, #trellis.sharding<@m, [{"X"}, {"Y"}]>>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4x4xf32>):
    %c = "test.op"() : () -> tensor<4xf32>
    trellis.yield %c : tensor<4xf32>
  }
  return
}

// -----

// Inside auto_axes, X is auto: a type there may not shard over it.
trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32, #trellis.sharding<@m, [{"X"}]>>) {
  // expected-error @below {{invalid sharding in type 'tensor<4xf32, #trellis.sharding<@m, [{"X"}]>>': mesh axis "X" is auto here, and types may only mention explicit axes}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4xf32, #trellis.sharding<@m, [{"X"}]>>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32, #trellis.sharding<@m, [{"X"}]>>):
    %c = "test.op"() : () -> tensor<4xf32>
    trellis.yield %c : tensor<4xf32>
  }
  return
}

// -----

// An auto mesh: no type may mention its axes.
trellis.mesh @m = <["X"=2, "Y"=4]>
// expected-error @below {{invalid sharding in type 'tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>': mesh axis "Y" is auto here, and types may only mention explicit axes}}
func.func private @f(tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>)

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{has 1 results but its body yields 0 values}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32>):
    trellis.yield
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [explicit, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{yielded value #0 has type 'tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>', expected 'tensor<4xf32>' (result #0's type without the listed axes)}}
  %0 = trellis.auto_axes @m ["X"] (%x) : (tensor<4xf32>) -> tensor<4xf32, #trellis.sharding<@m, [{"X"}]>> {
  ^bb0(%y: tensor<4xf32>):
    %c = "test.op"() : () -> tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>
    trellis.yield %c : tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>
  }
  return
}

// -----

trellis.mesh @m = <["X"=2, "Y"=4], types = [auto, explicit]>
func.func @f(%x: tensor<4xf32>) {
  // expected-error @below {{body argument #0 has type 'tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>', which without the listed axes is 'tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>', but operand #0 has type 'tensor<4xf32>'}}
  %0 = trellis.explicit_axes @m ["X"] (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%y: tensor<4xf32, #trellis.sharding<@m, [{"Y"}]>>):
    %c = "test.op"() : () -> tensor<4xf32>
    trellis.yield %c : tensor<4xf32>
  }
  return
}

// -----

trellis.mesh @m = <["x"=2]>
func.func @arg_shardings_count(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{'trellis.arg_shardings' must be an array of one sharding per region argument (1)}}
  %r = spmd.shard_map @m in_specs = [[{"x"}]] out_specs = [[{"x"}]] (%a) : (tensor<8xf32>) -> tensor<8xf32> attributes {trellis.arg_shardings = []} {
  ^bb0(%b: tensor<4xf32>):
    spmd.yield %b : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
func.func @arg_shardings_rank(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{sharding of region argument #0 has 2 dimensions but the tensor has rank 1}}
  %r = spmd.shard_map @m in_specs = [[{"x"}]] out_specs = [[{"x"}]] (%a) : (tensor<8xf32>) -> tensor<8xf32> attributes {trellis.arg_shardings = [#trellis.sharding<@m, [{}, {}]>]} {
  ^bb0(%b: tensor<4xf32>):
    spmd.yield %b : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
func.func @arg_shardings_no_region(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{'trellis.arg_shardings' needs an op with one region}}
  %r = math.exp %a {trellis.arg_shardings = []} : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// expected-error @below {{'trellis.name' must be a string}}
func.func @f(%a: tensor<4xf32> {trellis.name = 3}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A second mesh with a zero-size axis, used by a sharding: the first mesh
// checks every encoding, and must not divide by @b's sizes before @b's own
// verifier rejects them (was SIGFPE).
trellis.mesh @a = <["x"=2]>
// expected-error @below {{axis "X" must have a positive size, got 0}}
trellis.mesh @b = <["X"=0]>
func.func @zero_size_second_mesh(%t: tensor<4xf32, #trellis.sharding<@b, [{"X"}]>>) {
  return
}

// -----

// Axis sizes whose product overflows int64 (was signed overflow in
// getAxesSize).
// expected-error @below {{has more than 2147483648 devices}}
trellis.mesh @m = <["X"=4294967296, "Y"=4294967296]>
func.func @overflowing_mesh(%t: tensor<4xf32, #trellis.sharding<@m, [{"X"}]>>) {
  return
}

// -----

// A product that wraps to 2 in 64 bits (3 * 6148914691236517206 = 2^64 + 2)
// ran as "2 devices".
// expected-error @below {{has more than 2147483648 devices}}
trellis.mesh @m = <["i"=3, "j"=6148914691236517206]>

// -----

// expected-error @below {{has more than 2147483648 devices}}
trellis.mesh @m = <["i"=65536, "j"=65536]>

// -----

// expected-error @below {{'trellis.rt_abi_version' must be an i32 on a module}}
func.func private @f() attributes {trellis.rt_abi_version = 1 : i32}

// -----

// expected-error @below {{'trellis.rt_abi_version' must be an i32 on a module}}
module attributes {trellis.rt_abi_version = "1"} {
}

// -----

// Declared sharding rules (trellis.rule) are checked against the op.
func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %s: f32) {
  // expected-error @below {{sharding rule "ij,jk": expected `operands -> results`}}
  %0 = "test.op"(%a, %b) {trellis.rule = "ij,jk"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{sharding rule "ij->ik": 1 operands for 2 tensor operands}}
  %0 = "test.op"(%a, %b) {trellis.rule = "ij->ik"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{sharding rule "ijk,jk->ik": 'ijk' names 3 dimensions of a tensor of rank 2}}
  %0 = "test.op"(%a, %b) {trellis.rule = "ijk,jk->ik"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{sharding rule "ij,ik->ik": factor 'i' has size 2 and 8}}
  %0 = "test.op"(%a, %b) {trellis.rule = "ij,ik->ik"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{sharding rule "iJ,Jk->ik": 'J' is not a factor (a-z) or '_'}}
  %0 = "test.op"(%a, %b) {trellis.rule = "iJ,Jk->ik"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{sharding rule "ij,jk->ik; whole q": 'whole' names 'q', which is no factor of the rule}}
  %0 = "test.op"(%a, %b) {trellis.rule = "ij,jk->ik; whole q"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{sharding rule "ij,jk->ik; reduce mean": unknown clause 'reduce mean' (expected `reduce sum|max|min` or `whole <factors>`)}}
  %0 = "test.op"(%a, %b) {trellis.rule = "ij,jk->ik; reduce mean"} : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rules(%a: tensor<2x8xf32>) {
  // expected-error @below {{'trellis.rule' must be a string}}
  %0 = "test.op"(%a) {trellis.rule = 1} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @barrier(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @below {{allowed_direction must be "forward", "backward" or "none", got "both"}}
  %0 = trellis.propagation_barrier %a allowed_direction = "both" : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

trellis.mesh @m = <["x"=2]>
// expected-error @below {{expected a priority like 'p0' after a dimension sharding, got 'q0'}}
func.func private @f(%a: tensor<2xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}q0]>})

// -----

trellis.mesh @m = <["x"=2]>
// expected-error @below {{in a type has a priority; priorities order auto propagation and belong on trellis.sharding attributes and constraints}}
func.func private @f(%a: tensor<2xf32, #trellis.sharding<@m, [{"x"}p0]>>)

// -----

// expected-error @below {{'trellis.sharding_origin' must be a string or an array of strings}}
"test.op"() {trellis.sharding_origin = 1} : () -> ()
