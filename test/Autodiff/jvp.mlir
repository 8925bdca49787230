// Forward mode: jvp=true stops at the linearization, which takes the
// tangents of the differentiated arguments and returns the results and the
// tangent of the loss (linear in the tangents).
// RUN: trellis-opt %s "--trellis-grad=funcs=f wrt=0 jvp=true" | FileCheck %s

// CHECK-LABEL: func.func @f_jvp(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32>, %[[Y:[^:]*]]: tensor<4xf32>, %[[DX:[^:]*]]: tensor<4xf32>)
// CHECK-SAME: -> (tensor<f32>, tensor<f32>)
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK-DAG: %[[DE:.*]] = arith.mulf %[[E]], %[[DX]]
// CHECK-DAG: %[[P:.*]] = arith.mulf %[[E]], %[[Y]]
// CHECK: %[[DP:.*]] = arith.mulf %[[Y]], %[[DE]]
// CHECK: %[[L:.*]] = linalg.reduce ins(%[[P]]
// CHECK: %[[DL:.*]] = linalg.reduce ins(%[[DP]]
// CHECK: return %[[L]], %[[DL]]
// CHECK-NOT: func.func @f_grad
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<f32> {
  %e = math.exp %x : tensor<4xf32>
  %p = arith.mulf %e, %y : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce ins(%p : tensor<4xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %l : tensor<f32>
}
