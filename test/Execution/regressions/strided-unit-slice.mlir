// A rank-reducing slice whose dropped unit dimension has stride 2 crashed
// upstream's expand-strided-metadata (SubViewOp::getDroppedDims) while
// trellis-run lowered it; found by test/Autodiff/randgrad.py. Checked
// against the values iota gives.
// RUN: trellis-run %s --entry two_d --iota | FileCheck %s --check-prefix=TWO
// TWO: [1.]
// RUN: trellis-run %s --entry three_d --iota | FileCheck %s --check-prefix=THREE
// THREE: {{\[\[}}4. 5.]]
func.func @two_d(%x: tensor<4x4xf64>) -> tensor<1xf64> {
  %s = tensor.extract_slice %x[0, 1] [1, 1] [2, 1] : tensor<4x4xf64> to tensor<1xf64>
  return %s : tensor<1xf64>
}
func.func @three_d(%x: tensor<4x4x4xf64>) -> tensor<1x2xf64> {
  %s = tensor.extract_slice %x[0, 1, 0] [1, 1, 2] [2, 1, 1] : tensor<4x4x4xf64> to tensor<1x2xf64>
  return %s : tensor<1x2xf64>
}
