// RUN: trellis-opt %s --trellis-normalize-slices | FileCheck %s
// A unit dimension's stride does not change the slice: it becomes 1, which
// spares a rank-reducing slice a strided layout upstream's
// expand-strided-metadata crashed on. Other strides stay.

// CHECK-LABEL: func.func @extract
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [1, 1] [1, 1] : tensor<4x4xf64> to tensor<1xf64>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 1] [2, 1] : tensor<4x4xf64> to tensor<2xf64>
func.func @extract(%x: tensor<4x4xf64>) -> (tensor<1xf64>, tensor<2xf64>) {
  %s = tensor.extract_slice %x[0, 1] [1, 1] [2, 1] : tensor<4x4xf64> to tensor<1xf64>
  %t = tensor.extract_slice %x[0, 0] [2, 1] [2, 3] : tensor<4x4xf64> to tensor<2xf64>
  return %s, %t : tensor<1xf64>, tensor<2xf64>
}

// CHECK-LABEL: func.func @insert
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 0, 0] [1, 1, 2] [1, 1, 2] : tensor<1x2xf64> into tensor<4x4x4xf64>
func.func @insert(%v: tensor<1x2xf64>, %x: tensor<4x4x4xf64>) -> tensor<4x4x4xf64> {
  %r = tensor.insert_slice %v into %x[1, 0, 0] [1, 1, 2] [3, 2, 2] : tensor<1x2xf64> into tensor<4x4x4xf64>
  return %r : tensor<4x4x4xf64>
}
