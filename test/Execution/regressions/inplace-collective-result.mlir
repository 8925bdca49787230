// A collective's result buffer must not be overwritten in place while
// another collective still reads it. spmd-to-runtime marked the result
// `to_tensor ... restrict writable`; once canonicalization folded the
// reader's to_buffer away, bufferization let the addi write into the
// ppermute's buffer before the all_gather read it (out0 was [2 4 2 4]).
// RUN: trellis-run %s --iota 2>&1 | FileCheck %s
// RUN: trellis-run %s --iota --async-ppermute=false 2>&1 | FileCheck %s
// RUN: trellis-run %s --iota --entry psum_then_gather 2>&1 | FileCheck %s --check-prefix=PSUM
// RUN: trellis-run %s --iota --entry a2a_then_gather 2>&1 | FileCheck %s --check-prefix=A2A

// x = [0 1 2 3]; blocks [0 1] and [2 3]; p swaps them.
// CHECK: out0: int32[4]
// CHECK-NEXT: [2 3 0 1]
// CHECK: out1: int32[4]
// CHECK-NEXT: [2 4 2 4]

// psum of the blocks: [2 4] on both devices; s = [2 4] + own block.
// PSUM: out0: int32[4]
// PSUM-NEXT: [2 4 2 4]
// PSUM: out1: int32[4]
// PSUM-NEXT: [2 5 4 7]

// all_to_all of [0 1] and [2 3] (split and concat dim 0): [0 2], [1 3].
// A2A: out0: int32[4]
// A2A-NEXT: [0 2 1 3]
// A2A: out1: int32[4]
// A2A-NEXT: [0 3 3 6]

trellis.mesh @mesh = <["i"=2]>
func.func @main(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %r:2 = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{}], [{"i"}]] check_vma = false (%x) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  ^bb0(%b: tensor<2xi32>):
    %p = spmd.ppermute %b over ["i"] pairs [[0, 1], [1, 0]] : tensor<2xi32>
    %s = arith.addi %p, %b : tensor<2xi32>
    %g = spmd.all_gather %p over ["i"] dim 0 tiled : tensor<2xi32> -> tensor<4xi32>
    spmd.yield %g, %s : tensor<4xi32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>
}

func.func @psum_then_gather(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %r:2 = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{}], [{"i"}]] check_vma = false (%x) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  ^bb0(%b: tensor<2xi32>):
    %p = spmd.psum %b over ["i"] : tensor<2xi32>
    %s = arith.addi %p, %b : tensor<2xi32>
    %g = spmd.all_gather %p over ["i"] dim 0 tiled : tensor<2xi32> -> tensor<4xi32>
    spmd.yield %g, %s : tensor<4xi32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>
}

func.func @a2a_then_gather(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %r:2 = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{}], [{"i"}]] check_vma = false (%x) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  ^bb0(%b: tensor<2xi32>):
    %p = spmd.all_to_all %b over ["i"] split 0 concat 0 : tensor<2xi32> -> tensor<2xi32>
    %s = arith.addi %p, %b : tensor<2xi32>
    %g = spmd.all_gather %p over ["i"] dim 0 tiled : tensor<2xi32> -> tensor<4xi32>
    spmd.yield %g, %s : tensor<4xi32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>
}
