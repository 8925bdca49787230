// A loop over the slices of a stacked parameter (layers): the gradient of
// each slice is added into that slice of the stacked gradient (extract,
// add, insert), not as a zero-padded copy added to the whole stack, which
// would cost the whole stack per iteration. Checked by finite differences
// (f64), with a slice read twice per iteration and by a rank-reducing
// extract.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir layers 0,1 %t/layers | FileCheck %s --check-prefix=OK
// OK: OK {{.*}}: gradient matches finite differences

// The backward loop: the two slices of the stacked gradient that the
// iteration's cotangent fills are updated in place (the row's slice, then
// the matrix's, which contains it and overwrites it with the iteration's
// sum of both), and no whole 3x4x4 tensor is added.
// CHECK-LABEL: func.func @layers_grad(
// CHECK: scf.for
// CHECK: scf.for {{.*}} -> (tensor<2x4xf64>, tensor<3x4x4xf64>)
// CHECK-NOT: arith.addf {{.*}} : tensor<3x4x4xf64>
// CHECK: %[[OLDR:.*]] = tensor.extract_slice %[[ACC:arg[0-9]+]][{{.*}}] [1, 1, 4] [1, 1, 1] : tensor<3x4x4xf64> to tensor<1x4xf64>
// CHECK-NEXT: %[[SUMR:.*]] = arith.addf %[[OLDR]], %{{.*}} : tensor<1x4xf64>
// CHECK-NEXT: %[[ROW:.*]] = tensor.insert_slice %[[SUMR]] into %[[ACC]]
// CHECK-NEXT: %[[OLD:.*]] = tensor.extract_slice %[[ACC]][{{.*}}] [1, 4, 4] [1, 1, 1] : tensor<3x4x4xf64> to tensor<4x4xf64>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OLD]], %{{.*}} : tensor<4x4xf64>
// CHECK-NEXT: tensor.insert_slice %[[SUM]] into %[[ROW]]
// CHECK-NOT: arith.addf {{.*}} : tensor<3x4x4xf64>
// CHECK: scf.yield
// CHECK: return
func.func @layers(%w: tensor<3x4x4xf64>, %x0: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %l = %c0 to %c3 step %c1 iter_args(%x = %x0) -> (tensor<2x4xf64>) {
    %wl = tensor.extract_slice %w[%l, 0, 0] [1, 4, 4] [1, 1, 1] : tensor<3x4x4xf64> to tensor<4x4xf64>
    %e = tensor.empty() : tensor<2x4xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<2x4xf64>) -> tensor<2x4xf64>
    %m = linalg.matmul ins(%x, %wl : tensor<2x4xf64>, tensor<4x4xf64>) outs(%z : tensor<2x4xf64>) -> tensor<2x4xf64>
    %t = math.tanh %m : tensor<2x4xf64>
    %row = tensor.extract_slice %w[%l, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<3x4x4xf64> to tensor<1x4xf64>
    %b = tensor.collapse_shape %row [[0, 1]] : tensor<1x4xf64> into tensor<4xf64>
    %bb = linalg.broadcast ins(%b : tensor<4xf64>) outs(%e : tensor<2x4xf64>) dimensions = [0]
    %y = arith.addf %t, %bb : tensor<2x4xf64>
    scf.yield %y : tensor<2x4xf64>
  }
  %sq = arith.mulf %r, %r : tensor<2x4xf64>
  %init = arith.constant dense<0.0> : tensor<f64>
  %s = linalg.reduce ins(%sq : tensor<2x4xf64>) outs(%init : tensor<f64>) dimensions = [0, 1]
    (%p: f64, %q: f64) {
      %u = arith.addf %p, %q : f64
      linalg.yield %u : f64
    }
  return %s : tensor<f64>
}
