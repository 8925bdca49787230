// RUN: trellis-opt %s --spmd-outline-device-func=erase-host | FileCheck %s
// erase-host keeps the host functions device code still calls (found by
// trellis-fuzz: erasing @callee left a call to nothing, and the pass
// succeeded on IR that failed verification), and those they call.

// CHECK-NOT: func.func @f(
// CHECK-DAG: func.func private @callee(
// CHECK-DAG: func.func private @helper(
// CHECK-DAG: func.func @f_device{{.*}}spmd.mesh = @mesh
// CHECK-NOT: @unused
func.func private @helper(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
func.func private @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  %r = func.call @helper(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func private @unused(tensor<8xf32>) -> tensor<8xf32>
trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %r = func.call @callee(%b) : (tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %r : tensor<2xf32>
  }
  %z = func.call @unused(%y) : (tensor<8xf32>) -> tensor<8xf32>
  return %z : tensor<8xf32>
}
