// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=2 threshold-bytes=0})' --split-input-file | FileCheck %s
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=2})' --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=4 threshold-bytes=0})' --split-input-file | FileCheck %s --check-prefix=FOUR
// RUN: trellis-opt %s --pass-pipeline='builtin.module(spmd-chunk-all-to-all{chunks=2 threshold-bytes=0},spmd-async-collectives{kinds=all})' --split-input-file | FileCheck %s --check-prefix=ASYNC

trellis.mesh @mesh = <["x"=4]>

// Seed 003's MoE experts: dispatch all_to_all, the rows of every expert's
// capacity collapsed into one matmul, expanded back, combine all_to_all.
// Two chunks of capacity rows (0-3, 4-7): each is sent, collapsed to 16
// rows, multiplied, expanded and sent back; the combined result is put
// back together along the capacity dimension. The zeros the matmul
// accumulates into are rebuilt at chunk size, through the pvary the
// variance check puts on them.
// CHECK-LABEL: func.func @experts
// CHECK-SAME: (%[[D:.*]]: tensor<4x8x16xf32>, %[[W:.*]]: tensor<16x8xf32>)
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[D]][0, 0, 0] [4, 4, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<4x4x16xf32>
// CHECK: %[[R0:.*]] = spmd.all_to_all %[[S0]] over ["x"] split 0 concat 0 : tensor<4x4x16xf32> -> tensor<4x4x16xf32>
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[D]][0, 4, 0] [4, 4, 16] [1, 1, 1]
// CHECK: %[[R1:.*]] = spmd.all_to_all %[[S1]] over ["x"] split 0 concat 0 : tensor<4x4x16xf32> -> tensor<4x4x16xf32>
// CHECK: %[[F0:.*]] = tensor.collapse_shape %[[R0]] {{\[}}[0, 1], [2]] : tensor<4x4x16xf32> into tensor<16x16xf32>
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK: %[[Z0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<16x8xf32>)
// CHECK: %[[V0:.*]] = spmd.pvary %[[Z0]] over ["x"] : tensor<16x8xf32>{{$}}
// CHECK: %[[M0:.*]] = linalg.matmul ins(%[[F0]], %[[W]] : tensor<16x16xf32>, tensor<16x8xf32>) outs(%[[V0]] : tensor<16x8xf32>)
// CHECK: %[[Y0:.*]] = tensor.expand_shape %[[M0]] {{\[}}[0, 1], [2]] output_shape [4, 4, 8] : tensor<16x8xf32> into tensor<4x4x8xf32>
// CHECK: %[[C0:.*]] = spmd.all_to_all %[[Y0]] over ["x"] split 0 concat 0 : tensor<4x4x8xf32> -> tensor<4x4x8xf32>
// CHECK: tensor.collapse_shape %[[R1]]
// CHECK: linalg.matmul
// CHECK: %[[C1:.*]] = spmd.all_to_all %{{.*}} over ["x"] split 0 concat 0 : tensor<4x4x8xf32> -> tensor<4x4x8xf32>
// CHECK: %[[ACC:.*]] = tensor.empty() : tensor<4x8x8xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[C0]] into %[[ACC]][0, 0, 0] [4, 4, 8] [1, 1, 1]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[C1]] into %[[I0]][0, 4, 0] [4, 4, 8] [1, 1, 1]
// CHECK-NOT: spmd.all_to_all
// CHECK: return %[[I1]] : tensor<4x8x8xf32>
//
// Below the default threshold (blocks of 64 KiB per member) nothing
// changes.
// SMALL-LABEL: func.func @experts
// SMALL-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x8x
// SMALL-NOT: tensor.extract_slice
//
// After spmd-async-collectives both dispatch chunks start before the
// first expert, each combine starts after its expert, and the combines
// are waited for after the last expert.
// ASYNC-LABEL: func.func @experts
// ASYNC: %[[A0:.*]] = spmd.all_to_all_start
// ASYNC: %[[A1:.*]] = spmd.all_to_all_start
// ASYNC: spmd.collective_wait %[[A0]]
// ASYNC: linalg.matmul
// ASYNC: %[[B0:.*]] = spmd.all_to_all_start
// ASYNC: spmd.collective_wait %[[A1]]
// ASYNC: linalg.matmul
// ASYNC: %[[B1:.*]] = spmd.all_to_all_start
// ASYNC: spmd.collective_wait %[[B0]]
// ASYNC: spmd.collective_wait %[[B1]]
// ASYNC: return
func.func @experts(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  %e = tensor.empty() : tensor<32x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x8xf32>) -> tensor<32x8xf32>
  %v = spmd.pvary %z over ["x"] : tensor<32x8xf32> -> tensor<32x8xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<32x16xf32>, tensor<16x8xf32>) outs(%v : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = tensor.expand_shape %m [[0, 1], [2]] output_shape [4, 8, 8] : tensor<32x8xf32> into tensor<4x8x8xf32>
  %c = spmd.all_to_all %y over ["x"] split 0 concat 0 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  return %c : tensor<4x8x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// The experts as an einsum (linalg.generic, as the StableHLO importer
// writes dot_general) and an elementwise op, ending in a value whose
// capacity rows are collapsed with the expert dimension: the chunks of a
// collapsed value are not contiguous, so each is expanded, inserted along
// the capacity dimension and the whole collapsed again.
// CHECK-LABEL: func.func @collapsed_exit
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x16xf32> -> tensor<4x4x16xf32>
// CHECK: %[[G0:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x4x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<4x4x8xf32>)
// CHECK: %[[T0:.*]] = math.tanh %[[G0]] : tensor<4x4x8xf32>
// CHECK: %[[K0:.*]] = tensor.collapse_shape %[[T0]] {{\[}}[0, 1], [2]] : tensor<4x4x8xf32> into tensor<16x8xf32>
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: %[[K1:.*]] = tensor.collapse_shape %{{.*}} into tensor<16x8xf32>
// CHECK: %[[ACC:.*]] = tensor.empty() : tensor<4x8x8xf32>
// CHECK: %[[X0:.*]] = tensor.expand_shape %[[K0]] {{\[}}[0, 1], [2]] output_shape [4, 4, 8] : tensor<16x8xf32> into tensor<4x4x8xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[X0]] into %[[ACC]][0, 0, 0] [4, 4, 8]
// CHECK: %[[X1:.*]] = tensor.expand_shape %[[K1]]
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[X1]] into %[[I0]][0, 4, 0] [4, 4, 8]
// CHECK: %[[WHOLE:.*]] = tensor.collapse_shape %[[I1]] {{\[}}[0, 1], [2]] : tensor<4x8x8xf32> into tensor<32x8xf32>
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[WHOLE]] : tensor<32x8xf32>)
// CHECK: return %[[S]]
#a = affine_map<(e, c, f, d) -> (e, c, d)>
#b = affine_map<(e, c, f, d) -> (d, f)>
#o = affine_map<(e, c, f, d) -> (e, c, f)>
func.func @collapsed_exit(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %g = linalg.generic {indexing_maps = [#a, #b, #o],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%r, %w : tensor<4x8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %t = math.tanh %g : tensor<4x8x8xf32>
  %k = tensor.collapse_shape %t [[0, 1], [2]] : tensor<4x8x8xf32> into tensor<32x8xf32>
  // A running average over the rows depends on their order (it is not a
  // sum), so it cannot be split into chunks: the chain stops here.
  %half = arith.constant 0.5 : f32
  %se = tensor.empty() : tensor<8xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                         iterator_types = ["reduction", "parallel"]}
      ins(%k : tensor<32x8xf32>) outs(%sz : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %h = arith.mulf %acc, %half : f32
    %s = arith.addf %h, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// A sum over all the collapsed rows reduces along the chunk: it runs once
// per chunk, right after the chunk's experts, chunk 0 into the original
// zeros and chunk 1 into chunk 0's sums (the rows of a chunk are not
// contiguous, which a sum does not mind). Nothing is put back together.
// CHECK-LABEL: func.func @sum_sink
// CHECK: %[[S0:.*]] = linalg.fill {{.*}} -> tensor<8xf32>
// CHECK: %[[K0:.*]] = tensor.collapse_shape %{{.*}} : tensor<4x4x8xf32> into tensor<16x8xf32>
// CHECK: %[[P0:.*]] = linalg.generic {{.*}} ins(%[[K0]] : tensor<16x8xf32>) outs(%[[S0]] : tensor<8xf32>)
// CHECK: %[[K1:.*]] = tensor.collapse_shape %{{.*}} : tensor<4x4x8xf32> into tensor<16x8xf32>
// CHECK: %[[P1:.*]] = linalg.generic {{.*}} ins(%[[K1]] : tensor<16x8xf32>) outs(%[[P0]] : tensor<8xf32>)
// CHECK-NOT: tensor.insert_slice
// CHECK: math.sqrt %[[P1]]
func.func @sum_sink(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(e, c, f, d) -> (e, c, d)>, affine_map<(e, c, f, d) -> (d, f)>, affine_map<(e, c, f, d) -> (e, c, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%r, %w : tensor<4x8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %t = math.tanh %g : tensor<4x8x8xf32>
  %k = tensor.collapse_shape %t [[0, 1], [2]] : tensor<4x8x8xf32> into tensor<32x8xf32>
  %se = tensor.empty() : tensor<8xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                         iterator_types = ["reduction", "parallel"]}
      ins(%k : tensor<32x8xf32>) outs(%sz : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  // Whatever reads the sums comes after the last chunk's.
  %n = math.sqrt %sum : tensor<8xf32>
  return %n : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// A chunk count that does not divide the capacity is lowered to the
// largest one up to it that does: chunks=4 on 6 rows gives 3 chunks of 2.
// Where none does (5 rows), the capacity is not chunked; the 16 columns,
// which the matmul contracts, are instead (4 chunks of 4, each multiplied
// by its rows of the weight and added to the chunks before).
// FOUR-LABEL: func.func @odd
// FOUR-COUNT-3: spmd.all_to_all %{{.*}} : tensor<4x2x16xf32> -> tensor<4x2x16xf32>
// FOUR-NOT: spmd.all_to_all
// FOUR-LABEL: func.func @prime
// FOUR-COUNT-4: spmd.all_to_all %{{.*}} : tensor<4x5x4xf32> -> tensor<4x5x4xf32>
// FOUR-NOT: spmd.all_to_all
// FOUR-COUNT-4: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<20x4xf32>, tensor<4x8xf32>)
// FOUR-LABEL: func.func @contracted
func.func @odd(%d: tensor<4x6x16xf32>, %w: tensor<16x8xf32>) -> tensor<24x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x6x16xf32> -> tensor<4x6x16xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x6x16xf32> into tensor<24x16xf32>
  %e = tensor.empty() : tensor<24x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<24x8xf32>) -> tensor<24x8xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<24x16xf32>, tensor<16x8xf32>) outs(%z : tensor<24x8xf32>) -> tensor<24x8xf32>
  return %m : tensor<24x8xf32>
}

func.func @prime(%d: tensor<4x5x16xf32>, %w: tensor<16x8xf32>) -> tensor<20x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x5x16xf32> -> tensor<4x5x16xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x5x16xf32> into tensor<20x16xf32>
  %e = tensor.empty() : tensor<20x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<20x8xf32>) -> tensor<20x8xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<20x16xf32>, tensor<16x8xf32>) outs(%z : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %m : tensor<20x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// The only free dimension is contracted by the matmul (a reduction
// loop): chunk j multiplies its columns by the weight's rows j and adds
// to the product of the chunks before it.
// CHECK-LABEL: func.func @contracted
// CHECK: %[[A0:.*]] = spmd.all_to_all %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: %[[A1:.*]] = spmd.all_to_all %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[W:.*]][0, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
// CHECK: %[[M0:.*]] = linalg.matmul ins(%[[A0]], %[[W0]] : {{.*}}) outs(%[[Z]] : tensor<4x8xf32>)
// CHECK: %[[W1:.*]] = tensor.extract_slice %[[W]][8, 0] [8, 8] [1, 1]
// CHECK: %[[M1:.*]] = linalg.matmul ins(%[[A1]], %[[W1]] : {{.*}}) outs(%[[M0]] : tensor<4x8xf32>)
// CHECK: return %[[M1]]
func.func @contracted(%d: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x16xf32> -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%r, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// Left alone: an all_to_all that feeds no compute, and an expert whose
// body reads the index of every loop it could be chunked along.
// CHECK-LABEL: func.func @no_compute
// CHECK-NEXT: spmd.all_to_all %{{.*}} : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NEXT: return
func.func @no_compute(%d: tensor<4x8x16xf32>) -> tensor<32x16xf32>
    attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  return %flat : tensor<32x16xf32>
}

// CHECK-LABEL: func.func @reads_index
// CHECK-COUNT-1: spmd.all_to_all %{{.*}} : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NOT: tensor.extract_slice
#m3 = affine_map<(e, c, d) -> (e, c, d)>
func.func @reads_index(%d: tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %g = linalg.generic {indexing_maps = [#m3, #m3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %c = linalg.index 1 : index
    %f = linalg.index 2 : index
    %cf2 = arith.addi %c, %f : index
    %ci = arith.index_cast %cf2 : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %y = arith.mulf %x, %cf : f32
    linalg.yield %y : f32
  } -> tensor<4x8x16xf32>
  return %g : tensor<4x8x16xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// A collapsed capacity dimension may only come apart along its own
// factors: expanding the 32 rows into 8x4 ends the chunked ops before the
// expand (the matmul is still chunked; its rows are put back together).
// CHECK-LABEL: func.func @other_factors
// CHECK-COUNT-2: linalg.matmul {{.*}} -> tensor<16x8xf32>
// CHECK: %[[WHOLE:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<4x8x8xf32> into tensor<32x8xf32>
// CHECK: tensor.expand_shape %[[WHOLE]] {{\[}}[0, 1], [2]] output_shape [8, 4, 8]
func.func @other_factors(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x4x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  %e = tensor.empty() : tensor<32x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x8xf32>) -> tensor<32x8xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<32x16xf32>, tensor<16x8xf32>) outs(%z : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = tensor.expand_shape %m [[0, 1], [2]] output_shape [8, 4, 8] : tensor<32x8xf32> into tensor<8x4x8xf32>
  return %y : tensor<8x4x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// A per-slot scale (an outside operand along the capacity loop) cannot be
// chunked along the capacity: the dimension after it, which the matmul
// contracts, is chunked through the scale instead (slices of 8 of the 16
// columns), and the matmul, reducing along it, takes the weight's rows of
// each chunk.
// CHECK-LABEL: func.func @outside_along_loop
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [4, 8, 8]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 8] [4, 8, 8]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8x8xf32>, tensor<8xf32>)
// CHECK: %[[M0:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x8xf32>, tensor<8x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8x8xf32>, tensor<8xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x8xf32>, tensor<8x8xf32>) outs(%[[M0]] : tensor<32x8xf32>)
// CHECK-NOT: tensor.insert_slice
#id = affine_map<(e, c, d) -> (e, c, d)>
#slot = affine_map<(e, c, d) -> (c)>
func.func @outside_along_loop(%d: tensor<4x8x16xf32>, %s: tensor<8xf32>, %w: tensor<16x8xf32>) -> tensor<32x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %g = linalg.generic {indexing_maps = [#id, #slot, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %s : tensor<4x8x16xf32>, tensor<8xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<4x8x16xf32>
  %flat = tensor.collapse_shape %g [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  %me = tensor.empty() : tensor<32x8xf32>
  %mz = linalg.fill ins(%zero : f32) outs(%me : tensor<32x8xf32>) -> tensor<32x8xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<32x16xf32>, tensor<16x8xf32>) outs(%mz : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %m : tensor<32x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// The chunked ops end at an elementwise op with an outside tensor, at an
// all_to_all that splits the chunked dimension, and at a linalg op whose
// body reads a chunked value: each reads the reassembled whole.
// CHECK-LABEL: func.func @stops
// CHECK-COUNT-2: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x4x8xf32>)
// CHECK: %[[ACC:.*]] = tensor.empty() : tensor<4x8x8xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %{{.*}} into %[[ACC]][0, 0, 0] [4, 4, 8]
// CHECK: %[[WHOLE:.*]] = tensor.insert_slice %{{.*}} into %[[I0]][0, 4, 0] [4, 4, 8]
// CHECK: arith.addf %[[WHOLE]], %{{.*}} : tensor<4x8x8xf32>
// CHECK: spmd.all_to_all %[[WHOLE]] over ["x"] split 1 concat 1 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
// CHECK: tensor.extract %[[WHOLE]]
#a = affine_map<(e, c, f, d) -> (e, c, d)>
#b = affine_map<(e, c, f, d) -> (d, f)>
#o = affine_map<(e, c, f, d) -> (e, c, f)>
#id1 = affine_map<(i) -> (i)>
func.func @stops(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>, %other: tensor<4x8x8xf32>, %v: tensor<4xf32>)
    -> (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4xf32>) attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %g = linalg.generic {indexing_maps = [#a, #b, #o],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%r, %w : tensor<4x8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %sum = arith.addf %g, %other : tensor<4x8x8xf32>
  %back = spmd.all_to_all %g over ["x"] split 1 concat 1 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %ve = tensor.empty() : tensor<4xf32>
  %read = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : tensor<4xf32>) outs(%ve : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %t = tensor.extract %g[%i, %c0, %c0] : tensor<4x8x8xf32>
    %y = arith.addf %x, %t : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %sum, %back, %read : tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// Left alone: an op that reads the chunked value along two loops (straight
// and transposed), an expert whose body holds a collective (it would run
// once per chunk), and an all_to_all of complex elements.
// CHECK-LABEL: func.func @two_loops
// CHECK-NOT: tensor.extract_slice
// CHECK-LABEL: func.func @collective_in_body
// CHECK-NOT: tensor.extract_slice
// CHECK-LABEL: func.func @complex
// CHECK-NOT: tensor.extract_slice
// CHECK-LABEL: func.func @two_seeds
#id3 = affine_map<(a, b, c) -> (a, b, c)>
#tr = affine_map<(a, b, c) -> (a, c, b)>
func.func @two_loops(%d: tensor<4x8x8xf32>) -> tensor<4x8x8xf32> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %t = linalg.generic {indexing_maps = [#id3, #tr, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %r : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  return %t : tensor<4x8x8xf32>
}

func.func @collective_in_body(%d: tensor<4x8x16xf32>, %q: tensor<4x2xf32>) -> tensor<4x8x16xf32>
    attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %g = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = spmd.all_to_all %q over ["x"] split 0 concat 1 : tensor<4x2xf32> -> tensor<1x8xf32>
    %c0 = arith.constant 0 : index
    %v = tensor.extract %n[%c0, %c0] : tensor<1x8xf32>
    %y = arith.addf %x, %v : f32
    linalg.yield %y : f32
  } -> tensor<4x8x16xf32>
  return %g : tensor<4x8x16xf32>
}

func.func @complex(%d: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> attributes {spmd.mesh = @mesh} {
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
  return %r : tensor<4x8xcomplex<f32>>
}

// Two independent blocks in one function: each is chunked.
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x16xf32> -> tensor<4x4x16xf32>
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x8xf32> -> tensor<4x4x8xf32>
// CHECK-NOT: spmd.all_to_all
func.func @two_seeds(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>, %d2: tensor<4x8x8xf32>)
    -> (tensor<4x8x8xf32>, tensor<4x8x8xf32>) attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(e, c, f, d) -> (e, c, d)>, affine_map<(e, c, f, d) -> (d, f)>, affine_map<(e, c, f, d) -> (e, c, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%r, %w : tensor<4x8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8x8xf32>
  %r2 = spmd.all_to_all %d2 over ["x"] split 0 concat 0 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %t = math.exp %r2 : tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x8xf32>
  %c = linalg.copy ins(%t : tensor<4x8x8xf32>) outs(%e2 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %g, %c : tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// The dispatch that computes the all_to_all's operand (mask^T @ tokens,
// rows of [experts * capacity]) is chunked too: each chunk multiplies the
// mask's columns of its capacity slots (the mask expanded to [t, e, c],
// sliced along c and collapsed again) and sends its rows as soon as they
// are computed. The tokens are read whole; the mask stays for the
// combine.
// CHECK-LABEL: func.func @dispatch
// CHECK-SAME: (%[[M:.*]]: tensor<8x32xf32>, %[[A:.*]]: tensor<8x16xf32>, %[[W:.*]]: tensor<16x8xf32>)
// CHECK-NOT: outs(%{{.*}} : tensor<32x16xf32>)
// CHECK: %[[MX0:.*]] = tensor.expand_shape %[[M]] {{\[}}[0], [1, 2]] output_shape [8, 4, 8] : tensor<8x32xf32> into tensor<8x4x8xf32>
// CHECK: %[[MS0:.*]] = tensor.extract_slice %[[MX0]][0, 0, 0] [8, 4, 4] [1, 1, 1]
// CHECK: %[[MC0:.*]] = tensor.collapse_shape %[[MS0]] {{\[}}[0], [1, 2]] : tensor<8x4x4xf32> into tensor<8x16xf32>
// CHECK: %[[D0:.*]] = linalg.matmul {{.*}} ins(%[[MC0]], %[[A]] : tensor<8x16xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK: %[[E0:.*]] = tensor.expand_shape %[[D0]] {{\[}}[0, 1], [2]] output_shape [4, 4, 16] : tensor<16x16xf32> into tensor<4x4x16xf32>
// CHECK: spmd.all_to_all %[[E0]] over ["x"] split 0 concat 0 : tensor<4x4x16xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 4] [8, 4, 4] [1, 1, 1]
// CHECK: linalg.matmul
// CHECK: spmd.all_to_all %{{.*}} over ["x"] split 0 concat 0 : tensor<4x4x16xf32>
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x8xf32> -> tensor<4x4x8xf32>
// The combine (mask @ rows) sums over the capacity slots: chunk j takes
// the mask's columns of its slots and adds to chunk j - 1's result.
// CHECK: %[[CX0:.*]] = tensor.expand_shape %[[M]] {{\[}}[0], [1, 2]] output_shape [8, 4, 8]
// CHECK: tensor.extract_slice %[[CX0]][0, 0, 0] [8, 4, 4]
// CHECK: %[[C0:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: %[[CX1:.*]] = tensor.expand_shape %[[M]]
// CHECK: tensor.extract_slice %[[CX1]][0, 0, 4] [8, 4, 4]
// CHECK: %[[C1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>) outs(%[[C0]] : tensor<8x8xf32>)
// CHECK: return %[[C1]]
func.func @dispatch(%m: tensor<8x32xf32>, %a: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %de = tensor.empty() : tensor<32x16xf32>
  %d0 = linalg.fill ins(%zero : f32) outs(%de : tensor<32x16xf32>) -> tensor<32x16xf32>
  %disp = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                         affine_map<(m, n, k) -> (k, n)>,
                                         affine_map<(m, n, k) -> (m, n)>]
      ins(%m, %a : tensor<8x32xf32>, tensor<8x16xf32>) outs(%d0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %d3 = tensor.expand_shape %disp [[0, 1], [2]] output_shape [4, 8, 16] : tensor<32x16xf32> into tensor<4x8x16xf32>
  %r = spmd.all_to_all %d3 over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %flat = tensor.collapse_shape %r [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  %ye = tensor.empty() : tensor<32x8xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = linalg.matmul ins(%flat, %w : tensor<32x16xf32>, tensor<16x8xf32>) outs(%y0 : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [4, 8, 8] : tensor<32x8xf32> into tensor<4x8x8xf32>
  %c3 = spmd.all_to_all %y3 over ["x"] split 0 concat 0 : tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %combined = tensor.collapse_shape %c3 [[0, 1], [2]] : tensor<4x8x8xf32> into tensor<32x8xf32>
  %oe = tensor.empty() : tensor<8x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%m, %combined : tensor<8x32xf32>, tensor<32x8xf32>) outs(%o0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=2]>

// A producer that reads its input both along the chunk (d[m, k]) and
// whole (the column sums, sum_n d[n, k]): each chunk gets its rows (the
// rows of its capacity slots, through the factors [2, 4]) for the first
// read and the whole value for the second.
// CHECK-LABEL: func.func @whole_reads
// CHECK-SAME: (%[[D:.*]]: tensor<8x8xf32>,
// CHECK: %[[X0:.*]] = tensor.expand_shape %[[D]] {{\[}}[0, 1], [2]] output_shape [2, 4, 8]
// CHECK: %[[E0:.*]] = tensor.extract_slice %[[X0]][0, 0, 0] [2, 2, 8] [1, 1, 1]
// CHECK: %[[S0:.*]] = tensor.collapse_shape %[[E0]] {{\[}}[0, 1], [2]] : tensor<2x2x8xf32> into tensor<4x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[S0]], %[[D]] : tensor<4x8xf32>, tensor<8x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: spmd.all_to_all
// CHECK: tensor.extract_slice %{{.*}}[0, 2, 0] [2, 2, 8] [1, 1, 1]
// CHECK: %[[S1:.*]] = tensor.collapse_shape
// CHECK: linalg.generic {{.*}} ins(%[[S1]], %[[D]] : tensor<4x8xf32>, tensor<8x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
func.func @whole_reads(%d: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (n, k)>, affine_map<(m, k, n) -> (m, k)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %d : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z0 : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<8x8xf32>
  %x = tensor.expand_shape %s [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %r = spmd.all_to_all %x over ["x"] split 0 concat 0 : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %f = tensor.collapse_shape %r [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%f, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// Integer sums along the chunk: wrapping ones are chunked; one marked nsw
// is not (a partial sum in another order could overflow, and be poison,
// where the whole did not).
// CHECK-LABEL: func.func @int_sum
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x8xi32> -> tensor<4x8xi32>
// CHECK: %[[S0:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xi32>) outs(%{{.*}} : tensor<4xi32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xi32>) outs(%[[S0]] : tensor<4xi32>)
// CHECK-LABEL: func.func @int_sum_nsw
// CHECK-COUNT-1: spmd.all_to_all %{{.*}} : tensor<4x16xi32> -> tensor<4x16xi32>
// CHECK-NOT: tensor.extract_slice
#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @int_sum(%d: tensor<4x16xi32>) -> tensor<4xi32> attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : i32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x16xi32> -> tensor<4x16xi32>
  %e = tensor.empty() : tensor<4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<4x16xi32>) outs(%z : tensor<4xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %a = arith.addi %acc, %x : i32
    linalg.yield %a : i32
  } -> tensor<4xi32>
  return %s : tensor<4xi32>
}

func.func @int_sum_nsw(%d: tensor<4x16xi32>) -> tensor<4xi32> attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : i32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x16xi32> -> tensor<4x16xi32>
  %e = tensor.empty() : tensor<4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<4x16xi32>) outs(%z : tensor<4xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %a = arith.addi %acc, %x overflow<nsw> : i32
    linalg.yield %a : i32
  } -> tensor<4xi32>
  return %s : tensor<4xi32>
}

// -----

trellis.mesh @mesh = <["x"=4]>

// A reassociation the tensor verifier lets through (it reads 4294967296
// as 0, modulo 2^32; found by fuzzing) ends the chunks at the reshape: the
// producer before it stays whole, and a consumer after it is not chunked.
// CHECK-LABEL: func.func @malformed_producer
// CHECK: linalg.matmul {{.*}} -> tensor<32x16xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[4294967296, 1], [2]]
// CHECK-COUNT-2: spmd.all_to_all %{{.*}} : tensor<4x4x16xf32> -> tensor<4x4x16xf32>
// CHECK-LABEL: func.func @malformed_consumer
// CHECK-COUNT-1: spmd.all_to_all %{{.*}} : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NOT: tensor.extract_slice
// CHECK: return
#e3 = affine_map<(a, b, c) -> (a, b, c)>
func.func @malformed_producer(%m: tensor<8x32xf32>, %a: tensor<8x16xf32>) -> tensor<4x8x16xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %de = tensor.empty() : tensor<32x16xf32>
  %d0 = linalg.fill ins(%zero : f32) outs(%de : tensor<32x16xf32>) -> tensor<32x16xf32>
  %disp = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                         affine_map<(m, n, k) -> (k, n)>,
                                         affine_map<(m, n, k) -> (m, n)>]
      ins(%m, %a : tensor<8x32xf32>, tensor<8x16xf32>) outs(%d0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %d3 = tensor.expand_shape %disp [[4294967296, 1], [2]] output_shape [4, 8, 16] : tensor<32x16xf32> into tensor<4x8x16xf32>
  %r = spmd.all_to_all %d3 over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %g = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<4x8x16xf32>) outs(%e : tensor<4x8x16xf32>) {
  ^bb0(%x: f32, %unused: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8x16xf32>
  return %g : tensor<4x8x16xf32>
}

func.func @malformed_consumer(%d: tensor<4x8x16xf32>, %w: tensor<16x8xf32>) -> tensor<32x8xf32>
    attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %r = spmd.all_to_all %d over ["x"] split 0 concat 0 : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  %flat = tensor.collapse_shape %r [[4294967296, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  %ye = tensor.empty() : tensor<32x8xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%ye : tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = linalg.matmul ins(%flat, %w : tensor<32x16xf32>, tensor<16x8xf32>) outs(%y0 : tensor<32x8xf32>) -> tensor<32x8xf32>
  return %y : tensor<32x8xf32>
}
