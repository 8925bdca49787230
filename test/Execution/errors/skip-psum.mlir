// Device 0 skips a psum under scf.if on axis_index: the others wait for it.
// The run must stop with a located message naming the devices, quickly.
// RUN: not trellis-run %s --timeout 10 --quiet 2>&1 | FileCheck %s

// CHECK: trellis-run: error: device 0 finished without reaching spmd.psum at {{.*}}skip-psum.mlir:18:12, which devices 1, 2, 3 wait in (the group over ("i") of devices 0, 1, 2, 3)

trellis.mesh @mesh = <["i"=4]>

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %idx = spmd.axis_index over ["i"] : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %idx, %c0 : index
    %y = scf.if %first -> tensor<2xf32> {
      scf.yield %b : tensor<2xf32>
    } else {
      %s = spmd.psum %b over ["i"] : tensor<2xf32>
      scf.yield %s : tensor<2xf32>
    }
    spmd.yield %y : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}
