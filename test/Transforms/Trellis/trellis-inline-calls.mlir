// RUN: trellis-opt %s --split-input-file --trellis-inline-calls | FileCheck %s

// Calls are inlined and the private callee, now unused, is dropped; nothing
// else is simplified (the constant stays).
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.0{{.*}}>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg0, %[[C]]
// CHECK-NEXT: return %[[M]]
// CHECK-NOT: func.func private @double
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @double(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %y = arith.mulf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Without calls the module is left as it is: an unused private function
// stays, and dead code is not removed.
// CHECK-LABEL: func.func @no_calls
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
// CHECK: func.func private @unused
func.func @no_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %dead = arith.addf %x, %x : tensor<4xf32>
  return %x : tensor<4xf32>
}
func.func private @unused() {
  return
}
