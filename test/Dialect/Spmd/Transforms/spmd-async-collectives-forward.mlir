// RUN: trellis-opt %s --spmd-async-collectives=forward --split-input-file | FileCheck %s
// RUN: trellis-opt %s --spmd-async-collectives --split-input-file | FileCheck %s --check-prefix=NOFWD

// NOFWD-NOT: spmd.ppermute_forward

trellis.mesh @mesh = <["i"=4]>

// An unrolled all-gather ring: each hop sends on the chunk the previous
// one delivered, so it becomes a forward of that hop's future, issued up
// front; the waits stay, just before the matmuls that use the chunks.
// CHECK-LABEL: func.func @gather_chain
// CHECK-NEXT: %[[F1:.*]] = spmd.ppermute_start %arg0 over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]]
// CHECK-NEXT: %[[F2:.*]] = spmd.ppermute_forward %[[F1]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : !spmd.future<tensor<2x8xf32>>
// CHECK-NEXT: linalg.matmul ins(%arg0
// CHECK-NEXT: %[[Y:.*]] = spmd.ppermute_wait %[[F1]]
// CHECK-NEXT: linalg.matmul ins(%[[Y]]
// CHECK-NEXT: %[[Z:.*]] = spmd.ppermute_wait %[[F2]]
// CHECK-NEXT: linalg.matmul ins(%[[Z]]
func.func @gather_chain(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %c: tensor<2x4xf32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) attributes {spmd.mesh = @mesh} {
  %m0 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = spmd.ppermute %x over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x8xf32>
  %m1 = linalg.matmul ins(%y, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %z = spmd.ppermute %y over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x8xf32>
  %m2 = linalg.matmul ins(%z, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m0, %m1, %m2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// An unrolled reduce-scatter ring: each hop sends the received partial sum
// plus this device's partial; the add and the wait go, and the forward sits
// right after the matmul computing its addend. The last hop's sum stays on
// the device.
// CHECK-LABEL: func.func @scatter_chain
// CHECK-NEXT: %[[P0:.*]] = linalg.matmul
// CHECK-NEXT: %[[F1:.*]] = spmd.ppermute_start %[[P0]]
// CHECK-NEXT: %[[P1:.*]] = linalg.matmul
// CHECK-NEXT: %[[F2:.*]] = spmd.ppermute_forward %[[F1]] plus %[[P1]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : !spmd.future<tensor<2x4xf32>>, tensor<2x4xf32>
// CHECK-NEXT: %[[P2:.*]] = linalg.matmul
// CHECK-NEXT: %[[R:.*]] = spmd.ppermute_wait %[[F2]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[R]], %[[P2]]
// CHECK-NEXT: return %[[S]]
func.func @scatter_chain(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %c: tensor<2x4xf32>)
    -> tensor<2x4xf32> attributes {spmd.mesh = @mesh} {
  %p0 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r1 = spmd.ppermute %p0 over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x4xf32>
  %p1 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a1 = arith.addf %p1, %r1 : tensor<2x4xf32>
  %r2 = spmd.ppermute %a1 over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x4xf32>
  %p2 = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a2 = arith.addf %r2, %p2 : tensor<2x4xf32>
  return %a2 : tensor<2x4xf32>
}

// Integer sums forward too.
// CHECK-LABEL: func.func @integer_sum
// CHECK: spmd.ppermute_forward %{{.*}} plus %arg1
func.func @integer_sum(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> attributes {spmd.mesh = @mesh} {
  %r1 = spmd.ppermute %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xi32>
  %a1 = arith.addi %r1, %y : tensor<4xi32>
  %r2 = spmd.ppermute %a1 over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xi32>
  return %r2 : tensor<4xi32>
}

// Not forwarded: a sum used elsewhere too (it must exist on the device),
// and a second send of a value already forwarded (a future is forwarded at
// most once).
// CHECK-LABEL: func.func @not_forwarded
// CHECK: %[[F1:.*]] = spmd.ppermute_start %arg0
// CHECK: spmd.ppermute_wait %[[F1]]
// CHECK: %[[A:.*]] = arith.addf
// CHECK: spmd.ppermute_start %[[A]]
// CHECK: %[[G1:.*]] = spmd.ppermute_start %arg1
// CHECK: spmd.ppermute_forward %[[G1]] over
// CHECK: %[[Y:.*]] = spmd.ppermute_wait %[[G1]]
// CHECK: spmd.ppermute_start %[[Y]] over ["i"] pairs {{\[\[}}3, 0]]
func.func @not_forwarded(%x: tensor<4xf32>, %y: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  %r1 = spmd.ppermute %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  %a1 = arith.addf %r1, %y : tensor<4xf32>
  %r2 = spmd.ppermute %a1 over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  %s1 = spmd.ppermute %y over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  %s2 = spmd.ppermute %s1 over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  %s3 = spmd.ppermute %s1 over ["i"] pairs [[3, 0]] : tensor<4xf32>
  return %a1, %r2, %s2, %s3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// A forward may not come after a wait of its future (the runtime keeps or
// drops the payload when the forward is made). Here the hop's value is
// used to compute what the start before it sends, so the wait must come
// first: the forward goes back to a start of the waited value.
// CHECK-LABEL: func.func @wait_needed_first
// CHECK: %[[F1:.*]] = spmd.ppermute_start %arg0
// CHECK-NEXT: %[[Y:.*]] = spmd.ppermute_wait %[[F1]]
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[Y]], %[[Y]]
// CHECK-NEXT: spmd.ppermute_start %[[D]]
// CHECK-NEXT: spmd.ppermute_start %[[Y]]
// CHECK-NOT: spmd.ppermute_forward
func.func @wait_needed_first(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  %y = spmd.ppermute %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  %d = arith.mulf %y, %y : tensor<4xf32>
  %e = spmd.ppermute %d over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  %z = spmd.ppermute %y over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf32>
  return %e, %z : tensor<4xf32>, tensor<4xf32>
}

// f16 sums are not forwarded (arith rounds each f16 add; the runtime
// cannot add f16).
// CHECK-LABEL: func.func @half_sum
// CHECK: %[[F:.*]] = spmd.ppermute_start %arg0
// CHECK-NEXT: %[[R:.*]] = spmd.ppermute_wait %[[F]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[R]], %arg1
// CHECK-NEXT: spmd.ppermute_start %[[A]]
// CHECK-NOT: spmd.ppermute_forward
func.func @half_sum(%x: tensor<4xf16>, %y: tensor<4xf16>) -> tensor<4xf16> attributes {spmd.mesh = @mesh} {
  %r1 = spmd.ppermute %x over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf16>
  %a1 = arith.addf %r1, %y : tensor<4xf16>
  %r2 = spmd.ppermute %a1 over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4xf16>
  return %r2 : tensor<4xf16>
}
