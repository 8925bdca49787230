// An scf.while loop with a ppermute in its body (a hand-written ring
// all-reduce), run on 4 devices, not unrolled. Each device starts with its
// block of iota(8) and, after 3 shifts, holds the sum of all blocks:
// [0+2+4+6, 1+3+5+7] = [12, 16]. The psum line checks the same with the
// library collective.
// RUN: trellis-run %s --iota | FileCheck %s
// CHECK: out0: float32[2]
// CHECK-NEXT: [12. 16.]
// CHECK: out1: float32[2]
// CHECK-NEXT: [12. 16.]

trellis.mesh @mesh = <["i"=4]>

func.func @main(%x: tensor<8xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r:2 = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{}], [{}]] check_vma = false
      (%x) : (tensor<8xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%b: tensor<2xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = spmd.axis_size over ["i"] : index
    %last = arith.subi %n, %c1 : index
    %res:3 = scf.while (%k = %c0, %acc = %b, %msg = %b) : (index, tensor<2xf32>, tensor<2xf32>) -> (index, tensor<2xf32>, tensor<2xf32>) {
      %more = arith.cmpi ult, %k, %last : index
      scf.condition(%more) %k, %acc, %msg : index, tensor<2xf32>, tensor<2xf32>
    } do {
    ^bb0(%k: index, %acc: tensor<2xf32>, %msg: tensor<2xf32>):
      %next = spmd.ppermute %msg over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2xf32>
      %sum = arith.addf %acc, %next : tensor<2xf32>
      %k1 = arith.addi %k, %c1 : index
      scf.yield %k1, %sum, %next : index, tensor<2xf32>, tensor<2xf32>
    }
    %p = spmd.psum %b over ["i"] : tensor<2xf32>
    spmd.yield %res#1, %p : tensor<2xf32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}
