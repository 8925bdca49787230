// The importer's errors point at the location JAX printed for the op: the
// Python line, through a `#loc` alias at the end of the file.
// RUN: not trellis-opt %s --trellis-import-stablehlo 2>&1 | FileCheck %s

// CHECK: model.py:20:3: error: interior padding is not supported yet
module @jit_g {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<f32>) -> tensor<5xf32> {
    %0 = stablehlo.pad %arg0, %arg1, low = [0], high = [0], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<5xf32> loc(#loc3)
    return %0 : tensor<5xf32>
  }
}
#loc3 = loc("model.py":20:3)
