// RUN: trellis-opt %s | FileCheck %s
// RUN: trellis-opt %s | trellis-opt | FileCheck %s
// RUN: trellis-opt -mlir-print-op-generic %s | trellis-opt | FileCheck %s

// Asynchronous ppermute: start returns a future, wait delivers the value.

trellis.mesh @mesh = <["i"=4, "j"=2]>

// CHECK-LABEL: func @start_wait
// CHECK: %[[F:.*]] = spmd.ppermute_start %{{.*}} over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x4xf32> -> !spmd.future<tensor<4x4xf32>>
// CHECK: spmd.ppermute_wait %[[F]] : !spmd.future<tensor<4x4xf32>>
// CHECK: spmd.ppermute_start %{{.*}} over ["i", "j"] pairs {{\[\[}}0, 7]] : tensor<4x4xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<4x4xf32, #spmd.vary<["i", "j"]>>>
func.func @start_wait(%b: tensor<4x4xf32>, %v: tensor<4x4xf32, #spmd.vary<["i", "j"]>>)
    -> (tensor<4x4xf32>, tensor<4x4xf32, #spmd.vary<["i", "j"]>>) attributes {spmd.mesh = @mesh} {
  %f = spmd.ppermute_start %b over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]]
      : tensor<4x4xf32> -> !spmd.future<tensor<4x4xf32>>
  %r = spmd.ppermute_wait %f : !spmd.future<tensor<4x4xf32>>
  %g = spmd.ppermute_start %v over ["i", "j"] pairs [[0, 7]]
      : tensor<4x4xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<4x4xf32, #spmd.vary<["i", "j"]>>>
  %s = spmd.ppermute_wait %g : !spmd.future<tensor<4x4xf32, #spmd.vary<["i", "j"]>>>
  return %r, %s : tensor<4x4xf32>, tensor<4x4xf32, #spmd.vary<["i", "j"]>>
}

// A future may be carried through a loop (waited for in a later iteration).
// CHECK-LABEL: func @loop_carried
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!spmd.future<tensor<8xf32>>)
func.func @loop_carried(%x: tensor<8xf32>) -> tensor<8xf32> attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %f0 = spmd.ppermute_start %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]]
      : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  %f = scf.for %i = %c0 to %c3 step %c1 iter_args(%in = %f0) -> (!spmd.future<tensor<8xf32>>) {
    %v = spmd.ppermute_wait %in : !spmd.future<tensor<8xf32>>
    %next = spmd.ppermute_start %v over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]]
        : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
    scf.yield %next : !spmd.future<tensor<8xf32>>
  }
  %r = spmd.ppermute_wait %f : !spmd.future<tensor<8xf32>>
  return %r : tensor<8xf32>
}

// The starts of all_gather, psum_scatter, psum and all_to_all, each with
// spmd.collective_wait; variance-typed operands give futures of the
// synchronous forms' result types.
// CHECK-LABEL: func @collective_starts
// CHECK: %[[G:.*]] = spmd.all_gather_start %{{.*}} over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
// CHECK: spmd.collective_wait %[[G]] : !spmd.future<tensor<8x8xf32>>
// CHECK: spmd.psum_scatter_start %{{.*}} over ["j"] dim 1 tiled : tensor<2x8xf32> -> !spmd.future<tensor<2x4xf32>>
// CHECK: spmd.psum_start %{{.*}} over ["i", "j"] : tensor<2x8xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<2x8xf32>>
// CHECK: spmd.all_to_all_start %{{.*}} over ["i"] split 1 concat 0 : tensor<2x8xf32> -> !spmd.future<tensor<8x2xf32>>
// CHECK: spmd.all_gather_start %{{.*}} over ["j"] dim 0 : tensor<2x8xf32> -> !spmd.future<tensor<2x2x8xf32>>
func.func @collective_starts(%x: tensor<2x8xf32>, %v: tensor<2x8xf32, #spmd.vary<["i", "j"]>>)
    -> (tensor<8x8xf32>, tensor<2x4xf32>, tensor<2x8xf32>, tensor<8x2xf32>, tensor<2x2x8xf32>)
    attributes {spmd.mesh = @mesh} {
  %fg = spmd.all_gather_start %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
  %g = spmd.collective_wait %fg : !spmd.future<tensor<8x8xf32>>
  %fs = spmd.psum_scatter_start %x over ["j"] dim 1 tiled : tensor<2x8xf32> -> !spmd.future<tensor<2x4xf32>>
  %s = spmd.collective_wait %fs : !spmd.future<tensor<2x4xf32>>
  %fp = spmd.psum_start %v over ["i", "j"] : tensor<2x8xf32, #spmd.vary<["i", "j"]>> -> !spmd.future<tensor<2x8xf32>>
  %p = spmd.collective_wait %fp : !spmd.future<tensor<2x8xf32>>
  %fa = spmd.all_to_all_start %x over ["i"] split 1 concat 0 : tensor<2x8xf32> -> !spmd.future<tensor<8x2xf32>>
  %a = spmd.collective_wait %fa : !spmd.future<tensor<8x2xf32>>
  %fk = spmd.all_gather_start %x over ["j"] dim 0 : tensor<2x8xf32> -> !spmd.future<tensor<2x2x8xf32>>
  %k = spmd.collective_wait %fk : !spmd.future<tensor<2x2x8xf32>>
  return %g, %s, %p, %a, %k : tensor<8x8xf32>, tensor<2x4xf32>, tensor<2x8xf32>, tensor<8x2xf32>, tensor<2x2x8xf32>
}
