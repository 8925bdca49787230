// The same value in two or more operand positions of one op: each position
// contributes its own term (d(x @ x) = dx @ x + x @ dx), in forward mode and
// in reverse mode, checked against finite differences in f64. Rules once
// keyed the tangent by the operand's value, which made the tangent of
// matmul(x, x) dx @ dx (forward) and refused the gradient (reverse).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --trellis-grad -o %t/g.mlir
// RUN: trellis-opt %s "--trellis-grad=jvp=true" -o %t/j.mlir
// RUN: FileCheck %s --check-prefix=JVP < %t/j.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir matmul_same 0 %t/mm | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir matmul_same 0 %t/mmj --jvp | FileCheck %s --check-prefix=OKJ
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir dot_same 0,1 %t/dot | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir dot_same 0,1 %t/dotj --jvp | FileCheck %s --check-prefix=OKJ
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir batch_same 0 %t/bmm | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir batch_same 0 %t/bmmj --jvp | FileCheck %s --check-prefix=OKJ
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir map_three 0,1 %t/map | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir map_three 0,1 %t/mapj --jvp | FileCheck %s --check-prefix=OKJ
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir linear_same 0 %t/lin | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir linear_same 0 %t/linj --jvp | FileCheck %s --check-prefix=OKJ
// OK: OK {{.*}}: gradient matches finite differences
// OKJ: OK {{.*}}: tangent matches finite differences

// JVP-LABEL: func.func @matmul_same_jvp(
// JVP-SAME: %[[X:[^:]*]]: tensor<4x4xf64>, %[[DX:[^:]*]]: tensor<4x4xf64>)
// JVP-DAG: linalg.matmul ins(%[[DX]], %[[X]] :
// JVP-DAG: linalg.matmul ins(%[[X]], %[[DX]] :
// JVP-NOT: linalg.matmul ins(%[[DX]], %[[DX]] :

// sum((x @ x) * (x @ x)): both factors of both products depend on x.
func.func @matmul_same(%x: tensor<4x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x4xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<4x4xf64>) -> tensor<4x4xf64>
  %m = linalg.matmul ins(%x, %x : tensor<4x4xf64>, tensor<4x4xf64>) outs(%f : tensor<4x4xf64>) -> tensor<4x4xf64>
  %sq = arith.mulf %m, %m : tensor<4x4xf64>
  %e0 = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%sq : tensor<4x4xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// dot(x, x) + dot(y, x) as linalg.generic contractions.
#v = affine_map<(i) -> (i)>
#s = affine_map<(i) -> ()>
func.func @dot_same(%x: tensor<6xf64>, %y: tensor<6xf64>) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %xx = linalg.generic {indexing_maps = [#v, #v, #s], iterator_types = ["reduction"]}
      ins(%x, %x : tensor<6xf64>, tensor<6xf64>) outs(%z : tensor<f64>) {
    ^bb0(%a: f64, %b: f64, %acc: f64):
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %acc, %p : f64
      linalg.yield %s : f64
  } -> tensor<f64>
  %yx = linalg.generic {indexing_maps = [#v, #v, #s], iterator_types = ["reduction"]}
      ins(%y, %x : tensor<6xf64>, tensor<6xf64>) outs(%xx : tensor<f64>) {
    ^bb0(%a: f64, %b: f64, %acc: f64):
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %acc, %p : f64
      linalg.yield %s : f64
  } -> tensor<f64>
  %l = arith.mulf %yx, %yx : tensor<f64>
  return %l : tensor<f64>
}

// sum(tanh(batch_matmul(x, x))).
func.func @batch_same(%x: tensor<2x3x3xf64>) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x3x3xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  %m = linalg.batch_matmul ins(%x, %x : tensor<2x3x3xf64>, tensor<2x3x3xf64>) outs(%f : tensor<2x3x3xf64>) -> tensor<2x3x3xf64>
  %t = math.tanh %m : tensor<2x3x3xf64>
  %e0 = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%t : tensor<2x3x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1, 2]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// A map reading x twice and y once, x broadcast along the rows in the
// second position: sum(x[j] * x[i] * sin(y[i, j])) with x of size 3 = rows
// = columns.
#ij = affine_map<(i, j) -> (i, j)>
#j = affine_map<(i, j) -> (j)>
#i = affine_map<(i, j) -> (i)>
func.func @map_three(%x: tensor<3xf64>, %y: tensor<3x3xf64>) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x3xf64>
  %g = linalg.generic {indexing_maps = [#j, #i, #ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%x, %x, %y : tensor<3xf64>, tensor<3xf64>, tensor<3x3xf64>) outs(%e : tensor<3x3xf64>) {
    ^bb0(%a: f64, %b: f64, %c: f64, %out: f64):
      %s = math.sin %c : f64
      %p = arith.mulf %a, %b : f64
      %q = arith.mulf %p, %s : f64
      linalg.yield %q : f64
  } -> tensor<3x3xf64>
  %e0 = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%g : tensor<3x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// Linear ops with a repeated operand: concat(x, x), x + x, x - x * x,
// then a square so the loss is not linear.
func.func @linear_same(%x: tensor<2x3xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c = tensor.concat dim(0) %x, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<4x3xf64>
  %s = arith.addf %c, %c : tensor<4x3xf64>
  %p = arith.mulf %s, %c : tensor<4x3xf64>
  %d = arith.subf %s, %p : tensor<4x3xf64>
  %q = arith.mulf %d, %d : tensor<4x3xf64>
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%q : tensor<4x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s2 = arith.addf %a, %acc : f64
      linalg.yield %s2 : f64
    }
  return %l : tensor<f64>
}
