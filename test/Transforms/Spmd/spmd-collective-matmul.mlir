// RUN: trellis-opt %s --spmd-collective-matmul=force --split-input-file | FileCheck %s
// RUN: trellis-opt %s --spmd-collective-matmul="force bidirectional" --split-input-file | FileCheck %s --check-prefix=BIDIR
// RUN: trellis-opt %s --spmd-collective-matmul="force unroll" --split-input-file | FileCheck %s --check-prefix=UNROLL
// RUN: trellis-opt %s --spmd-collective-matmul --split-input-file | FileCheck %s --check-prefix=THRESHOLD

trellis.mesh @mesh = <["i"=4]>

// all_gather of the lhs along rows (non-contracting; seed 000): chunks are
// placed at ((idx + i) mod n) * 2.
// CHECK-LABEL: func.func @gather_lhs_rows
// CHECK-NOT: spmd.all_gather
// CHECK: %[[N:.*]] = spmd.axis_size over ["i"] : index
// CHECK: %[[IDX:.*]] = spmd.axis_index over ["i"] : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %[[C1]]
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[I:.*]] = %[[C0]] to %[[LAST]] step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[L:.*]] = %arg0)
// CHECK:   %[[U:.*]] = linalg.matmul ins(%[[L]], %arg1 : tensor<2x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK:   %[[NEXT:.*]] = spmd.ppermute %[[L]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x8xf32>
// CHECK:   %[[S:.*]] = arith.addi %[[IDX]], %[[I]]
// CHECK:   %[[M:.*]] = arith.remui %[[S]], %[[N]]
// CHECK:   %[[ROW:.*]] = arith.muli %[[M]], %[[C2]]
// CHECK:   %[[INS:.*]] = tensor.insert_slice %[[U]] into %[[ACC]][%[[ROW]], 0] [2, 4] [1, 1]
// CHECK:   scf.yield %[[INS]], %[[NEXT]]
// CHECK: linalg.matmul ins(%[[LOOP]]#1, %arg1
// CHECK: tensor.insert_slice %{{.*}} into %[[LOOP]]#0
// CHECK-NOT: spmd.ppermute
// CHECK: return
// Bidirectional: the first row of each chunk travels left, the second right
// (placed at ((idx + n - i) mod n) * 2 + 1).
// BIDIR-LABEL: func.func @gather_lhs_rows
// BIDIR: %[[A:.*]] = tensor.extract_slice %arg0[0, 0] [1, 8] [1, 1] : tensor<2x8xf32> to tensor<1x8xf32>
// BIDIR: %[[B:.*]] = tensor.extract_slice %arg0[1, 0] [1, 8] [1, 1] : tensor<2x8xf32> to tensor<1x8xf32>
// BIDIR: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[LA:.*]] = %[[A]], %[[LB:.*]] = %[[B]])
// BIDIR:   %[[SA:.*]] = arith.addi %{{.*}}, %[[I]]
// BIDIR:   %[[OA:.*]] = arith.remui %[[SA]]
// BIDIR:   %[[SB0:.*]] = arith.addi %{{.*}}, %c4
// BIDIR:   %[[SB:.*]] = arith.subi %[[SB0]], %[[I]]
// BIDIR:   %[[OB:.*]] = arith.remui %[[SB]]
// BIDIR:   linalg.matmul ins(%[[LA]], %arg1 : tensor<1x8xf32>, tensor<8x4xf32>)
// BIDIR:   linalg.matmul ins(%[[LB]], %arg1 : tensor<1x8xf32>, tensor<8x4xf32>)
// BIDIR:   spmd.ppermute %[[LA]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<1x8xf32>
// BIDIR:   spmd.ppermute %[[LB]] over ["i"] pairs {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]] : tensor<1x8xf32>
// BIDIR:   %[[ROWB0:.*]] = arith.muli %[[OB]], %c2
// BIDIR:   %[[ROWB:.*]] = arith.addi %[[ROWB0]], %c1
// BIDIR:   tensor.insert_slice %{{.*}} into %{{.*}}[%[[ROWB]], 0] [1, 4] [1, 1]
// Unrolled: n steps of straight-line code, n - 1 ppermutes.
// UNROLL-LABEL: func.func @gather_lhs_rows
// UNROLL-NOT: scf.for
// UNROLL-COUNT-4: linalg.matmul
// UNROLL-NOT: linalg.matmul
// UNROLL: return
// THRESHOLD-LABEL: func.func @gather_lhs_rows
// THRESHOLD: spmd.all_gather
// THRESHOLD-NOT: scf.for
func.func @gather_lhs_rows(%x: tensor<2x8xf32>, %r: tensor<8x4xf32>) -> tensor<8x4xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %g = spmd.all_gather %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
  %c = linalg.matmul ins(%g, %r : tensor<8x8xf32>, tensor<8x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

// -----

trellis.mesh @mesh = <["X"=2, "Y"=4]>

// all_gather of the lhs along the contracting dimension (seed 003's
// collective_matmul_allgather_lhs): the matching rows of the rhs are
// sliced at ((idx + i) mod n) * 16 and the products accumulate.
// CHECK-LABEL: func.func @gather_lhs_contracting
// CHECK: spmd.shard_map
// CHECK: %[[N:.*]] = spmd.axis_size over ["Y"] : index
// CHECK: %[[IDX:.*]] = spmd.axis_index over ["Y"] : index
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}) -> (tensor<8x8xf32>, tensor<8x16xf32>)
// CHECK:   %[[S:.*]] = arith.addi %[[IDX]], %[[I]]
// CHECK:   %[[M:.*]] = arith.remui %[[S]], %[[N]]
// CHECK:   %[[START:.*]] = arith.muli %[[M]], %c16
// CHECK:   %[[CHUNK:.*]] = tensor.extract_slice %{{.*}}[%[[START]], 0] [16, 8] [1, 1] : tensor<64x8xf32> to tensor<16x8xf32>
// CHECK:   %[[NEXTACC:.*]] = linalg.matmul ins(%[[L]], %[[CHUNK]] : tensor<8x16xf32>, tensor<16x8xf32>) outs(%[[ACC]] : tensor<8x8xf32>)
// CHECK:   %[[NEXT:.*]] = spmd.ppermute %[[L]] over ["Y"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<8x16xf32>
// CHECK:   scf.yield %[[NEXTACC]], %[[NEXT]]
// CHECK: tensor.extract_slice
// CHECK: linalg.matmul ins(%[[LOOP]]#1, %{{.*}}) outs(%[[LOOP]]#0
// Bidirectional: the halves are the chunk's top and bottom rows (contiguous),
// accumulating into the top and bottom rows of the result; the rows of the
// rhs match each half's owner.
// BIDIR-LABEL: func.func @gather_lhs_contracting
// BIDIR: %[[TOP:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// BIDIR: %[[BOTTOM:.*]] = tensor.extract_slice %{{.*}}[4, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// BIDIR: scf.for {{.*}} iter_args(%[[ACCT:.*]] = %{{.*}}, %[[ACCB:.*]] = %{{.*}}, %[[A:.*]] = %[[TOP]], %[[B:.*]] = %[[BOTTOM]]) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
// BIDIR:   %[[RA:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [16, 8] [1, 1] : tensor<64x8xf32> to tensor<16x8xf32>
// BIDIR:   linalg.matmul ins(%[[A]], %[[RA]] : tensor<4x16xf32>, tensor<16x8xf32>) outs(%[[ACCT]] : tensor<4x8xf32>)
// BIDIR:   %[[RB:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [16, 8] [1, 1] : tensor<64x8xf32> to tensor<16x8xf32>
// BIDIR:   linalg.matmul ins(%[[B]], %[[RB]] : tensor<4x16xf32>, tensor<16x8xf32>) outs(%[[ACCB]] : tensor<4x8xf32>)
// BIDIR:   spmd.ppermute %[[A]] over ["Y"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x16xf32>
// BIDIR:   spmd.ppermute %[[B]] over ["Y"] pairs {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4x16xf32>
// BIDIR: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
// BIDIR: tensor.insert_slice %{{.*}} into %{{.*}}[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
func.func @gather_lhs_contracting(%a: tensor<16x64xf32>, %w: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %out = spmd.shard_map @mesh in_specs = [[{"X"}, {"Y"}], [{}, {"Y"}]] out_specs = [[{"X"}, {"Y"}]]
      (%a, %w) : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%lhs: tensor<8x16xf32>, %rhs: tensor<64x8xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %g = spmd.all_gather %lhs over ["Y"] dim 1 tiled : tensor<8x16xf32> -> tensor<8x64xf32>
    %c = linalg.matmul ins(%g, %rhs : tensor<8x64xf32>, tensor<64x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
    spmd.yield %c : tensor<8x8xf32>
  }
  return %out : tensor<16x32xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// all_gather of the rhs along columns (non-contracting) with an arbitrary
// init: each chunk starts from the init's columns at its offset.
// CHECK-LABEL: func.func @gather_rhs_cols
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %arg2, %[[X:.*]] = %arg1)
// CHECK:   %[[S:.*]] = arith.addi %{{.*}}, %[[I]]
// CHECK:   %[[M:.*]] = arith.remui %[[S]]
// CHECK:   %[[COL:.*]] = arith.muli %[[M]], %c3
// CHECK:   %[[INIT:.*]] = tensor.extract_slice %arg2[0, %[[COL]]] [5, 3] [1, 1] : tensor<5x12xf32> to tensor<5x3xf32>
// CHECK:   %[[U:.*]] = linalg.matmul ins(%arg0, %[[X]] : tensor<5x6xf32>, tensor<6x3xf32>) outs(%[[INIT]] : tensor<5x3xf32>)
// CHECK:   spmd.ppermute %[[X]]
// CHECK:   tensor.insert_slice %[[U]] into %[[ACC]][0, %[[COL]]] [5, 3] [1, 1]
// Bidirectional: the halves are the chunk's rows (the contracting
// dimension): each accumulates lhs[:, half] @ half into its owner's columns.
// BIDIR-LABEL: func.func @gather_rhs_cols
// BIDIR-DAG: %[[LEFT:.*]] = tensor.extract_slice %arg0[0, 0] [5, 3] [1, 1] : tensor<5x6xf32> to tensor<5x3xf32>
// BIDIR-DAG: %[[RIGHT:.*]] = tensor.extract_slice %arg0[0, 3] [5, 3] [1, 1] : tensor<5x6xf32> to tensor<5x3xf32>
// BIDIR: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg2, %[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (tensor<5x12xf32>, tensor<3x3xf32>, tensor<3x3xf32>)
// BIDIR:   %[[BLK:.*]] = tensor.extract_slice %[[ACC]][0, %[[COL:.*]]] [5, 3] [1, 1]
// BIDIR:   %[[SUM:.*]] = linalg.matmul ins(%[[LEFT]], %[[A]] : tensor<5x3xf32>, tensor<3x3xf32>) outs(%[[BLK]] : tensor<5x3xf32>)
// BIDIR:   tensor.insert_slice %[[SUM]] into %[[ACC]][0, %[[COL]]] [5, 3] [1, 1]
// BIDIR:   linalg.matmul ins(%[[RIGHT]], %[[B]] : tensor<5x3xf32>, tensor<3x3xf32>)
func.func @gather_rhs_cols(%l: tensor<5x6xf32>, %x: tensor<6x3xf32>, %init: tensor<5x12xf32>) -> tensor<5x12xf32>
    attributes {spmd.mesh = @mesh} {
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<6x3xf32> -> tensor<6x12xf32>
  %c = linalg.matmul ins(%l, %g : tensor<5x6xf32>, tensor<6x12xf32>) outs(%init : tensor<5x12xf32>) -> tensor<5x12xf32>
  return %c : tensor<5x12xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>

// all_gather of the rhs along rows (contracting) over two axes: a ring of 8
// in (i, j) order; the lhs columns are sliced.
// CHECK-LABEL: func.func @gather_rhs_contracting
// CHECK: spmd.axis_size over ["i", "j"] : index
// CHECK: spmd.axis_index over ["i", "j"] : index
// CHECK: scf.for
// CHECK:   %[[COL:.*]] = arith.muli %{{.*}}, %c2
// CHECK:   %[[LHS:.*]] = tensor.extract_slice %arg0[0, %[[COL]]] [3, 2] [1, 1] : tensor<3x16xf32> to tensor<3x2xf32>
// CHECK:   linalg.matmul ins(%[[LHS]], %{{.*}} : tensor<3x2xf32>, tensor<2x5xf32>)
// CHECK:   spmd.ppermute %{{.*}} over ["i", "j"] pairs {{\[\[}}0, 7], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 6]] : tensor<2x5xf32>
func.func @gather_rhs_contracting(%l: tensor<3x16xf32>, %x: tensor<2x5xf32>, %init: tensor<3x5xf32>) -> tensor<3x5xf32>
    attributes {spmd.mesh = @mesh} {
  %g = spmd.all_gather %x over ["i", "j"] dim 0 tiled : tensor<2x5xf32> -> tensor<16x5xf32>
  %c = linalg.matmul ins(%l, %g : tensor<3x16xf32>, tensor<16x5xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %c : tensor<3x5xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// Chunks with an odd number of rows stay unidirectional with bidirectional.
// BIDIR-LABEL: func.func @odd_rows
// BIDIR: scf.for {{.*}} -> (tensor<3x5xf32>, tensor<3x4xf32>)
// BIDIR: spmd.ppermute %{{.*}} : tensor<3x4xf32>
// BIDIR-NOT: spmd.ppermute
// BIDIR: scf.yield
func.func @odd_rows(%x: tensor<3x4xf32>, %r: tensor<16x5xf32>, %init: tensor<3x5xf32>) -> tensor<3x5xf32>
    attributes {spmd.mesh = @mesh} {
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<3x4xf32> -> tensor<3x16xf32>
  %c = linalg.matmul ins(%g, %r : tensor<3x16xf32>, tensor<16x5xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %c : tensor<3x5xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// matmul -> psum_scatter along rows: the accumulator for chunk
// (idx - 1) mod n starts the ring, which goes right (the opposite way to
// the all_gather ring); each step receives an accumulator from the left,
// computes its partial product for chunk (idx - i - 1) mod n and adds it.
// CHECK-LABEL: func.func @scatter_rows
// CHECK-NOT: spmd.psum_scatter
// CHECK: %[[N:.*]] = spmd.axis_size over ["i"] : index
// CHECK: %[[IDX:.*]] = spmd.axis_index over ["i"] : index
// CHECK: %[[S0:.*]] = arith.addi %[[IDX]], %c3
// CHECK: %[[S00:.*]] = arith.subi %[[S0]], %c0
// CHECK: %[[FIRST:.*]] = arith.remui %[[S00]], %[[N]]
// CHECK: %[[ROW0:.*]] = arith.muli %[[FIRST]], %c2
// CHECK: %[[LHS0:.*]] = tensor.extract_slice %arg0[%[[ROW0]], 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
// CHECK: %[[P0:.*]] = linalg.matmul ins(%[[LHS0]], %arg1 : tensor<2x6xf32>, tensor<6x5xf32>)
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %c1 to %[[N]] step %c1 iter_args(%[[ACC:.*]] = %[[P0]]) -> (tensor<2x5xf32>)
// CHECK:   %[[RECV:.*]] = spmd.ppermute %[[ACC]] over ["i"] pairs {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2x5xf32>
// CHECK:   %[[S:.*]] = arith.addi %[[IDX]], %c3
// CHECK:   %[[S1:.*]] = arith.subi %[[S]], %[[I]]
// CHECK:   %[[C:.*]] = arith.remui %[[S1]], %[[N]]
// CHECK:   %[[ROW:.*]] = arith.muli %[[C]], %c2
// CHECK:   %[[LHS:.*]] = tensor.extract_slice %arg0[%[[ROW]], 0] [2, 6] [1, 1]
// CHECK:   %[[P:.*]] = linalg.matmul ins(%[[LHS]], %arg1
// CHECK:   %[[SUM:.*]] = arith.addf %[[RECV]], %[[P]] : tensor<2x5xf32>
// CHECK:   scf.yield %[[SUM]]
// CHECK: return %[[R]]
// BIDIR-LABEL: func.func @scatter_rows
// BIDIR: scf.for {{.*}} -> (tensor<1x5xf32>, tensor<1x5xf32>)
// BIDIR:   spmd.ppermute %{{.*}} over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<1x5xf32>
// BIDIR:   spmd.ppermute %{{.*}} over ["i"] pairs {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]] : tensor<1x5xf32>
// BIDIR: %[[E:.*]] = tensor.empty() : tensor<2x5xf32>
// BIDIR: %[[J:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0] [1, 5] [1, 1]
// BIDIR: tensor.insert_slice %{{.*}} into %[[J]][1, 0] [1, 5] [1, 1]
// UNROLL-LABEL: func.func @scatter_rows
// UNROLL-NOT: scf.for
// UNROLL-COUNT-3: spmd.ppermute
// UNROLL-NOT: spmd.ppermute
// UNROLL: return
func.func @scatter_rows(%a: tensor<8x6xf32>, %b: tensor<6x5xf32>) -> tensor<2x5xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x5xf32>) -> tensor<8x5xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x6xf32>, tensor<6x5xf32>) outs(%z : tensor<8x5xf32>) -> tensor<8x5xf32>
  %s = spmd.psum_scatter %c over ["i"] dim 0 tiled : tensor<8x5xf32> -> tensor<2x5xf32>
  return %s : tensor<2x5xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// matmul -> psum_scatter along columns, integers, an arbitrary init.
// CHECK-LABEL: func.func @scatter_cols
// CHECK: tensor.extract_slice %arg2[0, %{{.*}}] [3, 2] [1, 1] : tensor<3x8xi32> to tensor<3x2xi32>
// CHECK: tensor.extract_slice %arg1[0, %{{.*}}] [6, 2] [1, 1] : tensor<6x8xi32> to tensor<6x2xi32>
// CHECK: scf.for
// CHECK:   spmd.ppermute
// CHECK:   arith.addi %{{.*}}, %{{.*}} : tensor<3x2xi32>
// Bidirectional: the top and bottom rows of each output chunk travel in
// opposite directions (3 rows: odd, so unidirectional here; see
// @scatter_cols_even).
// BIDIR-LABEL: func.func @scatter_cols
// BIDIR: scf.for {{.*}} -> (tensor<3x2xi32>)
func.func @scatter_cols(%a: tensor<3x6xi32>, %b: tensor<6x8xi32>, %init: tensor<3x8xi32>) -> tensor<3x2xi32>
    attributes {spmd.mesh = @mesh} {
  %c = linalg.matmul ins(%a, %b : tensor<3x6xi32>, tensor<6x8xi32>) outs(%init : tensor<3x8xi32>) -> tensor<3x8xi32>
  %s = spmd.psum_scatter %c over ["i"] dim 1 tiled : tensor<3x8xi32> -> tensor<3x2xi32>
  return %s : tensor<3x2xi32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// BIDIR-LABEL: func.func @scatter_cols_even
// BIDIR-DAG: %[[TOP:.*]] = tensor.extract_slice %arg0[0, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
// BIDIR-DAG: %[[BOTTOM:.*]] = tensor.extract_slice %arg0[2, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
// BIDIR: scf.for {{.*}} -> (tensor<2x2xf32>, tensor<2x2xf32>)
// BIDIR:   spmd.ppermute %{{.*}} over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<2x2xf32>
// BIDIR:   spmd.ppermute %{{.*}} over ["i"] pairs {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2x2xf32>
// BIDIR:   linalg.matmul ins(%[[TOP]], %{{.*}} : tensor<2x6xf32>, tensor<6x2xf32>)
// BIDIR:   linalg.matmul ins(%[[BOTTOM]], %{{.*}} : tensor<2x6xf32>, tensor<6x2xf32>)
// BIDIR: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x2xf32>
// BIDIR: tensor.insert_slice %{{.*}} into %{{.*}}[2, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x2xf32>
func.func @scatter_cols_even(%a: tensor<4x6xf32>, %b: tensor<6x8xf32>) -> tensor<4x2xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = spmd.psum_scatter %c over ["i"] dim 1 tiled : tensor<4x8xf32> -> tensor<4x2xf32>
  return %s : tensor<4x2xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// The threshold counts the bytes gathered (here 256 x 256 f32 = 256 KiB, at
// the threshold set below) or scattered.
// RUN: trellis-opt %s --spmd-collective-matmul=threshold-bytes=262144 --split-input-file | FileCheck %s --check-prefix=AT
// RUN: trellis-opt %s --spmd-collective-matmul=threshold-bytes=262145 --split-input-file | FileCheck %s --check-prefix=BELOW
// AT-LABEL: func.func @threshold
// AT-NOT: spmd.all_gather
// AT: scf.for
// BELOW-LABEL: func.func @threshold
// BELOW: spmd.all_gather
// THRESHOLD-LABEL: func.func @threshold
// THRESHOLD: spmd.all_gather
func.func @threshold(%x: tensor<64x256xf32>, %r: tensor<256x4xf32>, %init: tensor<256x4xf32>) -> tensor<256x4xf32>
    attributes {spmd.mesh = @mesh} {
  %g = spmd.all_gather %x over ["i"] dim 0 tiled : tensor<64x256xf32> -> tensor<256x256xf32>
  %c = linalg.matmul ins(%g, %r : tensor<256x256xf32>, tensor<256x4xf32>) outs(%init : tensor<256x4xf32>) -> tensor<256x4xf32>
  return %c : tensor<256x4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// Above the default threshold (1 MiB) the rewrite fires without force.
// THRESHOLD-LABEL: func.func @large
// THRESHOLD-NOT: spmd.psum_scatter
// THRESHOLD: scf.for
func.func @large(%a: tensor<512x64xf32>, %b: tensor<64x512xf32>, %init: tensor<512x512xf32>) -> tensor<128x512xf32>
    attributes {spmd.mesh = @mesh} {
  %c = linalg.matmul ins(%a, %b : tensor<512x64xf32>, tensor<64x512xf32>) outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = spmd.psum_scatter %c over ["i"] dim 0 tiled : tensor<512x512xf32> -> tensor<128x512xf32>
  return %s : tensor<128x512xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=1]>

// Left alone: the gathered value has another use; the gather is stacked
// (not tiled); the group has one device; the matmul result has another
// use; shapes are dynamic; the matmul is outside a manual region.
// CHECK-LABEL: func.func @no_match
// CHECK-COUNT-3: spmd.all_gather
// CHECK: spmd.psum_scatter
// CHECK: spmd.all_gather
// CHECK-NOT: scf.for
// CHECK: return
func.func @no_match(%x: tensor<2x8xf32>, %r: tensor<8x4xf32>, %init: tensor<8x4xf32>,
                    %s: tensor<8x8xf32>, %d: tensor<?x8xf32>, %dinit: tensor<?x4xf32>)
    -> (tensor<8x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<?x4xf32>)
    attributes {spmd.mesh = @mesh} {
  %g = spmd.all_gather %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
  %c = linalg.matmul ins(%g, %r : tensor<8x8xf32>, tensor<8x4xf32>) outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %x4 = tensor.extract_slice %x[0, 0] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  %st = spmd.all_gather %x4 over ["i"] dim 0 : tensor<2x2xf32> -> tensor<4x2x2xf32>
  %one = spmd.all_gather %s over ["j"] dim 0 tiled : tensor<8x8xf32> -> tensor<8x8xf32>
  %c1 = linalg.matmul ins(%one, %r : tensor<8x8xf32>, tensor<8x4xf32>) outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = linalg.matmul ins(%s, %r : tensor<8x8xf32>, tensor<8x4xf32>) outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %sc = spmd.psum_scatter %p over ["i"] dim 0 tiled : tensor<8x4xf32> -> tensor<2x4xf32>
  %dg = spmd.all_gather %d over ["i"] dim 1 tiled : tensor<?x8xf32> -> tensor<?x32xf32>
  %r32 = tensor.empty() : tensor<32x4xf32>
  %dc = linalg.matmul ins(%dg, %r32 : tensor<?x32xf32>, tensor<32x4xf32>) outs(%dinit : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %c, %g, %c1, %p, %sc, %init, %dc : tensor<8x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @outside
// CHECK: linalg.matmul
// CHECK-NOT: scf.for
func.func @outside(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

// A matmul with a gathered operand and a psum_scatter behind it: the
// all_gather is rewritten (the match takes it first) and the psum_scatter
// stays, behind the loop's last chunk matmul.
// CHECK-LABEL: func.func @gather_then_scatter
// CHECK-NOT: spmd.all_gather
// CHECK: scf.for
// CHECK: scf.yield
// CHECK: %[[LAST:.*]] = linalg.matmul
// CHECK-NEXT: spmd.psum_scatter %[[LAST]] over ["i"] dim 0 tiled
func.func @gather_then_scatter(%x: tensor<8x4xf32>, %w: tensor<16x8xf32>, %init: tensor<8x8xf32>)
    -> tensor<2x8xf32> attributes {spmd.mesh = @mesh} {
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x16xf32>
  %m = linalg.matmul ins(%g, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = spmd.psum_scatter %m over ["i"] dim 0 tiled : tensor<8x8xf32> -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}
