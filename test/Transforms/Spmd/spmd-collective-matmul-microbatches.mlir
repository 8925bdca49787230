// RUN: trellis-opt %s --spmd-collective-matmul="force microbatches=2" --split-input-file | FileCheck %s
// RUN: trellis-opt %s --spmd-collective-matmul="force microbatches=2" --split-input-file | FileCheck %s --check-prefix=ORDER
// RUN: trellis-opt %s --spmd-collective-matmul="force microbatches=2" --split-input-file | FileCheck %s --check-prefix=DIRS
// RUN: trellis-opt %s --spmd-collective-matmul="force microbatches=3" --split-input-file | FileCheck %s --check-prefix=ODD
// RUN: trellis-opt %s --spmd-collective-matmul="microbatches=2" --split-input-file | FileCheck %s --check-prefix=THRESHOLD
// With remarks, each all_gather and psum_scatter of a chain is reported
// once, not once per row block (8 in this file).
// RUN: trellis-opt %s --spmd-collective-matmul="force microbatches=2 remarks" --split-input-file -o /dev/null 2>&1 | grep 'remark: rewritten as a collective matmul' | sort | uniq -d | count 0
// RUN: trellis-opt %s --spmd-collective-matmul="force microbatches=2 remarks" --split-input-file -o /dev/null 2>&1 | grep -c 'remark: rewritten as a collective matmul' | FileCheck %s --check-prefix=REMARKS
// REMARKS: {{^8$}}

trellis.mesh @mesh = <["i"=4]>

#id = affine_map<(d0, d1) -> (d0, d1)>

