// Every derivative rule, checked by central finite differences on f64
// programs (check_grad.py runs f and f_grad with trellis-run), and a few
// structural checks of what the gradient is made of.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --inline --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir elementwise 0,1 %t/elementwise | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir transcendental 0,1 %t/transcendental | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir selects 0,1 %t/selects | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir precision 0 %t/precision --tol 1e-4 --h 1e-3 | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir contractions 0,1,2,3,4,5 %t/contractions | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir generic_maps 0,1,2 %t/generic_maps | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir reductions 0 %t/reductions | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir structural 0,1 %t/structural | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir some_args 1 %t/some_args | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir generic_extrema 0 %t/generic_extrema | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir constrained 0 %t/constrained | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir named_and_pad 0,1 %t/named_and_pad | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir unary_factor 0,1 %t/unary_factor | FileCheck %s --check-prefix=OK
// OK: OK {{.*}}: gradient matches finite differences

#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#col = affine_map<(i, j) -> (i, 0)>
#tr = affine_map<(i, j) -> (j, i)>
#none2 = affine_map<(i, j) -> ()>
#lhs = affine_map<(i, j, k) -> (i, k)>
#rhs = affine_map<(i, j, k) -> (k, j)>
#out = affine_map<(i, j, k) -> (i, j)>

