// Device 0 skips the psum and reaches an all_gather that the others reach
// only later: the k-th collective of the group differs between devices.
// RUN: not trellis-run %s --quiet 2>&1 | FileCheck %s

// CHECK: trellis-run: error: collective mismatch in the group over ("i") of devices 0, 1, 2, 3: device 0 reached spmd.all_gather at {{.*}}mismatched-collectives.mlir:21:10, but devices 1, 2, 3 reached spmd.psum at {{.*}}mismatched-collectives.mlir:18:12

trellis.mesh @mesh = <["i"=4]>

func.func @main(%x: tensor<8xf32>) -> tensor<32xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] check_vma = false (%x) : (tensor<8xf32>) -> tensor<32xf32> {
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
    %g = spmd.all_gather %y over ["i"] dim 0 tiled : tensor<2xf32> -> tensor<8xf32>
    spmd.yield %g : tensor<8xf32>
  }
  return %r : tensor<32xf32>
}
