// Programs on buffers (memrefs) pass through every pass that matches linalg
// ops unchanged: the passes work on tensors, and an op on buffers has no
// results to read (spmd-collective-matmul once read result 0 of a
// linalg.matmul on memrefs and crashed). trellis-linalg-to-kernels, which
// works on buffers, is tested elsewhere. The fuzzer seeds from this file.
//
// RUN: trellis-opt "--spmd-collective-matmul" %s | FileCheck %s
// RUN: trellis-opt "--spmd-collective-matmul=force=true microbatches=2" %s | FileCheck %s
// RUN: trellis-opt "--trellis-overlap" %s | FileCheck %s
// RUN: trellis-opt "--trellis-propagate" %s | FileCheck %s
// RUN: trellis-opt "--trellis-infer-shardings" %s | FileCheck %s
// RUN: trellis-opt "--trellis-partition" %s | FileCheck %s
// RUN: trellis-opt "--spmd-check-variance" %s | FileCheck %s
// RUN: trellis-opt "--spmd-async-collectives" %s | FileCheck %s
// RUN: trellis-opt "--spmd-chunk-all-to-all" %s | FileCheck %s
// RUN: trellis-opt "--spmd-pipeline-collectives" %s | FileCheck %s
// RUN: trellis-opt "--trellis-widen-accumulation" %s | FileCheck %s
// RUN: trellis-opt "--trellis-approximate-math" %s | FileCheck %s
// RUN: trellis-opt "--trellis-comm-report" %s | FileCheck %s
// RUN: trellis-opt "--trellis-grad" %s | FileCheck %s
// RUN: trellis-opt "--trellis-pipeline" %s | FileCheck %s --check-prefix=PIPE
// PIPE: module
// RUN: trellis-opt "--spmd-transpose" %s | FileCheck %s
// RUN: trellis-opt "--spmd-outline-device-func" %s | FileCheck %s
// RUN: trellis-opt "--trellis-inline-calls" %s | FileCheck %s
// RUN: trellis-opt "--spmd-erase-variance" %s | FileCheck %s
// RUN: trellis-opt "--spmd-to-runtime" %s | FileCheck %s

// CHECK-LABEL: func.func @matmul(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<2x3xf32>, memref<3x4xf32>) outs(%{{.*}} : memref<2x4xf32>)
// CHECK-LABEL: func.func @generic(
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : memref<5x2x4xf64>)
// CHECK: linalg.reduce
// CHECK: linalg.transpose
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}
func.func @generic(%a: memref<5x2x3xf64>, %b: memref<5x4x3xf64>, %c: memref<5x2x4xf64>, %r: memref<5xf64>, %t: memref<5x3x2xf64>) {
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
  linalg.reduce ins(%c : memref<5x2x4xf64>) outs(%r : memref<5xf64>) dimensions = [1, 2]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  linalg.transpose ins(%a : memref<5x2x3xf64>) outs(%t : memref<5x3x2xf64>) permutation = [0, 2, 1]
  return
}