// Sums and products, division, max/min (no ties on random inputs).
// CHECK-LABEL: func.func @elementwise_grad(
// CHECK-SAME: -> (tensor<f64>, tensor<3x4xf64>, tensor<3x4xf64>)
func.func @elementwise(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %one = arith.constant dense<1.0> : tensor<3x4xf64>
  %yy = arith.mulf %y, %y : tensor<3x4xf64>
  %q = arith.addf %yy, %one : tensor<3x4xf64>
  %a = arith.mulf %x, %y : tensor<3x4xf64>
  %d = arith.divf %a, %q : tensor<3x4xf64>
  %e = arith.subf %x, %d : tensor<3x4xf64>
  %n = arith.negf %e : tensor<3x4xf64>
  %mx = arith.maximumf %n, %y : tensor<3x4xf64>
  %mn = arith.minimumf %mx, %x : tensor<3x4xf64>
  %mxn = arith.maxnumf %mn, %d : tensor<3x4xf64>
  %mnn = arith.minnumf %mxn, %a : tensor<3x4xf64>
  %sq = arith.mulf %mnn, %e : tensor<3x4xf64>
  %l = func.call @sum2(%sq) : (tensor<3x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// CHECK-LABEL: func.func @transcendental_grad(
func.func @transcendental(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %one = arith.constant dense<1.0> : tensor<3x4xf64>
  %half = arith.constant dense<0.5> : tensor<3x4xf64>
  %yy = arith.mulf %y, %y : tensor<3x4xf64>
  %q = arith.addf %yy, %one : tensor<3x4xf64>
  %xs = arith.mulf %x, %half : tensor<3x4xf64>
  %t1 = math.exp %xs : tensor<3x4xf64>
  %t2 = math.log %q : tensor<3x4xf64>
  %t3 = math.tanh %x : tensor<3x4xf64>
  %t4 = math.erf %y : tensor<3x4xf64>
  %t5 = math.sqrt %q : tensor<3x4xf64>
  %t6 = math.rsqrt %q : tensor<3x4xf64>
  %t7 = math.sin %x : tensor<3x4xf64>
  %t8 = math.cos %y : tensor<3x4xf64>
  %t9 = math.absf %x : tensor<3x4xf64>
  %t10 = math.powf %q, %xs : tensor<3x4xf64>
  %t11 = math.expm1 %xs : tensor<3x4xf64>
  %t12 = math.log1p %yy : tensor<3x4xf64>
  %t13 = math.exp2 %xs : tensor<3x4xf64>
  %t14 = math.log2 %q : tensor<3x4xf64>
  %t15 = math.tan %xs : tensor<3x4xf64>
  %t16 = math.floor %x : tensor<3x4xf64>
  %s1 = arith.mulf %t1, %t2 : tensor<3x4xf64>
  %s2 = arith.mulf %t3, %t4 : tensor<3x4xf64>
  %s3 = arith.mulf %t5, %t6 : tensor<3x4xf64>
  %s4 = arith.mulf %t7, %t8 : tensor<3x4xf64>
  %s5 = arith.mulf %t9, %t10 : tensor<3x4xf64>
  %s6 = arith.mulf %t11, %t12 : tensor<3x4xf64>
  %s7 = arith.mulf %t13, %t14 : tensor<3x4xf64>
  %s8 = arith.mulf %t15, %t16 : tensor<3x4xf64>
  %u1 = arith.addf %s1, %s2 : tensor<3x4xf64>
  %u2 = arith.addf %s3, %s4 : tensor<3x4xf64>
  %u3 = arith.addf %s5, %s6 : tensor<3x4xf64>
  %u4 = arith.addf %s7, %s8 : tensor<3x4xf64>
  %v1 = arith.addf %u1, %u2 : tensor<3x4xf64>
  %v2 = arith.addf %u3, %u4 : tensor<3x4xf64>
  %w = arith.addf %v1, %v2 : tensor<3x4xf64>
  %l = func.call @sum2(%w) : (tensor<3x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// select on a comparison, inside and outside a linalg.generic body.
// CHECK-LABEL: func.func @selects_grad(
func.func @selects(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %c = arith.cmpf ogt, %x, %y : tensor<3x4xf64>
  %xx = arith.mulf %x, %x : tensor<3x4xf64>
  %s = arith.select %c, %xx, %y : tensor<3x4xi1>, tensor<3x4xf64>
  %e = tensor.empty() : tensor<3x4xf64>
  %g = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<3x4xf64>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %zero = arith.constant 0.0 : f64
    %pos = arith.cmpf ogt, %a, %zero : f64
    %ab = arith.mulf %a, %b : f64
    %r = arith.select %pos, %ab, %b : f64
    linalg.yield %r : f64
  } -> tensor<3x4xf64>
  %l = func.call @sum2(%g) : (tensor<3x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// Precision changes (f64 -> f32 -> f64): the tangent changes precision too.
// CHECK-LABEL: func.func @precision_grad(
// CHECK: arith.truncf
// CHECK: arith.extf
func.func @precision(%x: tensor<3x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %t = arith.truncf %x : tensor<3x4xf64> to tensor<3x4xf32>
  %e = math.exp %t : tensor<3x4xf32>
  %b = arith.extf %e : tensor<3x4xf32> to tensor<3x4xf64>
  %m = arith.mulf %b, %x : tensor<3x4xf64>
  %l = func.call @sum2(%m) : (tensor<3x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// linalg.matmul, batch_matmul and a matrix product written as a generic
// (what the StableHLO importer makes of dot_general): their gradients are
// matrix products again.
// CHECK-LABEL: func.func @contractions_grad(
// CHECK-COUNT-2: linalg.matmul indexing_maps
func.func @contractions(%a: tensor<3x4xf64>, %b: tensor<4x5xf64>,
                        %c: tensor<2x3x4xf64>, %d: tensor<2x4x5xf64>,
                        %p: tensor<5x4xf64>, %q: tensor<4x3xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<3x5xf64>
  %z1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<3x5xf64>) -> tensor<3x5xf64>
  %m = linalg.matmul ins(%a, %b : tensor<3x4xf64>, tensor<4x5xf64>) outs(%z1 : tensor<3x5xf64>) -> tensor<3x5xf64>
  %e2 = tensor.empty() : tensor<2x3x5xf64>
  %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  %bm = linalg.batch_matmul ins(%c, %d : tensor<2x3x4xf64>, tensor<2x4x5xf64>) outs(%z2 : tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  %e3 = tensor.empty() : tensor<5x3xf64>
  %z3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<5x3xf64>) -> tensor<5x3xf64>
  %g = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %q : tensor<5x4xf64>, tensor<4x3xf64>) outs(%z3 : tensor<5x3xf64>) {
  ^bb0(%u: f64, %v: f64, %acc: f64):
    %uv = arith.mulf %u, %v : f64
    %s = arith.addf %acc, %uv : f64
    linalg.yield %s : f64
  } -> tensor<5x3xf64>
  %mm = arith.mulf %m, %m : tensor<3x5xf64>
  %l1 = func.call @sum2_35(%mm) : (tensor<3x5xf64>) -> tensor<f64>
  %bmc = tensor.collapse_shape %bm [[0, 1], [2]] : tensor<2x3x5xf64> into tensor<6x5xf64>
  %bm2 = arith.mulf %bmc, %bmc : tensor<6x5xf64>
  %l2 = func.call @sum2_65(%bm2) : (tensor<6x5xf64>) -> tensor<f64>
  %gt = math.tanh %g : tensor<5x3xf64>
  %l3 = func.call @sum2_53(%gt) : (tensor<5x3xf64>) -> tensor<f64>
  %l12 = arith.addf %l1, %l2 : tensor<f64>
  %l = arith.addf %l12, %l3 : tensor<f64>
  return %l : tensor<f64>
}

// Generics that broadcast (a bias), index a unit dimension by 0, and write
// their output transposed.
// CHECK-LABEL: func.func @generic_maps_grad(
// CHECK: linalg.reduce
func.func @generic_maps(%x: tensor<3x4xf64>, %bias: tensor<4xf64>, %col: tensor<3x1xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %e = tensor.empty() : tensor<3x4xf64>
  %b = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias, %col : tensor<3x4xf64>, tensor<4xf64>, tensor<3x1xf64>) outs(%e : tensor<3x4xf64>) {
  ^bb0(%u: f64, %v: f64, %w: f64, %o: f64):
    %uv = arith.addf %u, %v : f64
    %t = math.tanh %uv : f64
    %r = arith.mulf %t, %w : f64
    linalg.yield %r : f64
  } -> tensor<3x4xf64>
  %et = tensor.empty() : tensor<4x3xf64>
  %t = linalg.generic {indexing_maps = [#id2, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<3x4xf64>) outs(%et : tensor<4x3xf64>) {
  ^bb0(%u: f64, %o: f64):
    %s = math.sin %u : f64
    linalg.yield %s : f64
  } -> tensor<4x3xf64>
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.generic {indexing_maps = [#id2, #none2], iterator_types = ["reduction", "reduction"]}
      ins(%t : tensor<4x3xf64>) outs(%z : tensor<f64>) {
  ^bb0(%u: f64, %acc: f64):
    %uu = arith.mulf %u, %u : f64
    %s = arith.addf %uu, %acc : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %l : tensor<f64>
}

// linalg.reduce with max (the derivative goes to the maximum) and sum, and a
// generic summing exp over a reduction loop (softmax's denominator).
// CHECK-LABEL: func.func @reductions_grad(
// CHECK: arith.cmpf oeq
func.func @reductions(%x: tensor<3x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %zero = arith.constant 0.0 : f64
  %e3 = tensor.empty() : tensor<3xf64>
  %i3 = linalg.fill ins(%ninf : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %mx = linalg.reduce ins(%x : tensor<3x4xf64>) outs(%i3 : tensor<3xf64>) dimensions = [1]
    (%a: f64, %acc: f64) {
      %m = arith.maximumf %a, %acc : f64
      linalg.yield %m : f64
    }
  %z3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %se = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4xf64>) outs(%z3 : tensor<3xf64>) {
  ^bb0(%u: f64, %acc: f64):
    %ex = math.exp %u : f64
    %s = arith.addf %acc, %ex : f64
    linalg.yield %s : f64
  } -> tensor<3xf64>
  %lse = math.log %se : tensor<3xf64>
  %mm = arith.mulf %mx, %lse : tensor<3xf64>
  %e0 = tensor.empty() : tensor<f64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%mm : tensor<3xf64>) outs(%z0 : tensor<f64>) dimensions = [0]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// Ops that move elements: transpose, broadcast, slices, reshapes, concat.
// CHECK-LABEL: func.func @structural_grad(
func.func @structural(%x: tensor<4x6xf64>, %y: tensor<2x6xf64>) -> tensor<f64>
    attributes {trellis.grad} {
  %et = tensor.empty() : tensor<6x4xf64>
  %t = linalg.transpose ins(%x : tensor<4x6xf64>) outs(%et : tensor<6x4xf64>) permutation = [1, 0]
  %row = tensor.extract_slice %y[1, 0] [1, 6] [1, 1] : tensor<2x6xf64> to tensor<6xf64>
  %eb = tensor.empty() : tensor<4x6xf64>
  %b = linalg.broadcast ins(%row : tensor<6xf64>) outs(%eb : tensor<4x6xf64>) dimensions = [0]
  %s = tensor.extract_slice %x[0, 1] [2, 3] [1, 1] : tensor<4x6xf64> to tensor<2x3xf64>
  %ss = arith.mulf %s, %s : tensor<2x3xf64>
  %i = tensor.insert_slice %ss into %b[1, 2] [2, 3] [1, 1] : tensor<2x3xf64> into tensor<4x6xf64>
  %ex = tensor.expand_shape %i [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf64> into tensor<4x2x3xf64>
  %co = tensor.collapse_shape %ex [[0, 1], [2]] : tensor<4x2x3xf64> into tensor<8x3xf64>
  %c2 = tensor.collapse_shape %t [[0], [1]] : tensor<6x4xf64> into tensor<6x4xf64>
  %ct = tensor.concat dim(0) %x, %y : (tensor<4x6xf64>, tensor<2x6xf64>) -> tensor<6x6xf64>
  %cs = tensor.extract_slice %ct[0, 0] [6, 4] [1, 1] : tensor<6x6xf64> to tensor<6x4xf64>
  %p = arith.mulf %c2, %cs : tensor<6x4xf64>
  %pc = tensor.collapse_shape %p [[0, 1]] : tensor<6x4xf64> into tensor<24xf64>
  %pe = tensor.expand_shape %pc [[0, 1]] output_shape [8, 3] : tensor<24xf64> into tensor<8x3xf64>
  %q = arith.mulf %pe, %co : tensor<8x3xf64>
  %l = func.call @sum2_83(%q) : (tensor<8x3xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// wrt one argument only; an integer argument rides along.
// CHECK-LABEL: func.func @some_args_grad(
// CHECK-SAME: -> (tensor<f64>, tensor<3x4xi32>, tensor<3x4xf64>)
func.func @some_args(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>, %k: tensor<3x4xi32>)
    -> (tensor<f64>, tensor<3x4xi32>) attributes {trellis.grad = [1]} {
  %kf = arith.sitofp %k : tensor<3x4xi32> to tensor<3x4xf64>
  %p = arith.mulf %x, %y : tensor<3x4xf64>
  %q = arith.mulf %p, %y : tensor<3x4xf64>
  %r = arith.addf %q, %kf : tensor<3x4xf64>
  %l = func.call @sum2(%r) : (tensor<3x4xf64>) -> tensor<f64>
  return %l, %k : tensor<f64>, tensor<3x4xi32>
}

// Max and min reductions written as generics (as the StableHLO importer
// writes stablehlo.reduce with maximum), one over a transposed output.
// CHECK-LABEL: func.func @generic_extrema_grad(
func.func @generic_extrema(%x: tensor<3x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %e3 = tensor.empty() : tensor<3xf64>
  %i3 = linalg.fill ins(%ninf : f64) outs(%e3 : tensor<3xf64>) -> tensor<3xf64>
  %mx = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4xf64>) outs(%i3 : tensor<3xf64>) {
  ^bb0(%u: f64, %acc: f64):
    %t = math.tanh %u : f64
    %m = arith.maximumf %acc, %t : f64
    linalg.yield %m : f64
  } -> tensor<3xf64>
  %e4 = tensor.empty() : tensor<4xf64>
  %i4 = linalg.fill ins(%inf : f64) outs(%e4 : tensor<4xf64>) -> tensor<4xf64>
  %mn = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<3x4xf64>) outs(%i4 : tensor<4xf64>) {
  ^bb0(%u: f64, %acc: f64):
    %m = arith.minnumf %u, %acc : f64
    linalg.yield %m : f64
  } -> tensor<4xf64>
  %eb = tensor.empty() : tensor<3x4xf64>
  %b1 = linalg.broadcast ins(%mx : tensor<3xf64>) outs(%eb : tensor<3x4xf64>) dimensions = [1]
  %b2 = linalg.broadcast ins(%mn : tensor<4xf64>) outs(%eb : tensor<3x4xf64>) dimensions = [0]
  %p = arith.mulf %b1, %b2 : tensor<3x4xf64>
  %q = arith.mulf %p, %x : tensor<3x4xf64>
  %l = func.call @sum2(%q) : (tensor<3x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A sharding constraint is the identity on values; its cotangent is
// constrained the same way.
// CHECK-LABEL: func.func @constrained_grad(
// CHECK: trellis.sharding_constraint
// CHECK: trellis.sharding_constraint
trellis.mesh @m4 = <["i"=4]>
func.func @constrained(%x: tensor<8x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c = trellis.sharding_constraint %x to <@m4, [{"i"}, {}]> : tensor<8x4xf64>
  %s = math.sin %c : tensor<8x4xf64>
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%s : tensor<8x4xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %t = arith.addf %a, %acc : f64
      linalg.yield %t : f64
    }
  return %l : tensor<f64>
}

// Named elementwise linalg ops (their bodies are the scalar rules'), and
// tensor.pad with a constant (the tangent is padded with zeros).
// CHECK-LABEL: func.func @named_and_pad_grad(
// CHECK: tensor.extract_slice
func.func @named_and_pad(%x: tensor<3x4xf64>, %y: tensor<3x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %e = tensor.empty() : tensor<3x4xf64>
  %a = linalg.add ins(%x, %y : tensor<3x4xf64>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %m = linalg.mul ins(%a, %x : tensor<3x4xf64>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %t = linalg.tanh ins(%m : tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %d = linalg.sub ins(%t, %y : tensor<3x4xf64>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %q = linalg.square ins(%d : tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %mx = linalg.max ins(%q, %x : tensor<3x4xf64>, tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %ex = linalg.exp ins(%mx : tensor<3x4xf64>) outs(%e : tensor<3x4xf64>) -> tensor<3x4xf64>
  %one = arith.constant 1.5 : f64
  %p = tensor.pad %ex low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f64
  } : tensor<3x4xf64> to tensor<4x6xf64>
  %sl = tensor.extract_slice %p[0, 1] [3, 4] [1, 1] : tensor<4x6xf64> to tensor<3x4xf64>
  %r = arith.mulf %sl, %y : tensor<3x4xf64>
  %l = func.call @sum2(%r) : (tensor<3x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func private @sum2(%x: tensor<3x4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%x : tensor<3x4xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

func.func private @sum2_35(%x: tensor<3x5xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%x : tensor<3x5xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

func.func private @sum2_65(%x: tensor<6x5xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%x : tensor<6x5xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

func.func private @sum2_53(%x: tensor<5x3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%x : tensor<5x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

func.func private @sum2_83(%x: tensor<8x3xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%x : tensor<8x3xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// A matmul-shaped generic with exp on a factor, sum_k a[i,k] exp(b[k,j]):
// isaContractionOpInterface accepts it, but it is not bilinear, so the
// product rule of contractions (which gave sum a exp(db)) must not apply;
// the general generic rule differentiates it.
// CHECK-LABEL: func.func @unary_factor_grad(
func.func @unary_factor(%a: tensor<3x5xf64>, %b: tensor<5x2xf64>) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x2xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x2xf64>) -> tensor<3x2xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x5xf64>, tensor<5x2xf64>) outs(%c : tensor<3x2xf64>) {
    ^bb0(%x: f64, %y: f64, %acc: f64):
      %ey = math.exp %y : f64
      %m = arith.mulf %x, %ey : f64
      %s = arith.addf %acc, %m : f64
      linalg.yield %s : f64
  } -> tensor<3x2xf64>
  %sq = arith.mulf %r, %r : tensor<3x2xf64>
  %e2 = tensor.empty() : tensor<f64>
  %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%sq : tensor<3x2xf64>) outs(%z2 : tensor<f64>) dimensions = [0, 1]
    (%p: f64, %q: f64) {
      %t = arith.addf %p, %q : f64
      linalg.yield %t : f64
    }
  return %l : tensor<f64>
}
