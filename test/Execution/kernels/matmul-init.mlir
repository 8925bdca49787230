// How a matmul's accumulator is initialised, through the Eigen kernel
// (which overwrites C when trellis-linalg-to-kernels finds it zero-filled
// just before) and through loops. With --iota, a = [[0 1 2] [3 4 5]],
// b = [[0 1] [2 3] [4 5]], c = [[0 1] [2 3]], d = [[0 1 2] [3 4 5] [6 7 8]].
// RUN: trellis-run %s --iota --print | FileCheck %s
// RUN: trellis-run %s --iota --print --no-kernels | FileCheck %s
// The kernel path really overwrites (accumulate = 0) for out0, out1, out3:
// RUN: trellis-opt %s --pass-pipeline='builtin.module(canonicalize,cse,convert-elementwise-to-linalg,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-results-to-out-params{hoist-static-allocs},canonicalize,cse,buffer-deallocation-pipeline,trellis-linalg-to-kernels)' | FileCheck %s --check-prefix=LOWERED

// A zero-filled accumulator, filled right before: b.c.
// CHECK: out0: float32[3,2]
// CHECK-NEXT: {{\[\[}} 2.  3.]
// CHECK-NEXT: {{^ \[}} 6. 11.]
// CHECK-NEXT: {{^ \[}}10. 19.]]
// The transposed product (d.b)^T into a zero-filled accumulator: C is
// column-major for the kernel, which computes into a temporary and copies it.
// CHECK: out1: float32[2,3]
// CHECK-NEXT: {{\[\[}}10. 28. 46.]
// CHECK-NEXT: {{^ \[}}13. 40. 67.]]
// The transposed product added to c: c + (a.b)^T.
// CHECK: out2: float32[2,2]
// CHECK-NEXT: {{\[\[}}10. 29.]
// CHECK-NEXT: {{^ \[}}15. 43.]]
// A zero accumulator defined outside a loop and used in it: bufferization
// copies a zero buffer into the matmul's each iteration. c + 2 (a.b).
// CHECK: out3: float32[2,2]
// CHECK-NEXT: {{\[\[}}20. 27.]
// CHECK-NEXT: {{^ \[}}58. 83.]]

// LOWERED-LABEL: func.func @main
// LOWERED-NOT: linalg.fill
// LOWERED: arith.constant {{.*}} : i64
// LOWERED: %[[O0:.*]] = arith.constant 0 : i32
// LOWERED-NEXT: call @trellis_rt_matmul({{.*}}, %[[O0]]) :
// LOWERED-NOT: linalg.fill
// LOWERED: arith.constant {{.*}} : i64
// LOWERED: %[[O1:.*]] = arith.constant 0 : i32
// LOWERED-NEXT: call @trellis_rt_matmul({{.*}}, %[[O1]]) :
// LOWERED: %[[A2:.*]] = arith.constant 1 : i32
// LOWERED-NEXT: call @trellis_rt_matmul({{.*}}, %[[A2]]) :
// LOWERED: scf.for
// LOWERED-NOT: memref.copy
// LOWERED: arith.constant {{.*}} : i64
// LOWERED: %[[O3:.*]] = arith.constant 0 : i32
// LOWERED-NEXT: call @trellis_rt_matmul({{.*}}, %[[O3]]) :

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#ct = affine_map<(m, n, k) -> (n, m)>

func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2xf32>,
                %d: tensor<3x3xf32>)
    -> (tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x2xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r0 = linalg.matmul ins(%b, %c : tensor<3x2xf32>, tensor<2x2xf32>)
                      outs(%z0 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r1 = linalg.generic {indexing_maps = [#a, #b, #ct],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%d, %b : tensor<3x3xf32>, tensor<3x2xf32>) outs(%z1 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %r2 = linalg.generic {indexing_maps = [#a, #b, #ct],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  %e3 = tensor.empty() : tensor<2x2xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r3 = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %c) -> (tensor<2x2xf32>) {
    %p = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>)
                       outs(%z3 : tensor<2x2xf32>) -> tensor<2x2xf32>
    %s = arith.addf %acc, %p : tensor<2x2xf32>
    scf.yield %s : tensor<2x2xf32>
  }
  return %r0, %r1, %r2, %r3 : tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
