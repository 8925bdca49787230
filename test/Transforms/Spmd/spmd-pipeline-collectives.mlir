// RUN: trellis-opt %s --spmd-pipeline-collectives --split-input-file | FileCheck %s

trellis.mesh @mesh = <["d"=4]>

// A layer loop over 4 stacked weight shards: layer 0's gather starts
// before the loop, the loop runs layers 0..2 and starts layer l+1's gather
// at its top, carrying the future; layer 3 is peeled after it and waits
// for the last future. Nothing is gathered twice: one start before the
// loop, one in it (3 iterations), no blocking gather left.
// CHECK-LABEL: func.func @layers
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[WB:.*]]: tensor<4x2x8xf32>)
// CHECK: %[[C0:c0_[0-9]+]] = arith.constant 0 : index
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[WB]][%[[C0]], 0, 0] [1, 2, 8] [1, 1, 1]
// CHECK: %[[F0:.*]] = spmd.all_gather_start %[[S0]] over ["d"] dim 0 tiled : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[R:.*]]:2 = scf.for %[[L:.*]] = %{{.*}} to %[[C3]] step %[[STEP:.*]] iter_args(%[[H:.*]] = %[[X]], %[[F:.*]] = %[[F0]]) -> (tensor<2x8xf32>, !spmd.future<tensor<8x8xf32>>)
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[L]], %[[STEP]] : index
// CHECK-NEXT: %[[SN:.*]] = tensor.extract_slice %[[WB]][%[[NEXT]], 0, 0] [1, 2, 8] [1, 1, 1]
// CHECK-NEXT: %[[FN:.*]] = spmd.all_gather_start %[[SN]] over ["d"] dim 0 tiled
// CHECK-NOT: spmd.all_gather
// CHECK: %[[W:.*]] = spmd.collective_wait %[[F]] : !spmd.future<tensor<8x8xf32>>
// CHECK-NOT: spmd.all_gather
// CHECK: linalg.matmul ins(%[[H]], %[[W]]
// CHECK: scf.yield %{{.*}}, %[[FN]] : tensor<2x8xf32>, !spmd.future<tensor<8x8xf32>>
// CHECK-NOT: spmd.all_gather
// CHECK: %[[WL:.*]] = spmd.collective_wait %[[R]]#1 : !spmd.future<tensor<8x8xf32>>
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[R]]#0, %[[WL]]
// CHECK-NOT: spmd.all_gather
// CHECK: return %[[Y]]
func.func @layers(%x: tensor<2x8xf32>, %wb: tensor<4x2x8xf32>) -> tensor<2x8xf32>
    attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %h = scf.for %l = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %e = tensor.empty() : tensor<2x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    %m = linalg.matmul ins(%a, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
    scf.yield %m : tensor<2x8xf32>
  }
  return %h : tensor<2x8xf32>
}

// -----

trellis.mesh @mesh = <["d"=4]>

// Steps of 2 from 1 to 6 (iterations 1, 3, 5): the loop runs 1 and 3, the
// peeled iteration is 5, and the prefetch index is iv + 2.
// CHECK-LABEL: func.func @strided
// CHECK: %[[C1:c1_[0-9]+]] = arith.constant 1 : index
// CHECK: tensor.extract_slice %{{.*}}[%[[C1]], 0, 0]
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %[[C5]] step %[[S:.*]] iter_args
// CHECK-NEXT: arith.addi %[[L]], %[[S]] : index
// CHECK: scf.yield
// CHECK: tensor.extract_slice %{{.*}}[%[[C5]], 0, 0]
func.func @strided(%x: tensor<2x8xf32>, %wb: tensor<6x2x8xf32>) -> tensor<2x8xf32>
    attributes {spmd.mesh = @mesh} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %h = scf.for %l = %c1 to %c6 step %c2 iter_args(%a = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<6x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %s = tensor.extract_slice %w[0, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    %y = arith.addf %a, %s : tensor<2x8xf32>
    scf.yield %y : tensor<2x8xf32>
  }
  return %h : tensor<2x8xf32>
}

// -----

trellis.mesh @mesh = <["d"=4]>

// Two iterations (0 and 2 of 0..3 by 2): one in the loop, one peeled.
// CHECK-LABEL: func.func @two_iterations
// CHECK: spmd.all_gather_start
// CHECK: %[[C2:c2_[0-9]+]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C2]] step
// CHECK: spmd.all_gather_start
// CHECK: scf.yield
// CHECK: spmd.collective_wait
func.func @two_iterations(%x: tensor<2x8xf32>, %wb: tensor<3x2x8xf32>) -> tensor<2x8xf32>
    attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %h = scf.for %l = %c0 to %c3 step %c2 iter_args(%a = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<3x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %s = tensor.extract_slice %w[0, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    %y = arith.addf %a, %s : tensor<2x8xf32>
    scf.yield %y : tensor<2x8xf32>
  }
  return %h : tensor<2x8xf32>
}

