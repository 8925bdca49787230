// Gradients through scf.while, by finite differences (f64). A loop that
// counts up to a constant becomes an scf.for (its carried values saved per
// iteration); any other while runs once to count its iterations, then as an
// scf.for over that count, whose backward loop recomputes the carried values
// of each iteration from the start (the count is not a constant, so no rows
// can be allocated).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --inline --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir shrink 0,1 %t/shrink | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir shrink 0,1 %t/shrink2 --seed 2 | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir shrink 0,1 %t/shrink3 --seed 3 | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir counted 0,1 %t/counted | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir nested 0,1 %t/nested | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir ring 0,1 %t/ring | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir while_in_while 0,1 %t/while_in_while | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir ring 0,1 %t/ring2 --seed 2 | FileCheck %s --check-prefix=OK
// OK: OK {{.*}}: gradient matches finite differences
//
// The trip counts differ with the inputs (so the seeds above run loops of
// different lengths): printed by the primal function.
// RUN: trellis-run %t/g.mlir --entry shrink_steps --random 1 | FileCheck %s --check-prefix=STEPS1
// RUN: trellis-run %t/g.mlir --entry shrink_steps --random 3 | FileCheck %s --check-prefix=STEPS3
// STEPS1: out0: int32[]
// STEPS1-NEXT: {{^}}3{{$}}
// STEPS3: out0: int32[]
// STEPS3-NEXT: {{^}}2{{$}}

trellis.mesh @m4 = <["i"=4]>

