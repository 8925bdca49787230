// RUN: trellis-opt %s --trellis-linalg-to-kernels | FileCheck %s

// CHECK-DAG: func.func private @trellis_rt_matmul(i32, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

// linalg.matmul on row-major buffers: batch 1, M=2, N=4, K=3; A row stride 3.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[M:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 3 : i64
// CHECK: call @trellis_rt_matmul(%[[F32]], %[[ONE]], %[[M]], %[[N]], %[[K]],
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// A generic contraction with a transposed B (n, k) and a batch dimension.
// CHECK-LABEL: func.func @batched_transposed
// CHECK: %[[BATCH:.*]] = arith.constant 5 : i64
// CHECK: call @trellis_rt_matmul(%{{.*}}, %[[BATCH]],
// CHECK-NOT: linalg.generic
func.func @batched_transposed(%a: memref<5x2x3xf64>, %b: memref<5x4x3xf64>, %c: memref<5x2x4xf64>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                   affine_map<(b, m, n, k) -> (b, n, k)>,
                                   affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<5x2x3xf64>, memref<5x4x3xf64>) outs(%c : memref<5x2x4xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  }
  return
}

// Mixed element types and two M dimensions stay for the loop lowering.
// CHECK-LABEL: func.func @unsupported
// CHECK: linalg.matmul
// CHECK: linalg.generic
func.func @unsupported(%a: memref<2x3xf16>, %b: memref<3x4xf16>, %c: memref<2x4xf32>,
                       %x: memref<2x3x5xf32>, %y: memref<5x4xf32>, %z: memref<2x3x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf16>, memref<3x4xf16>) outs(%c : memref<2x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, n, k) -> (i, j, k)>,
                                   affine_map<(i, j, n, k) -> (k, n)>,
                                   affine_map<(i, j, n, k) -> (i, j, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<2x3x5xf32>, memref<5x4xf32>) outs(%z : memref<2x3x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
