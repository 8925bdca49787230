// Device 1 never leaves a loop; the others wait for it in a psum. The time
// limit stops the run with a message and status 3 (the looping thread cannot
// be interrupted, so the process ends).
// RUN: not trellis-run %s --timeout 1 --quiet 2>&1 | FileCheck %s

// CHECK: error: the run exceeded the time limit of 1 s (--timeout); 1 device(s) did not stop

trellis.mesh @mesh = <["i"=2]>

func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]] check_vma = false (%x) : (tensor<2xi32>) -> tensor<2xi32> {
  ^bb0(%b: tensor<1xi32>):
    %idx = spmd.axis_index over ["i"] : i32
    %one = arith.constant 1 : i32
    %spin = arith.cmpi eq, %idx, %one : i32
    %n = scf.while (%k = %idx) : (i32) -> i32 {
      scf.condition(%spin) %k : i32
    } do {
    ^bb0(%k: i32):
      %k1 = arith.addi %k, %one : i32
      scf.yield %k1 : i32
    }
    %nt = tensor.from_elements %n : tensor<1xi32>
    %sum = arith.addi %b, %nt : tensor<1xi32>
    %s = spmd.psum %sum over ["i"] : tensor<1xi32>
    spmd.yield %s : tensor<1xi32>
  }
  return %r : tensor<2xi32>
}
