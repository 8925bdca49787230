// Four devices of a 2x2 mesh each wait for a neighbour that waits for the
// next one: (0,0) in a psum over i needs (1,0), which is in a psum over j
// needing (1,1), which is in a psum over i needing (0,1), which is in a psum
// over j needing (0,0). No device can proceed; the run reports every wait.
// RUN: not trellis-run %s --quiet 2>&1 | FileCheck %s

// CHECK: trellis-run: error: deadlock: every running device waits for a collective that another device never reaches:
// CHECK-DAG: device 0 waits in spmd.psum at {{.*}}deadlock.mlir:{{[0-9]+}}:{{[0-9]+}} (the group over ("i") of devices 0, 2)
// CHECK-DAG: device 1 waits in spmd.psum at {{.*}} (the group over ("j") of devices 0, 1)
// CHECK-DAG: device 2 waits in spmd.psum at {{.*}} (the group over ("j") of devices 2, 3)
// CHECK-DAG: device 3 waits in spmd.psum at {{.*}} (the group over ("i") of devices 1, 3)

trellis.mesh @mesh = <["i"=2, "j"=2]>

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = spmd.shard_map @mesh in_specs = [[]] out_specs = [[{"i", "j"}]] check_vma = false
      (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%b: tensor<4xf32>):
    %i = spmd.axis_index over ["i"] : index
    %j = spmd.axis_index over ["j"] : index
    // (0,0) and (1,1) reduce over i first; (0,1) and (1,0) over j first.
    %same = arith.cmpi eq, %i, %j : index
    %y = scf.if %same -> tensor<4xf32> {
      %a = spmd.psum %b over ["i"] : tensor<4xf32>
      %c = spmd.psum %a over ["j"] : tensor<4xf32>
      scf.yield %c : tensor<4xf32>
    } else {
      %a = spmd.psum %b over ["j"] : tensor<4xf32>
      %c = spmd.psum %a over ["i"] : tensor<4xf32>
      scf.yield %c : tensor<4xf32>
    }
    %one = tensor.extract_slice %y[0] [1] [1] : tensor<4xf32> to tensor<1xf32>
    spmd.yield %one : tensor<1xf32>
  }
  return %r : tensor<4xf32>
}
