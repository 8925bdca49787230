// Device 0 divides by its axis index (zero): the crash names the device and
// the run exits with status 1.
// RUN: not trellis-run %s --quiet 2>&1 | FileCheck %s

// CHECK: trellis-run: error: device 0 crashed with SIGFPE (arithmetic error, such as an integer division by zero) in its compiled code

trellis.mesh @mesh = <["i"=4]>

func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<4xi32>) -> tensor<4xi32> {
  ^bb0(%b: tensor<1xi32>):
    %idx = spmd.axis_index over ["i"] : i32
    %c0 = arith.constant 0 : index
    %v = tensor.extract %b[%c0] : tensor<1xi32>
    %q = arith.divsi %v, %idx : i32
    %out = tensor.from_elements %q : tensor<1xi32>
    spmd.yield %out : tensor<1xi32>
  }
  return %r : tensor<4xi32>
}
