// A contraction whose accumulator (outs) is the same value as one of its
// inputs: matmul ins(a, b) outs(b) is b + a @ b, so b's tangent enters
// twice, as a factor and as the accumulator. randgrad.py found that the
// rule keyed by value gave a wrong answer here in both modes with exit 0
// (tangent -23.45 where finite differences give -19.26): the factor
// position received the accumulator's treatment too. Fixed with the
// position-keyed contraction rule; f64, checked by finite differences.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --trellis-grad -o %t/g.mlir
// RUN: trellis-opt %s "--trellis-grad=jvp=true" -o %t/j.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir matmul_into_input 0,1 %t/mm | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir matmul_into_input 0,1 %t/mmj --jvp | FileCheck %s --check-prefix=OKJ
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir matmul_three 0 %t/m3 | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir matmul_three 0 %t/m3j --jvp | FileCheck %s --check-prefix=OKJ
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir contract_into_input 0 %t/c | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/j.mlir contract_into_input 0 %t/cj --jvp | FileCheck %s --check-prefix=OKJ
// OK: OK {{.*}}: gradient matches finite differences
// OKJ: OK {{.*}}: tangent matches finite differences

#ik = affine_map<(i, j, k) -> (i, k)>
#ij = affine_map<(i, j, k) -> (i, j)>

// sum((b + a @ b)^2): b is a factor and the accumulator.
func.func @matmul_into_input(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %m = linalg.matmul ins(%a, %b : tensor<3x3xf64>, tensor<3x2xf64>) outs(%b : tensor<3x2xf64>) -> tensor<3x2xf64>
  %q = arith.mulf %m, %m : tensor<3x2xf64>
  %z = arith.constant dense<0.0> : tensor<f64>
  %l = linalg.reduce ins(%q : tensor<3x2xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%u: f64, %acc: f64) {
      %s = arith.addf %u, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// sum(tanh(x + x @ x)): x in all three operand positions.
func.func @matmul_three(%x: tensor<3x3xf64>) -> tensor<f64> attributes {trellis.grad} {
  %m = linalg.matmul ins(%x, %x : tensor<3x3xf64>, tensor<3x3xf64>) outs(%x : tensor<3x3xf64>) -> tensor<3x3xf64>
  %t = math.tanh %m : tensor<3x3xf64>
  %z = arith.constant dense<0.0> : tensor<f64>
  %l = linalg.reduce ins(%t : tensor<3x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%u: f64, %acc: f64) {
      %s = arith.addf %u, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// The same as a generic contraction (acc + a * b), x @ x^T accumulated
// into x: x in both inputs (the second through a transposed map) and the
// output.
func.func @contract_into_input(%x: tensor<3x3xf64>) -> tensor<f64> attributes {trellis.grad} {
  %g = linalg.generic {indexing_maps = [#ik, affine_map<(i, j, k) -> (j, k)>, #ij],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : tensor<3x3xf64>, tensor<3x3xf64>) outs(%x : tensor<3x3xf64>) {
    ^bb0(%u: f64, %v: f64, %acc: f64):
      %p = arith.mulf %u, %v : f64
      %s = arith.addf %acc, %p : f64
      linalg.yield %s : f64
  } -> tensor<3x3xf64>
  %q = arith.mulf %g, %g : tensor<3x3xf64>
  %z = arith.constant dense<0.0> : tensor<f64>
  %l = linalg.reduce ins(%q : tensor<3x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%u: f64, %acc: f64) {
      %s = arith.addf %u, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}
