// RUN: trellis-opt %s --pass-pipeline='builtin.module(func.func(trellis-copy-repeated-results))' | FileCheck %s
// RUN: trellis-run %s --iota | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @main
// CHECK: %[[V:.*]] = tensor.concat
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[C1:.*]] = linalg.copy ins(%[[V]] : tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[C2:.*]] = linalg.copy ins(%[[V]] : tensor<8xf32>) outs(%[[E2]] : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[V]], %[[C1]], %arg0, %[[C2]]

// The value returned three times used to crash buffer-results-to-out-params.
// EXEC: out0: float32[8]
// EXEC-NEXT: [0. 1. 2. 3. 0. 1. 2. 3.]
// EXEC: out1: float32[8]
// EXEC-NEXT: [0. 1. 2. 3. 0. 1. 2. 3.]
// EXEC: out2: float32[4]
// EXEC-NEXT: [0. 1. 2. 3.]
// EXEC: out3: float32[8]
// EXEC-NEXT: [0. 1. 2. 3. 0. 1. 2. 3.]
func.func @main(%a: tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>) {
  %v = tensor.concat dim(0) %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %v, %v, %a, %v : tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>
}
