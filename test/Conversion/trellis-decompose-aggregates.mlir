// RUN: trellis-opt %s --trellis-decompose-aggregates | FileCheck %s
// RUN: trellis-run %s --iota --print --quiet | FileCheck %s --check-prefix=EXEC

// linalg.softmax becomes the structured ops it stands for: a max
// reduction, exp(x - max), a sum reduction and a division.
// CHECK-LABEL: func.func @main
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {{.*}}["parallel", "reduction"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK-NOT: linalg.softmax
// Executed on iota rows [0 1 2 3] and [4 5 6 7]: each row is
// exp(k) / sum(exp(0..3)) (numpy: 0.0320586, 0.08714432, 0.23688282,
// 0.64391426).
// EXEC: out0: float32[2,4]
// EXEC-NEXT: {{\[}}[0.03205{{[0-9]*}} {{ *}}0.08714{{[0-9]*}} {{ *}}0.23688{{[0-9]*}} {{ *}}0.64391{{[0-9]*}} {{ *}}]
// EXEC-NEXT:  [0.03205{{[0-9]*}} {{ *}}0.08714{{[0-9]*}} {{ *}}0.23688{{[0-9]*}} {{ *}}0.64391{{[0-9]*}} {{ *}}]]
func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
