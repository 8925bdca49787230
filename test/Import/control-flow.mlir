// while, if and case become scf: a counted while (fori_loop's form) an
// scf.for, any other while an scf.while, case a chain of scf.if whose last
// else is the last branch.
// RUN: trellis-opt %s --trellis-import-stablehlo | FileCheck %s

// CHECK-LABEL: func.func @fori
func.func @fori(%a: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
  // CHECK-DAG: %[[LB:.*]] = arith.constant 2 : index
  // CHECK-DAG: %[[UB:.*]] = arith.constant 5 : index
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
  // CHECK: %[[FOR:.*]] = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[ONE]] iter_args(%[[X:.*]] = %arg0) -> (tensor<4xf32>) {
  // CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[IV]] : index to i32
  // CHECK-NEXT: %[[T:.*]] = tensor.from_elements %[[I]] : tensor<i32>
  // CHECK: arith.sitofp %[[T]] : tensor<i32> to tensor<f32>
  // CHECK: scf.yield %{{.*}} : tensor<4xf32>
  // CHECK: %[[LAST:.*]] = arith.constant dense<5> : tensor<i32>
  // CHECK: return %[[LAST]], %[[FOR]]
  %c = stablehlo.constant dense<2> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %a) : tensor<i32>, tensor<4xf32>
   cond {
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %f = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.add %iterArg_0, %b : tensor<4xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<i32>, tensor<4xf32>
}

// Operands the body returns unchanged (scan's stacked inputs, here the
// weights %w, ahead of the counter as JAX orders them) are not carried:
// the body and the loop's result read them from outside. A swapped pair
// is carried.
// CHECK-LABEL: func.func @scan_consts
// CHECK-SAME: (%[[H:.*]]: tensor<2xf32>, %[[W:.*]]: tensor<3x2xf32>, %[[P:.*]]: tensor<2xf32>, %[[Q:.*]]: tensor<2xf32>)
// CHECK: %[[FOR:.*]]:3 = scf.for %{{.*}} iter_args(%[[X:.*]] = %[[H]], %[[A:.*]] = %[[P]], %[[B:.*]] = %[[Q]]) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
// CHECK: tensor.extract_slice %[[W]]
// CHECK: scf.yield %{{.*}}, %[[B]], %[[A]] : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK: return %[[W]], %[[FOR]]#0, %[[FOR]]#1
func.func @scan_consts(%h: tensor<2xf32>, %w: tensor<3x2xf32>, %p: tensor<2xf32>, %q: tensor<2xf32>) -> (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:5 = stablehlo.while(%iw = %w, %i = %c, %ih = %h, %ip = %p, %iq = %q) : tensor<3x2xf32>, tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
   cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.compare  LT, %i, %c3,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %iw, %i, %z, sizes = [1, 2] : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    %r = stablehlo.reshape %s : (tensor<1x2xf32>) -> tensor<2xf32>
    %n = stablehlo.add %ih, %r : tensor<2xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %iw, %j, %n, %iq, %ip : tensor<3x2xf32>, tensor<i32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#2, %0#3 : tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @data_dependent
func.func @data_dependent(%a: tensor<f32>) -> tensor<f32> {
  // CHECK: scf.while (%[[X:.*]] = %arg0) : (tensor<f32>) -> tensor<f32> {
  // CHECK: %[[P:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : tensor<f32>
  // CHECK: %[[S:.*]] = tensor.extract %[[P]][] : tensor<i1>
  // CHECK: scf.condition(%[[S]]) %[[X]] : tensor<f32>
  // CHECK: } do {
  // CHECK: scf.yield
  %0 = stablehlo.while(%iterArg = %a) : tensor<f32>
   cond {
    %lim = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %1 = stablehlo.compare  LT, %iterArg, %lim,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// A while that is not counted carries only what its body changes: the
// limit and the step, returned unchanged, are read from outside in the
// condition and the body, and the while's results for them are its
// operands.
// CHECK-LABEL: func.func @data_dependent_invariants
// CHECK-SAME: (%[[A:.*]]: tensor<f32>, %[[LIM:.*]]: tensor<f32>, %[[W:.*]]: tensor<4xf32>)
func.func @data_dependent_invariants(%a: tensor<f32>, %lim: tensor<f32>, %w: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>, tensor<f32>) {
  // CHECK: %[[R:.*]] = scf.while (%[[X:.*]] = %[[A]]) : (tensor<f32>) -> tensor<f32> {
  // CHECK: arith.cmpf olt, %[[X]], %[[LIM]] : tensor<f32>
  // CHECK: scf.condition(%{{.*}}) %[[X]] : tensor<f32>
  // CHECK: } do {
  // CHECK: ^bb0(%[[Y:.*]]: tensor<f32>):
  // CHECK: tensor.extract_slice %[[W]]
  // CHECK: scf.yield %{{.*}} : tensor<f32>
  // CHECK: return %[[W]], %[[R]], %[[LIM]]
  %0:3 = stablehlo.while(%iw = %w, %ix = %a, %il = %lim) : tensor<4xf32>, tensor<f32>, tensor<f32>
   cond {
    %1 = stablehlo.compare  LT, %ix, %il,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %s = stablehlo.slice %iw [1:2] : (tensor<4xf32>) -> tensor<1xf32>
    %r = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
    %1 = stablehlo.add %ix, %r : tensor<f32>
    stablehlo.return %iw, %1, %il : tensor<4xf32>, tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1, %0#2 : tensor<4xf32>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @switch
func.func @switch(%i: tensor<i32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[I:.*]] = tensor.extract %arg0[] : tensor<i32>
  // CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[I]], %c0_i32 : i32
  // CHECK: scf.if %[[IS0]] -> (tensor<4xf32>) {
  // CHECK: } else {
  // CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[I]], %c1_i32 : i32
  // CHECK: scf.if %[[IS1]] -> (tensor<4xf32>) {
  // CHECK: arith.negf
  // CHECK: } else {
  // CHECK: arith.mulf
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<4xf32>
  }, {
    %n = stablehlo.negate %a : tensor<4xf32>
    stablehlo.return %n : tensor<4xf32>
  }, {
    %m = stablehlo.multiply %a, %a : tensor<4xf32>
    stablehlo.return %m : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
