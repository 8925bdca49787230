// RUN: trellis-opt %s --split-input-file --trellis-propagate | FileCheck %s
// RUN: trellis-opt %s --split-input-file --trellis-propagate=conservative | FileCheck %s --check-prefix=CONS

trellis.mesh @m = <["x"=2, "y"=4]>

// Forward from %a through tanh into the matmul's rows; backward from the
// constraint into the matmul's columns, its destination and the weight.
// CHECK-LABEL: func.func @forward_backward
// CHECK-SAME: %arg1: tensor<16x32xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"y"}]>}
// CHECK-SAME: -> (tensor<8x32xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>})
// CHECK: math.tanh %arg0 {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
// CHECK: tensor.empty() {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>}
// CHECK: linalg.fill {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>}
// CHECK: linalg.matmul {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>}
func.func @forward_backward(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                            %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %t = math.tanh %a : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.matmul ins(%t, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %c = trellis.sharding_constraint %r to <@m, [{"x"}, {"y"}]> : tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// Two user shardings of tensors of one size disagree: the first operand's
// wins (program order). Conservative mode keeps only what all agree on.
// CHECK-LABEL: func.func @conflict
// CHECK: arith.addf %arg0, %arg1 {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
// CONS-LABEL: func.func @conflict
// CONS: arith.addf %arg0, %arg1 {trellis.sharding = #trellis.sharding<@m, [{}, {}]>}
func.func @conflict(%a: tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>},
                    %b: tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %s = arith.addf %a, %b : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// Pass-through (elementwise) ops propagate first: the broadcast's result
// takes the y split of the big tensor it is added to, not the x split of
// the vector it broadcasts.
// CHECK-LABEL: func.func @pass_through_first
// CHECK: %[[BIG:.*]] = math.exp %arg0 {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<8x64xf32>) dimensions = [1] {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}
func.func @pass_through_first(%big: tensor<8x64xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>},
                       %small: tensor<8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) -> tensor<8x64xf32> {
  %b = math.exp %big : tensor<8x64xf32>
  %s = math.exp %small : tensor<8xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %sb = linalg.broadcast ins(%s : tensor<8xf32>) outs(%e : tensor<8x64xf32>) dimensions = [1]
  %r = arith.addf %b, %sb : tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// A loop's init, carried value, yield and result share one sharding.
// CHECK-LABEL: func.func @loop
// CHECK-SAME: -> (tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>})
// CHECK: math.exp %{{.*}} {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}
// CHECK: } {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}
func.func @loop(%a: tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %a) -> (tensor<8x8xf32>) {
    %n = math.exp %v : tensor<8x8xf32>
    scf.yield %n : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// The user's argument and result shardings stay as given, even when the
// argument is returned as is (the partitioner reshards it).
// CHECK-LABEL: func.func @returned_argument
// CHECK-SAME: %arg0: tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>})
func.func @returned_argument(%a: tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {trellis.sharding = #trellis.sharding<@m, [{}, {"x"}]>}) {
  return %a : tensor<8x8xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4]>

// A partially-manual shard_map: the automatic axis y enters the body from
// the input (after the spec's manual axes) and leaves it through out_specs.
// CHECK-LABEL: func.func @partial
// CHECK-SAME: -> (tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {"x"}]>})
// CHECK: spmd.shard_map
// CHECK-SAME: trellis.arg_shardings = [#trellis.sharding<@m, [{"y"}, {}]>]
// CHECK: math.exp %{{.*}} {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}
// CHECK: spmd.psum %{{.*}} over ["x"] {trellis.sharding = #trellis.sharding<@m, [{"y"}, {}]>}
func.func @partial(%a: tensor<8x16xf32> {trellis.sharding = #trellis.sharding<@m, [{"y"}, {"x"}]>}) -> tensor<8x16xf32> {
  %r = spmd.shard_map @m manual_axes = ["x"] in_specs = [[{}, {"x"}]] out_specs = [[{}, {"x"}]]
      (%a) : (tensor<8x16xf32>) -> tensor<8x16xf32> {
  ^bb0(%b: tensor<8x8xf32>):
    %e = math.exp %b : tensor<8x8xf32>
    %s = spmd.psum %e over ["x"] : tensor<8x8xf32>
    spmd.yield %s : tensor<8x8xf32>
  }
  return %r : tensor<8x16xf32>
}

// -----

trellis.mesh @m = <["x"=2, "y"=4], types = [explicit, auto]>

// Mixed mode: a type's dimensions name explicit axes only and stay open to
// automatic ones.
// CHECK-LABEL: func.func @mixed
// CHECK: math.exp %arg0 {trellis.sharding = #trellis.sharding<@m, [{"x"}, {"y"}]>}
func.func @mixed(%a: tensor<8x8xf32, #trellis.sharding<@m, [{"x"}, {}]>>) -> tensor<8x8xf32, #trellis.sharding<@m, [{"x"}, {}]>> {
  %e = math.exp %a : tensor<8x8xf32, #trellis.sharding<@m, [{"x"}, {}]>>
  %c = trellis.sharding_constraint %e to <@m, [{"x"}, {"y"}]> : tensor<8x8xf32, #trellis.sharding<@m, [{"x"}, {}]>>
  return %c : tensor<8x8xf32, #trellis.sharding<@m, [{"x"}, {}]>>
}

// -----

// A value fed to two shard_maps whose in_specs put "a" on different
// dimensions takes "a" once (the first); found by the differential tester:
// it proposed [{"a"}, {"a"}] and the program partitioned wrongly.
// CHECK-LABEL: func.func @two_maps_one_axis
// CHECK-SAME: trellis.sharding = #trellis.sharding<@m, [{}, {"a"}]>
// CONS-LABEL: func.func @two_maps_one_axis
trellis.mesh @m = <["a"=2, "c"=1]>
func.func @two_maps_one_axis(%x: tensor<16x2xi32>) -> (tensor<16x2xi32>, tensor<16x2xi32>) {
  %p = spmd.shard_map @m in_specs = [[{}, {"a"}]] out_specs = [[{}, {"a"}]] check_vma = false (%x) : (tensor<16x2xi32>) -> tensor<16x2xi32> {
  ^bb0(%b: tensor<16x1xi32>):
    spmd.yield %b : tensor<16x1xi32>
  }
  %q = spmd.shard_map @m in_specs = [[{"a"}, {"c"}]] out_specs = [[{"a"}, {"c"}]] check_vma = false (%x) : (tensor<16x2xi32>) -> tensor<16x2xi32> {
  ^bb0(%b: tensor<8x2xi32>):
    spmd.yield %b : tensor<8x2xi32>
  }
  return %p, %q : tensor<16x2xi32>, tensor<16x2xi32>
}

// -----

trellis.mesh @m = <["x"=4]>

// A convolution's window reads the padded input: the output's loop and
// the pad's source relate through it (the partitioner then exchanges
// halos), both ways; the padded tensor itself is not split.
// CHECK-LABEL: func.func @window_through_pad(
// CHECK-SAME: -> (tensor<16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>})
// CHECK: } {trellis.sharding = #trellis.sharding<@m, [{}]>} : tensor<16xf32> to tensor<18xf32>
// CHECK: linalg.conv_1d {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}
// CHECK-LABEL: func.func @window_backward(
// CHECK-SAME: %{{.*}}: tensor<16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}
func.func @window_through_pad(%x: tensor<16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>},
                              %w: tensor<3xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<16xf32> to tensor<18xf32>
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.conv_1d ins(%p, %w : tensor<18xf32>, tensor<3xf32>) outs(%z : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
func.func @window_backward(%x: tensor<16xf32>, %w: tensor<3xf32>)
    -> (tensor<16xf32> {trellis.sharding = #trellis.sharding<@m, [{"x"}]>}) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<16xf32> to tensor<18xf32>
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.conv_1d ins(%p, %w : tensor<18xf32>, tensor<3xf32>) outs(%z : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
