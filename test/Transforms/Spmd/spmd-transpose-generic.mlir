// spmd-transpose of linalg.generic ops linear in some inputs (maps and sums
// that are not contractions): the cotangent of each linear input is a
// generic that multiplies the output's cotangent by that input's
// coefficient (the body with its scalar at 1 and the other linear ones at
// 0) and sums it over the loops its indexing map drops. Checked
// structurally and by the executed dot-product identity.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --spmd-transpose -o %t/t.mlir
// RUN: FileCheck %s < %t/t.mlir
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir scaled 1,2 %t/scaled | FileCheck %s --check-prefix=DOT
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir weighted_sum 2 %t/weighted_sum | FileCheck %s --check-prefix=DOT
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir two_linear 2,3 %t/two_linear | FileCheck %s --check-prefix=DOT
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir spread 1 %t/spread | FileCheck %s --check-prefix=DOT
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir widened 1 %t/widened | FileCheck %s --check-prefix=DOT
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir doubled - %t/doubled | FileCheck %s --check-prefix=DOT
// DOT: OK <t(f)(y), x> = <y, f(x)>

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>

// -exp(b) w x: a map, the bias broadcast along rows.
// CHECK-LABEL: func.func @scaled_t(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.constant 1.0
// CHECK: math.exp
// CHECK: arith.negf
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @scaled(%x: tensor<4x8xf32>, %w: tensor<4x8xf32> {spmd.nonlinear}, %b: tensor<8xf32> {spmd.nonlinear}) -> tensor<4x8xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %c: f32, %d: f32, %o: f32):
      %m = arith.mulf %a, %c : f32
      %s = math.exp %d : f32
      %n = arith.mulf %m, %s : f32
      %k = arith.negf %n : f32
      linalg.yield %k : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// y + sum_j x[i, j] exp(w[i, j]): a sum into a linear init (its cotangent
// passes through), not a contraction (the weight goes through exp).
// CHECK-LABEL: func.func @weighted_sum_t(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @weighted_sum(%x: tensor<4x8xf32>, %y: tensor<4xf32>, %w: tensor<4x8xf32> {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %r = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<4x8xf32>) outs(%y : tensor<4xf32>) {
    ^bb0(%a: f32, %c: f32, %acc: f32):
      %s = math.exp %c : f32
      %m = arith.mulf %a, %s : f32
      %t = arith.addf %acc, %m : f32
      linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// select(w > 0, x w, y / v) - x: two linear inputs, a condition on a
// non-linear one.
// CHECK-LABEL: func.func @two_linear_t(
// CHECK-COUNT-2: linalg.generic
func.func @two_linear(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w: tensor<4x8xf32> {spmd.nonlinear}, %v: tensor<4x8xf32> {spmd.nonlinear}) -> tensor<4x8xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y, %w, %v : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %o: f32):
      %pos = arith.cmpf ogt, %c, %zero : f32
      %ac = arith.mulf %a, %c : f32
      %bd = arith.divf %b, %d : f32
      %s = arith.select %pos, %ac, %bd : f32
      %t = arith.subf %s, %a : f32
      linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// out[i, j] = x[j] tanh(w[i, j]): the linear input is broadcast, so its
// cotangent sums over rows.
// CHECK-LABEL: func.func @spread_t(
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["reduction", "parallel"]}
func.func @spread(%x: tensor<8xf32>, %w: tensor<4x8xf32> {spmd.nonlinear}) -> tensor<4x8xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %t = math.tanh %c : f32
      %m = arith.mulf %a, %t : f32
      linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// An f32 linear input widened to f64 in the body: its cotangent is
// narrowed back.
// CHECK-LABEL: func.func @widened_t(
// CHECK: arith.truncf {{.*}} : f64 to f32
func.func @widened(%x: tensor<4x8xf32>, %w: tensor<4x8xf64> {spmd.nonlinear}) -> tensor<4x8xf64> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4x8xf64>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<4x8xf32>, tensor<4x8xf64>) outs(%e : tensor<4x8xf64>) {
    ^bb0(%a: f32, %c: f64, %o: f64):
      %a64 = arith.extf %a : f32 to f64
      %m = arith.mulf %a64, %c : f64
      linalg.yield %m : f64
  } -> tensor<4x8xf64>
  return %r : tensor<4x8xf64>
}

// a + a (once an error: "not a contraction").
// CHECK-LABEL: func.func @doubled_t(
func.func @doubled(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %d = arith.addf %a, %a : f32
      linalg.yield %d : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
