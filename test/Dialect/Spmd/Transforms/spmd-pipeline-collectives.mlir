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