// x <- sin(x) tanh(w) / 2 until sum(x^2) < 0.01 (|tanh| < 1: it ends),
// adding x^2 to acc on the way; loss = sum(acc w) + sum(x).
// CHECK-LABEL: func.func @shrink_grad(
// The counting loop, the forward loop over the count, and the backward loop
// with a forward loop inside it (recomputation).
// The counting loop carries only what the condition needs (x, not acc).
// CHECK: %[[COUNT:.*]]:2 = scf.while ({{.*}}) : (tensor<2x4xf64>, index) -> (tensor<2x4xf64>, index)
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[COUNT]]#1 step
// CHECK: arith.ceildivsi %{{.*}}
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: tensor.insert_slice
// CHECK: return
func.func @shrink(%x0: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %r:2 = func.call @shrink_loop(%x0, %w) : (tensor<2x4xf64>, tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2x4xf64>)
  %aw = arith.mulf %r#1, %w : tensor<2x4xf64>
  %l1 = func.call @sum(%aw) : (tensor<2x4xf64>) -> tensor<f64>
  %l2 = func.call @sum(%r#0) : (tensor<2x4xf64>) -> tensor<f64>
  %l = arith.addf %l1, %l2 : tensor<f64>
  return %l : tensor<f64>
}

func.func private @shrink_loop(%x0: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2x4xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x4xf64>
  %acc0 = linalg.fill ins(%zero : f64) outs(%e : tensor<2x4xf64>) -> tensor<2x4xf64>
  %half = arith.constant dense<0.5> : tensor<2x4xf64>
  %eps = arith.constant 0.01 : f64
  %r:2 = scf.while (%x = %x0, %acc = %acc0) : (tensor<2x4xf64>, tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2x4xf64>) {
    %sq = arith.mulf %x, %x : tensor<2x4xf64>
    %s = func.call @sum(%sq) : (tensor<2x4xf64>) -> tensor<f64>
    %sv = tensor.extract %s[] : tensor<f64>
    %big = arith.cmpf ogt, %sv, %eps : f64
    scf.condition(%big) %x, %acc : tensor<2x4xf64>, tensor<2x4xf64>
  } do {
  ^bb0(%x: tensor<2x4xf64>, %acc: tensor<2x4xf64>):
    %sq = arith.mulf %x, %x : tensor<2x4xf64>
    %acc1 = arith.addf %acc, %sq : tensor<2x4xf64>
    %sn = math.sin %x : tensor<2x4xf64>
    %t = math.tanh %w : tensor<2x4xf64>
    %p = arith.mulf %sn, %t : tensor<2x4xf64>
    %x1 = arith.mulf %p, %half : tensor<2x4xf64>
    scf.yield %x1, %acc1 : tensor<2x4xf64>, tensor<2x4xf64>
  }
  return %r#0, %r#1 : tensor<2x4xf64>, tensor<2x4xf64>
}

// How many steps @shrink's loop takes (for the STEPS checks).
func.func @shrink_steps(%x0: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %half = arith.constant dense<0.5> : tensor<2x4xf64>
  %eps = arith.constant 0.01 : f64
  %r:2 = scf.while (%x = %x0, %n = %zero) : (tensor<2x4xf64>, i32) -> (tensor<2x4xf64>, i32) {
    %sq = arith.mulf %x, %x : tensor<2x4xf64>
    %s = func.call @sum(%sq) : (tensor<2x4xf64>) -> tensor<f64>
    %sv = tensor.extract %s[] : tensor<f64>
    %big = arith.cmpf ogt, %sv, %eps : f64
    scf.condition(%big) %x, %n : tensor<2x4xf64>, i32
  } do {
  ^bb0(%x: tensor<2x4xf64>, %n: i32):
    %sn = math.sin %x : tensor<2x4xf64>
    %t = math.tanh %w : tensor<2x4xf64>
    %p = arith.mulf %sn, %t : tensor<2x4xf64>
    %x1 = arith.mulf %p, %half : tensor<2x4xf64>
    %n1 = arith.addi %n, %one : i32
    scf.yield %x1, %n1 : tensor<2x4xf64>, i32
  }
  return %r#1 : i32
}

// A while that counts to a constant becomes an scf.for with saved rows.
// CHECK-LABEL: func.func @counted_grad(
// CHECK-NOT: scf.while
// CHECK: tensor.insert_slice {{.*}} into {{.*}} : tensor<2x4xf64> into tensor<4x2x4xf64>
// CHECK: tensor.extract_slice {{.*}} : tensor<4x2x4xf64> to tensor<2x4xf64>
func.func @counted(%x0: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.while (%i = %c0, %x = %x0) : (index, tensor<2x4xf64>) -> (index, tensor<2x4xf64>) {
    %go = arith.cmpi slt, %i, %c4 : index
    scf.condition(%go) %i, %x : index, tensor<2x4xf64>
  } do {
  ^bb0(%i: index, %x: tensor<2x4xf64>):
    %m = arith.mulf %x, %w : tensor<2x4xf64>
    %t = math.tanh %m : tensor<2x4xf64>
    %i1 = arith.addi %i, %c1 : index
    scf.yield %i1, %t : index, tensor<2x4xf64>
  }
  %l = func.call @sum(%r#1) : (tensor<2x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A data-dependent while inside a counted loop (rows saved for the outer
// loop, recomputation for the inner one).
// CHECK-LABEL: func.func @nested_grad(
func.func @nested(%x0: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %three = arith.constant dense<3.0> : tensor<2x4xf64>
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%x = %x0) -> (tensor<2x4xf64>) {
    %s:2 = func.call @shrink_loop(%x, %w) : (tensor<2x4xf64>, tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2x4xf64>)
    %y = arith.addf %s#0, %s#1 : tensor<2x4xf64>
    %c = math.cos %y : tensor<2x4xf64>
    %z = arith.mulf %c, %three : tensor<2x4xf64>
    scf.yield %z : tensor<2x4xf64>
  }
  %l = func.call @sum(%r) : (tensor<2x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A shard_map ring that runs until the total over the devices is small:
// every device agrees on the condition (it is a psum), so the collectives
// in the body stay matched; the backward loop's ppermutes go the other way.
// CHECK-LABEL: func.func @ring_grad(
// CHECK: spmd.ppermute {{.*}} pairs {{\[}}[0, 1], [1, 2], [2, 3], [3, 0]]
// CHECK: spmd.ppermute {{.*}} pairs {{\[}}[1, 0], [2, 1], [3, 2], [0, 3]]
func.func @ring(%x: tensor<8x4xf64>, %w: tensor<8x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %r = spmd.shard_map @m4 in_specs = [[{"i"}], [{"i"}]] out_specs = [[]] (%x, %w) : (tensor<8x4xf64>, tensor<8x4xf64>) -> tensor<f64> {
  ^bb0(%xb: tensor<2x4xf64>, %wb: tensor<2x4xf64>):
    %eps = arith.constant 0.01 : f64
    %half = arith.constant dense<0.5> : tensor<2x4xf64>
    %h = scf.while (%a = %xb) : (tensor<2x4xf64>) -> tensor<2x4xf64> {
      %sq = arith.mulf %a, %a : tensor<2x4xf64>
      %s = func.call @sum(%sq) : (tensor<2x4xf64>) -> tensor<f64>
      %all = spmd.psum %s over ["i"] : tensor<f64>
      %sv = tensor.extract %all[] : tensor<f64>
      %big = arith.cmpf ogt, %sv, %eps : f64
      scf.condition(%big) %a : tensor<2x4xf64>
    } do {
    ^bb0(%a: tensor<2x4xf64>):
      %p = spmd.ppermute %a over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2x4xf64>
      %sn = math.sin %p : tensor<2x4xf64>
      %t = math.tanh %wb : tensor<2x4xf64>
      %m = arith.mulf %sn, %t : tensor<2x4xf64>
      %n = arith.mulf %m, %half : tensor<2x4xf64>
      scf.yield %n : tensor<2x4xf64>
    }
    %e = math.exp %h : tensor<2x4xf64>
    %ew = arith.mulf %e, %wb : tensor<2x4xf64>
    %s = func.call @sum(%ew) : (tensor<2x4xf64>) -> tensor<f64>
    %total = spmd.psum %s over ["i"] : tensor<f64>
    spmd.yield %total : tensor<f64>
  }
  return %r : tensor<f64>
}

// A data-dependent while directly inside another one's body (both are
// rewritten, the inner one first).
// CHECK-LABEL: func.func @while_in_while_grad(
func.func @while_in_while(%x0: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %three = arith.constant dense<3.0> : tensor<2x4xf64>
  %r:2 = scf.while (%x = %x0, %i = %c0) : (tensor<2x4xf64>, index) -> (tensor<2x4xf64>, index) {
    %go = arith.cmpi slt, %i, %c3 : index
    %sq = arith.mulf %x, %x : tensor<2x4xf64>
    %s = func.call @sum(%sq) : (tensor<2x4xf64>) -> tensor<f64>
    scf.condition(%go) %x, %i : tensor<2x4xf64>, index
  } do {
  ^bb0(%x: tensor<2x4xf64>, %i: index):
    %in:2 = func.call @shrink_loop(%x, %w) : (tensor<2x4xf64>, tensor<2x4xf64>) -> (tensor<2x4xf64>, tensor<2x4xf64>)
    %y = arith.addf %in#0, %in#1 : tensor<2x4xf64>
    %c = math.cos %y : tensor<2x4xf64>
    %z = arith.mulf %c, %three : tensor<2x4xf64>
    %i1 = arith.addi %i, %c1 : index
    scf.yield %z, %i1 : tensor<2x4xf64>, index
  }
  %l = func.call @sum(%r#0) : (tensor<2x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

func.func private @sum(%x: tensor<2x4xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%x : tensor<2x4xf64>) outs(%z : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}
