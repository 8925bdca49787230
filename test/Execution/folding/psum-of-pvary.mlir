// Reductions of a value that is invariant over the reduced axes (the
// variance check inserts the pvary): canonicalization folds psum to a
// multiplication by the group size and pmax/pmean to the value, so nothing
// is communicated, and the numbers match the unfolded run and the oracle.
// RUN: trellis-run %s --iota --passes=canonicalize 2>&1 | FileCheck %s
// RUN: trellis-run %s --iota 2>&1 | FileCheck %s
// RUN: trellis-run %s --iota --passes=canonicalize --reference 2>&1 | FileCheck %s --check-prefix=REF
// RUN: trellis-run %s --iota --passes=canonicalize --dump-llvm-dialect 2>&1 | FileCheck %s --check-prefix=FOLDED
// RUN: trellis-run %s --iota --dump-llvm-dialect 2>&1 | FileCheck %s --check-prefix=UNFOLDED

// CHECK: out0: float32[4]
// CHECK-NEXT: [ 0.  4.  8. 12.]
// CHECK: out1: float32[4]
// CHECK-NEXT: [0. 1. 2. 3.]
// CHECK: out2: int32[4]
// CHECK-NEXT: [ 0  8 16 24]
// REF: oracle:
// REF-NOT: mismatch
// FOLDED-NOT: trellis_rt_all_reduce
// UNFOLDED: trellis_rt_all_reduce

trellis.mesh @m = <["i"=4, "j"=2]>

func.func @main(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  %r:3 = spmd.shard_map @m in_specs = [[], []] out_specs = [[], [], []]
      (%x, %y) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%b: tensor<4xf32>, %c: tensor<4xi32>):
    %s = spmd.psum %b over ["i"] : tensor<4xf32>
    %m = spmd.pmax %b over ["i", "j"] : tensor<4xf32>
    %a = spmd.pmean %m over ["j"] : tensor<4xf32>
    %t = spmd.psum %c over ["i", "j"] : tensor<4xi32>
    spmd.yield %s, %a, %t : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
  }
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>
}