// -----

trellis.mesh @mesh = <["d"=4]>

// Left alone: a gather of a loop-carried value (the next iteration's
// operand is not known yet), a loop of one iteration, a loop with a bound
// known only at run time, and an unsigned loop (-2 to 2 unsigned runs no
// iteration; signed it would run four).
// CHECK-LABEL: func.func @not_pipelined
// CHECK-NOT: _start
// CHECK-COUNT-4: spmd.all_gather %
// CHECK-NOT: _start
// CHECK: return
func.func @not_pipelined(%x: tensor<2x8xf32>, %wb: tensor<4x2x8xf32>, %n: index)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = scf.for %l = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<2x8xf32>) {
    %w = spmd.all_gather %h over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %s = tensor.extract_slice %w[2, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    scf.yield %s : tensor<2x8xf32>
  }
  %b = scf.for %l = %c0 to %c1 step %c1 iter_args(%h = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %s = tensor.extract_slice %w[0, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    scf.yield %s : tensor<2x8xf32>
  }
  %c = scf.for %l = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %s = tensor.extract_slice %w[0, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    scf.yield %s : tensor<2x8xf32>
  }
  %cm2 = arith.constant -2 : index
  %c2 = arith.constant 2 : index
  %d = scf.for unsigned %l = %cm2 to %c2 step %c1 iter_args(%h = %x) -> (tensor<2x8xf32>) {
    %ws = tensor.extract_slice %wb[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %w = spmd.all_gather %ws over ["d"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    %s = tensor.extract_slice %w[0, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    scf.yield %s : tensor<2x8xf32>
  }
  return %a, %b, %c, %d : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

trellis.mesh @mesh = <["d"=4]>

// A backward layer loop: each layer's weight gradient is reduce-scattered
// and added into its slice of the stacked gradient, which nothing else
// reads. The reduce-scatter's wait moves to the next iteration: the first
// iteration is peeled (it only starts), each later one waits for the
// previous layer's, accumulates it into the slice of the previous layer
// (iv - 1) and starts its own; the last layer's is accumulated after the
// loop. The dx chain (%g) does not wait for any reduce-scatter.
// CHECK-LABEL: func.func @backward
// CHECK-SAME: (%[[G0:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[ACC0:.*]]: tensor<4x2x8xf32>)
// CHECK: %[[C0:c0_[0-9]+]] = arith.constant 0 : index
// CHECK: %[[DW0:.*]] = linalg.matmul
// CHECK: %[[F0:.*]] = spmd.psum_scatter_start %[[DW0]] over ["d"] dim 0 tiled : tensor<8x8xf32> -> !spmd.future<tensor<2x8xf32>>
// CHECK-NOT: spmd.collective_wait
// CHECK: %[[C1:c1_[0-9]+]] = arith.constant 1 : index
// CHECK: %[[C4:c4_[0-9]+]] = arith.constant 4 : index
// CHECK: %[[R:.*]]:3 = scf.for %[[L:.*]] = %[[C1]] to %[[C4]] step %{{.*}} iter_args(%[[G:.*]] = %{{.*}}, %[[ACC:.*]] = %[[ACC0]], %[[F:.*]] = %[[F0]]) -> (tensor<2x8xf32>, tensor<4x2x8xf32>, !spmd.future<tensor<2x8xf32>>)
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[L]], %{{.*}} : index
// CHECK: %[[DW:.*]] = linalg.matmul
// CHECK: %[[RS:.*]] = spmd.collective_wait %[[F]] : !spmd.future<tensor<2x8xf32>>
// CHECK-NEXT: %[[OLD:.*]] = tensor.extract_slice %[[ACC]][%[[PREV]], 0, 0] [1, 2, 8] [1, 1, 1]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OLD]], %[[RS]]
// CHECK-NEXT: %[[NEW:.*]] = tensor.insert_slice %[[SUM]] into %[[ACC]][%[[PREV]], 0, 0]
// CHECK-NEXT: %[[FN:.*]] = spmd.psum_scatter_start %[[DW]]
// CHECK: scf.yield %{{.*}}, %[[NEW]], %[[FN]]
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[LAST:.*]] = spmd.collective_wait %[[R]]#2
// CHECK-NEXT: %[[OLD3:.*]] = tensor.extract_slice %[[R]]#1[%[[C3]], 0, 0]
// CHECK-NEXT: %[[SUM3:.*]] = arith.addf %[[OLD3]], %[[LAST]]
// CHECK-NEXT: %[[OUT:.*]] = tensor.insert_slice %[[SUM3]] into %[[R]]#1[%[[C3]], 0, 0]
// CHECK-NOT: spmd.psum_scatter %
// CHECK: return %[[R]]#0, %[[OUT]]
func.func @backward(%g0: tensor<2x8xf32>, %w: tensor<8x8xf32>, %acc0: tensor<4x2x8xf32>)
    -> (tensor<2x8xf32>, tensor<4x2x8xf32>) attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %l = %c0 to %c4 step %c1 iter_args(%g = %g0, %acc = %acc0) -> (tensor<2x8xf32>, tensor<4x2x8xf32>) {
    %e = tensor.empty() : tensor<8x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %dw = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>]
        ins(%g, %g : tensor<2x8xf32>, tensor<2x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
    %e2 = tensor.empty() : tensor<2x8xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %dx = linalg.matmul ins(%g, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z2 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %rs = spmd.psum_scatter %dw over ["d"] dim 0 tiled : tensor<8x8xf32> -> tensor<2x8xf32>
    %old = tensor.extract_slice %acc[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<4x2x8xf32> to tensor<2x8xf32>
    %sum = arith.addf %old, %rs : tensor<2x8xf32>
    %new = tensor.insert_slice %sum into %acc[%l, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<2x8xf32> into tensor<4x2x8xf32>
    scf.yield %dx, %new : tensor<2x8xf32>, tensor<4x2x8xf32>
  }
  return %r#0, %r#1 : tensor<2x8xf32>, tensor<4x2x8xf32>
}

// -----

trellis.mesh @mesh = <["d"=4]>

// A psum accumulated after scaling by a loop-carried value that the rest
// of the body updates (%s): the accumulation of iteration k must use
// iteration k's %s, which is carried to the next iteration beside the
// future. A loop bound written as trellis-grad writes it (4 ceildiv 1) is
// folded.
// CHECK-LABEL: func.func @carried_scale
// CHECK: %[[F0:.*]] = spmd.psum_start
// CHECK: %[[R:.*]]:4 = scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[F:.*]] = %[[F0]], %[[SPREV:.*]] = %{{.*}}) -> (tensor<4xf32>, tensor<4xf32>, !spmd.future<tensor<4xf32>>, tensor<4xf32>)
// CHECK: %[[P:.*]] = spmd.collective_wait %[[F]]
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[P]], %[[SPREV]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[SCALED]]
// CHECK-NEXT: %[[FN:.*]] = spmd.psum_start %[[S]]
// CHECK-NEXT: %[[NEXTS:.*]] = arith.mulf %[[S]], %[[S]]
// CHECK: scf.yield %[[NEXTS]], %[[SUM]], %[[FN]], %[[S]]
// CHECK: %[[P3:.*]] = spmd.collective_wait %[[R]]#2
// CHECK-NEXT: arith.mulf %[[P3]], %[[R]]#3
func.func @carried_scale(%x: tensor<4xf32>, %s0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n0 = arith.subi %c4, %c0 : index
  %n = arith.ceildivsi %n0, %c1 : index
  %r:2 = scf.for %l = %c0 to %n step %c1 iter_args(%s = %s0, %acc = %x) -> (tensor<4xf32>, tensor<4xf32>) {
    %p = spmd.psum %s over ["d"] : tensor<4xf32> -> tensor<4xf32>
    %next = arith.mulf %s, %s : tensor<4xf32>
    %scaled = arith.mulf %p, %s : tensor<4xf32>
    %sum = arith.addf %acc, %scaled : tensor<4xf32>
    scf.yield %next, %sum : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

trellis.mesh @mesh = <["d"=4]>

// Left alone: a psum whose result the next iteration computes with (the
// accumulator feeds the psum's operand), an accumulator that a blocking
// collective also reads, and a result read inside a nested region.
// CHECK-LABEL: func.func @not_deferred
// CHECK-NOT: _start
// CHECK-NOT: collective_wait
// CHECK: return
func.func @not_deferred(%x: tensor<4xf32>, %c: i1) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = scf.for %l = %c0 to %c4 step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %p = spmd.psum %h over ["d"] : tensor<4xf32> -> tensor<4xf32>
    %y = arith.addf %h, %p : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  %b = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %p = spmd.psum %x over ["d"] : tensor<4xf32> -> tensor<4xf32>
    %g = spmd.all_gather %acc over ["d"] dim 0 tiled : tensor<4xf32> -> tensor<16xf32>
    %s = tensor.extract_slice %g[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
    %y = arith.addf %acc, %p : tensor<4xf32>
    %z = arith.addf %y, %s : tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  }
  %d = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %p = spmd.psum %x over ["d"] : tensor<4xf32> -> tensor<4xf32>
    %y = scf.if %c -> (tensor<4xf32>) {
      %t = arith.addf %acc, %p : tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    } else {
      scf.yield %acc : tensor<4xf32>
    }
    scf.yield %y : tensor<4xf32>
  }
  return %a, %b, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
