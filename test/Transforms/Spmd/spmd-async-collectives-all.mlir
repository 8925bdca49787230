// RUN: trellis-opt %s --spmd-async-collectives=kinds=all --split-input-file | FileCheck %s
// RUN: trellis-opt %s --spmd-async-collectives --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: not trellis-opt %s --spmd-async-collectives=kinds=psum --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: spmd-async-collectives: kinds must be `ppermute` or `all`, not `psum`

trellis.mesh @mesh = <["i"=4, "j"=2]>

// An FSDP-style layer: the next weights' gather starts before the matmul
// that does not need them and is waited for where they are used; the
// gradient's reduce-scatter and the loss's psum start as soon as their
// operands exist. Starts keep their order (gather, then scatter, then psum,
// then the ppermute's).
// CHECK-LABEL: func.func @layer
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[W0:.*]]: tensor<8x8xf32>, %[[W1S:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[FG:.*]] = spmd.all_gather_start %[[W1S]] over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
// CHECK: %[[H:.*]] = linalg.matmul ins(%[[X]], %[[W0]]
// CHECK-NEXT: %[[FS:.*]] = spmd.psum_scatter_start %[[H]] over ["j"] dim 1 tiled : tensor<2x8xf32> -> !spmd.future<tensor<2x4xf32>>
// CHECK-NEXT: %[[FP:.*]] = spmd.psum_start %[[H]] over ["i"] : tensor<2x8xf32> -> !spmd.future<tensor<2x8xf32>>
// CHECK-NEXT: %[[FA:.*]] = spmd.all_to_all_start %[[H]] over ["i"] split 1 concat 0 : tensor<2x8xf32> -> !spmd.future<tensor<8x2xf32>>
// CHECK-NEXT: %[[FR:.*]] = spmd.ppermute_start %[[H]]
// CHECK: %[[W1:.*]] = spmd.collective_wait %[[FG]] : !spmd.future<tensor<8x8xf32>>
// CHECK-NEXT: linalg.matmul ins(%[[H]], %[[W1]]
// CHECK: spmd.collective_wait %[[FS]]
// CHECK: spmd.collective_wait %[[FP]]
// CHECK: spmd.collective_wait %[[FA]]
// CHECK: spmd.ppermute_wait %[[FR]]
// CHECK: return
// By default only the ppermute is split.
// DEFAULT-LABEL: func.func @layer
// DEFAULT-NOT: {{(all_gather|psum_scatter|psum|all_to_all)_start}}
// DEFAULT: spmd.ppermute_start
// DEFAULT-NOT: {{(all_gather|psum_scatter|psum|all_to_all)_start}}
// DEFAULT: return
func.func @layer(%x: tensor<2x8xf32>, %w0: tensor<8x8xf32>, %w1s: tensor<2x8xf32>)
    -> (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x8xf32>, tensor<8x2xf32>, tensor<2x8xf32>)
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %h = linalg.matmul ins(%x, %w0 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %w1 = spmd.all_gather %w1s over ["i"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
  %y = linalg.matmul ins(%h, %w1 : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  %g = spmd.psum_scatter %h over ["j"] dim 1 tiled : tensor<2x8xf32> -> tensor<2x4xf32>
  %l = spmd.psum %h over ["i"] : tensor<2x8xf32>
  %a = spmd.all_to_all %h over ["i"] split 1 concat 0 : tensor<2x8xf32> -> tensor<8x2xf32>
  %r = spmd.ppermute %h over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2x8xf32>
  return %y, %g, %l, %a, %r : tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x8xf32>, tensor<8x2xf32>, tensor<2x8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// Collective pipelining across a layer loop, written by hand: layer k+1's
// weights are gathered while layer k computes, the future carried in the
// loop. The pass keeps the hand-written halves and leaves pmax (a kind it
// does not split) blocking.
// CHECK-LABEL: func.func @prefetch_loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[F:.*]] = %{{.*}}) -> (tensor<2x8xf32>, !spmd.future<tensor<8x8xf32>>)
// CHECK: %[[W:.*]] = spmd.collective_wait %[[F]]
// CHECK: spmd.pmax %
func.func @prefetch_loop(%x: tensor<2x8xf32>, %ws: tensor<4x2x8xf32>) -> tensor<2x8xf32>
    attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %w0s = tensor.extract_slice %ws[0, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
  %f0 = spmd.all_gather_start %w0s over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
  %r:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%h = %x, %f = %f0)
      -> (tensor<2x8xf32>, !spmd.future<tensor<8x8xf32>>) {
    %w = spmd.collective_wait %f : !spmd.future<tensor<8x8xf32>>
    %k1 = arith.addi %k, %c1 : index
    %nexts = tensor.extract_slice %ws[%k1, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %fn = spmd.all_gather_start %nexts over ["i"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
    %e = tensor.empty() : tensor<2x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    %y = linalg.matmul ins(%h, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
    %m = spmd.pmax %y over ["i"] : tensor<2x8xf32>
    scf.yield %m, %fn : tensor<2x8xf32>, !spmd.future<tensor<8x8xf32>>
  }
  %last = spmd.collective_wait %r#1 : !spmd.future<tensor<8x8xf32>>
  return %r#0 : tensor<2x8xf32>
}
