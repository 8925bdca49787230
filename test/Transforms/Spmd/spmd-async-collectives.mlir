// RUN: trellis-opt %s --spmd-async-collectives --split-input-file | FileCheck %s
// RUN: trellis-opt %s --spmd-async-collectives=schedule=false --split-input-file | FileCheck %s --check-prefix=NOSCHED

trellis.mesh @mesh = <["i"=4]>

// The all-gather loop of a collective matmul: the start moves to the top
// of the body (its operand is the loop-carried chunk), the wait down to the
// yield, so the transfer overlaps the matmul.
// CHECK-LABEL: func.func @gather_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}})
// CHECK-NEXT: %[[F:.*]] = spmd.ppermute_start %[[L]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x8xf32> -> !spmd.future<tensor<2x8xf32>>
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.remui
// CHECK-NEXT: arith.muli
// CHECK-NEXT: %[[INS:.*]] = tensor.insert_slice
// CHECK-NEXT: %[[NEXT:.*]] = spmd.ppermute_wait %[[F]] : !spmd.future<tensor<2x8xf32>>
// CHECK-NEXT: scf.yield %[[INS]], %[[NEXT]]
// NOSCHED-LABEL: func.func @gather_loop
// NOSCHED: linalg.matmul
// NOSCHED-NEXT: %[[F:.*]] = spmd.ppermute_start
// NOSCHED-NEXT: spmd.ppermute_wait %[[F]]
// NOSCHED-NEXT: arith.addi
func.func @gather_loop(%lhs: tensor<2x8xf32>, %rhs: tensor<8x4xf32>, %init: tensor<8x4xf32>)
    -> tensor<8x4xf32> attributes {spmd.mesh = @mesh} {
  %n = spmd.axis_size over ["i"] : index
  %idx = spmd.axis_index over ["i"] : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %last = arith.subi %n, %c1 : index
  %r:2 = scf.for %i = %c0 to %last step %c1 iter_args(%acc = %init, %l = %lhs)
      -> (tensor<8x4xf32>, tensor<2x8xf32>) {
    %e = tensor.empty() : tensor<2x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %u = linalg.matmul ins(%l, %rhs : tensor<2x8xf32>, tensor<8x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
    %next = spmd.ppermute %l over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x8xf32>
    %s = arith.addi %idx, %i : index
    %m = arith.remui %s, %n : index
    %row = arith.muli %m, %c2 : index
    %ins = tensor.insert_slice %u into %acc[%row, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
    scf.yield %ins, %next : tensor<8x4xf32>, tensor<2x8xf32>
  }
  return %r#0 : tensor<8x4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// The reduce-scatter loop: the accumulator leaves at the top of the body,
// the partial product is computed meanwhile, and the wait sits right
// before the add that needs the received accumulator.
// CHECK-LABEL: func.func @scatter_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NEXT: %[[F:.*]] = spmd.ppermute_start %[[ACC]]
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: %[[RECV:.*]] = spmd.ppermute_wait %[[F]]
// CHECK-NEXT: arith.addf %[[RECV]]
func.func @scatter_loop(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %init: tensor<2x4xf32>)
    -> tensor<2x4xf32> attributes {spmd.mesh = @mesh} {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c1 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<2x4xf32>) {
    %recv = spmd.ppermute %acc over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x4xf32>
    %p = linalg.matmul ins(%a, %b : tensor<2x8xf32>, tensor<8x4xf32>) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
    %sum = arith.addf %recv, %p : tensor<2x4xf32>
    scf.yield %sum : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// A start stops at the op defining its operand and never passes an earlier
// start or an op whose regions communicate, so all devices start transfers
// in the same order. Synchronous collectives are not barriers for it.
// CHECK-LABEL: func.func @order
// CHECK: %[[F1:.*]] = spmd.ppermute_start %arg0
// CHECK-NEXT: %[[F2:.*]] = spmd.ppermute_start %arg1
// CHECK-NEXT: spmd.psum
// CHECK-NEXT: %[[X:.*]] = arith.addf
// CHECK-NEXT: %[[F3:.*]] = spmd.ppermute_start %[[X]]
// CHECK-NEXT: scf.if
// CHECK: spmd.ppermute
// CHECK: %[[F4:.*]] = spmd.ppermute_start %arg1
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: spmd.ppermute_wait %[[F1]]
// CHECK-NEXT: spmd.ppermute_wait %[[F2]]
// CHECK-NEXT: spmd.ppermute_wait %[[F3]]
// CHECK-NEXT: spmd.ppermute_wait %[[F4]]
// CHECK-NEXT: return
func.func @order(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: i1)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    attributes {spmd.mesh = @mesh} {
  %s = spmd.psum %a over ["i"] : tensor<4xf32>
  %p1 = spmd.ppermute %a over ["i"] pairs [[0, 1]] : tensor<4xf32>
  %x = arith.addf %a, %b : tensor<4xf32>
  %p2 = spmd.ppermute %b over ["i"] pairs [[1, 2]] : tensor<4xf32>
  %p3 = spmd.ppermute %x over ["i"] pairs [[2, 3]] : tensor<4xf32>
  %y = scf.if %c -> tensor<4xf32> {
    %q = spmd.ppermute %a over ["i"] pairs [[3, 0]] : tensor<4xf32>
    scf.yield %q : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %m = arith.mulf %a, %a : tensor<4xf32>
  %p4 = spmd.ppermute %b over ["i"] pairs [[0, 2]] : tensor<4xf32>
  return %p1, %p2, %p3, %p4, %y, %m : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// A wait stops before the first op that uses its result, also when the use
// is inside that op's region.
// CHECK-LABEL: func.func @nested_use
// CHECK: %[[F:.*]] = spmd.ppermute_start
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: %[[W:.*]] = spmd.ppermute_wait %[[F]]
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addf %[[W]]
func.func @nested_use(%a: tensor<4xf32>, %c: i1) -> tensor<4xf32> attributes {spmd.mesh = @mesh} {
  %p = spmd.ppermute %a over ["i"] pairs [[0, 1]] : tensor<4xf32>
  %m = arith.mulf %a, %a : tensor<4xf32>
  %r = scf.if %c -> tensor<4xf32> {
    %s = arith.addf %p, %m : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    scf.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// Inside shard_map bodies too.
// CHECK-LABEL: func.func @in_shard_map
// CHECK: spmd.shard_map
// CHECK: spmd.ppermute_start
// CHECK: spmd.ppermute_wait
func.func @in_shard_map(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%b: tensor<4xf32>):
    %p = spmd.ppermute %b over ["i"] pairs [[0, 1], [1, 0]] : tensor<4xf32>
    spmd.yield %p : tensor<4xf32>
  }
  return %r : tensor<16xf32>
}