// Seed 003's FFN block on a device of a 4-device ring: x[8, 4] gathered to
// [8, 16] along the contracting dimension, the up-projection, an
// elementwise op, the down-projection reduce-scattered along columns.
// With microbatches=2 it becomes two chains on rows 0-3 and 4-7, unrolled
// (no scf.for), whose results are stacked.
// CHECK-LABEL: func.func @ffn
// CHECK-NOT: spmd.all_gather
// CHECK-NOT: scf.for
// CHECK-NOT: spmd.psum_scatter
// Per block: 4 up-projection chunk matmuls and 4 partial products.
// CHECK-COUNT-16: linalg.matmul
// CHECK-NOT: linalg.matmul
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK: %[[TOP:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x4xf32>
// CHECK: %[[ALL:.*]] = tensor.insert_slice %{{.*}} into %[[TOP]][4, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x4xf32>
// CHECK: return %[[ALL]]

// The blocks interleave with a skew of n - 2 = 2 steps: block 1 starts
// gathering (its own chunk, then the first one received) before block 0's
// last gather step and elementwise op, and block 0's reduce-scatter steps
// alternate with block 1's remaining gather steps.
// ORDER-LABEL: func.func @ffn
// ORDER: %[[X0:.*]] = tensor.extract_slice %arg0[0, 0] [4, 4]
// ORDER: linalg.matmul ins(%[[X0]], %{{.*}} : tensor<4x4xf32>, tensor<4x2xf32>)
// ORDER: %[[A1:.*]] = spmd.ppermute %[[X0]]
// ORDER: %[[A2:.*]] = spmd.ppermute %[[A1]]
// ORDER: %[[X1:.*]] = tensor.extract_slice %arg0[4, 0] [4, 4]
// ORDER: %[[B1:.*]] = spmd.ppermute %[[X1]]
// ORDER: %[[A3:.*]] = spmd.ppermute %[[A2]]
// ORDER: %[[B2:.*]] = spmd.ppermute %[[B1]]
// ORDER: %[[UP0:.*]] = linalg.matmul ins(%[[A3]], %{{.*}} : tensor<4x4xf32>, tensor<4x2xf32>)
// ORDER: %[[G0:.*]] = linalg.generic {{.*}} ins(%[[UP0]] : tensor<4x2xf32>)
// ORDER: %[[P0:.*]] = linalg.matmul ins(%[[G0]], %{{.*}} : tensor<4x2xf32>, tensor<2x4xf32>)
// ORDER: %[[B3:.*]] = spmd.ppermute %[[B2]]
// ORDER: %[[R1:.*]] = spmd.ppermute %[[P0]]
// ORDER: %[[S1:.*]] = arith.addf %[[R1]], %{{.*}} : tensor<4x4xf32>
// ORDER: %[[UP1:.*]] = linalg.matmul ins(%[[B3]], %{{.*}} : tensor<4x4xf32>, tensor<4x2xf32>)
// ORDER: %[[G1:.*]] = linalg.generic {{.*}} ins(%[[UP1]] : tensor<4x2xf32>)
// ORDER: %[[R2:.*]] = spmd.ppermute %[[S1]]
// ORDER: return

// The two rings go opposite ways, so block 1's gather hops and block 0's
// reduce-scatter hops, in flight together, use different directions of
// each link: chunks of x to the left, partial sums to the right.
// DIRS-LABEL: func.func @ffn
// DIRS: %[[X0:.*]] = tensor.extract_slice %arg0[0, 0] [4, 4]
// DIRS: spmd.ppermute %[[X0]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x4xf32>
// DIRS: %[[X1:.*]] = tensor.extract_slice %arg0[4, 0] [4, 4]
// DIRS: spmd.ppermute %[[X1]] over ["i"] pairs {{\[\[}}0, 3], [1, 0], [2, 1], [3, 2]] : tensor<4x4xf32>
// DIRS: %[[P0:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<2x4xf32>)
// DIRS: spmd.ppermute %[[P0]] over ["i"] pairs {{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]] : tensor<4x4xf32>

// microbatches=3 does not divide 8 rows: the chain is rewritten whole, as
// without the option.
// ODD-LABEL: func.func @ffn
// ODD-COUNT-2: scf.for
// ODD-NOT: tensor.insert_slice %{{.*}} into %{{.*}}[4, 0] [4, 4]

// Below the threshold (and without force) nothing changes.
// THRESHOLD-LABEL: func.func @ffn
// THRESHOLD: spmd.all_gather
// THRESHOLD: spmd.psum_scatter
func.func @ffn(%x: tensor<8x4xf32>, %wu: tensor<16x2xf32>, %wd: tensor<2x16xf32>)
    -> tensor<8x4xf32> attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x16xf32>
  %he = tensor.empty() : tensor<8x2xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<8x2xf32>) -> tensor<8x2xf32>
  %h = linalg.matmul ins(%g, %wu : tensor<8x16xf32>, tensor<16x2xf32>)
                     outs(%h0 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %ae = tensor.empty() : tensor<8x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x2xf32>) outs(%ae : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %pe = tensor.empty() : tensor<8x16xf32>
  %p0 = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%a, %wd : tensor<8x2xf32>, tensor<2x16xf32>)
                     outs(%p0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = spmd.psum_scatter %p over ["i"] dim 1 tiled : tensor<8x16xf32> -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

#id = affine_map<(d0, d1) -> (d0, d1)>

// Two elementwise ops between the matmuls: both are split.
// CHECK-LABEL: func.func @two_elementwise
// CHECK-COUNT-4: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x2xf32>)
// CHECK-NOT: spmd.psum_scatter
func.func @two_elementwise(%x: tensor<8x4xf32>, %wu: tensor<16x2xf32>, %wd: tensor<2x16xf32>)
    -> tensor<8x4xf32> attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x16xf32>
  %he = tensor.empty() : tensor<8x2xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<8x2xf32>) -> tensor<8x2xf32>
  %h = linalg.matmul ins(%g, %wu : tensor<8x16xf32>, tensor<16x2xf32>)
                     outs(%h0 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %ae = tensor.empty() : tensor<8x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x2xf32>) outs(%ae : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %be = tensor.empty() : tensor<8x2xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x2xf32>) outs(%be : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %pe = tensor.empty() : tensor<8x16xf32>
  %p0 = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%b, %wd : tensor<8x2xf32>, tensor<2x16xf32>)
                     outs(%p0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = spmd.psum_scatter %p over ["i"] dim 1 tiled : tensor<8x16xf32> -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

#id = affine_map<(d0, d1) -> (d0, d1)>

// An elementwise op that reads its row index (linalg.index) would see
// other indices in a row block: the chain is not split, each collective is
// rewritten as without the option.
// CHECK-LABEL: func.func @uses_index
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8x2xf32>)
// CHECK: scf.for
func.func @uses_index(%x: tensor<8x4xf32>, %wu: tensor<16x2xf32>, %wd: tensor<2x16xf32>)
    -> tensor<8x4xf32> attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x16xf32>
  %he = tensor.empty() : tensor<8x2xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<8x2xf32>) -> tensor<8x2xf32>
  %h = linalg.matmul ins(%g, %wu : tensor<8x16xf32>, tensor<16x2xf32>)
                     outs(%h0 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %ae = tensor.empty() : tensor<8x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x2xf32>) outs(%ae : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.addf %v, %f : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %pe = tensor.empty() : tensor<8x16xf32>
  %p0 = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%a, %wd : tensor<8x2xf32>, tensor<2x16xf32>)
                     outs(%p0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = spmd.psum_scatter %p over ["i"] dim 1 tiled : tensor<8x16xf32> -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>

#id = affine_map<(d0, d1) -> (d0, d1)>

// An elementwise op whose body reads a tensor from outside is not split
// either (a row block's clone would read the same tensor, which is safe
// here, but a body reading the chain's own tensors would not be).
// CHECK-LABEL: func.func @captures_tensor
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8x2xf32>)
// CHECK: scf.for
func.func @captures_tensor(%x: tensor<8x4xf32>, %wu: tensor<16x2xf32>, %wd: tensor<2x16xf32>,
                           %t: tensor<4xf32>) -> tensor<8x4xf32> attributes {spmd.mesh = @mesh} {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %g = spmd.all_gather %x over ["i"] dim 1 tiled : tensor<8x4xf32> -> tensor<8x16xf32>
  %he = tensor.empty() : tensor<8x2xf32>
  %h0 = linalg.fill ins(%zero : f32) outs(%he : tensor<8x2xf32>) -> tensor<8x2xf32>
  %h = linalg.matmul ins(%g, %wu : tensor<8x16xf32>, tensor<16x2xf32>)
                     outs(%h0 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %ae = tensor.empty() : tensor<8x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x2xf32>) outs(%ae : tensor<8x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %b = tensor.extract %t[%c1] : tensor<4xf32>
    %r = arith.addf %v, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %pe = tensor.empty() : tensor<8x16xf32>
  %p0 = linalg.fill ins(%zero : f32) outs(%pe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%a, %wd : tensor<8x2xf32>, tensor<2x16xf32>)
                     outs(%p0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = spmd.psum_scatter %p over ["i"] dim 1 tiled : tensor<8x16xf32> -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}
