// RUN: trellis-opt %s --split-input-file --verify-diagnostics --spmd-transpose=funcs=f
// Errors about the functions the `funcs` option names.

// expected-error @below {{'func.func' op cannot be transposed into @f_t: that symbol exists already}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @f_t(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{spmd-transpose: no function named @f}}
module {
  func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
