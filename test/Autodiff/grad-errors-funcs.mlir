// RUN: trellis-opt %s --split-input-file --verify-diagnostics --trellis-grad=funcs=f
// A named function is differentiated even when marked; a clash is an error.

// expected-error @below {{'func.func' op cannot be differentiated into @f_grad: that symbol exists already}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  return %x : tensor<f32>
}
func.func @f_grad() {
  return
}

// -----

// expected-error @below {{trellis-grad: no function named @f}}
module {
  func.func @g(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}
