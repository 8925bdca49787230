// Gradients through scf.for and scf.if, by finite differences (f64). A loop
// that carries non-linear values beside tangents runs backwards reading the
// values it saved per iteration (one row each in a tensor).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --inline --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir rnn 0,1 %t/rnn | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir branch 0,1 %t/branch | FileCheck %s --check-prefix=OK
// Seed 1 takes the else branch (sum(x) < 0), seed 2 the then branch.
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir branch 0,1 %t/branch2 --seed 2 | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir loop_if 0 %t/loop_if | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir ring 0,1 %t/ring | FileCheck %s --check-prefix=OK
// OK: OK {{.*}}: gradient matches finite differences

trellis.mesh @m4 = <["i"=4]>

// x_{k+1} = tanh(x_k w), 5 steps.
// CHECK-LABEL: func.func @rnn_grad(
// CHECK: scf.for {{.*}} -> (tensor<2x4xf64>, tensor<5x2x4xf64>)
// CHECK: tensor.insert_slice {{.*}} into {{.*}} : tensor<2x4xf64> into tensor<5x2x4xf64>
// CHECK: scf.for
// CHECK: tensor.extract_slice {{.*}} : tensor<5x2x4xf64> to tensor<2x4xf64>
func.func @rnn(%w: tensor<4x4xf64>, %x0: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %x0) -> (tensor<2x4xf64>) {
    %e = tensor.empty() : tensor<2x4xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<2x4xf64>) -> tensor<2x4xf64>
    %m = linalg.matmul ins(%x, %w : tensor<2x4xf64>, tensor<4x4xf64>) outs(%z : tensor<2x4xf64>) -> tensor<2x4xf64>
    %t = math.tanh %m : tensor<2x4xf64>
    scf.yield %t : tensor<2x4xf64>
  }
  %l = func.call @sum(%r) : (tensor<2x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A branch on the data: each seed takes one side or the other.
// CHECK-LABEL: func.func @branch_grad(
// CHECK: scf.if
func.func @branch(%x: tensor<2x4xf64>, %w: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %s = func.call @sum(%x) : (tensor<2x4xf64>) -> tensor<f64>
  %sv = tensor.extract %s[] : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %pos = arith.cmpf ogt, %sv, %zero : f64
  %y = scf.if %pos -> (tensor<2x4xf64>) {
    %e = math.exp %x : tensor<2x4xf64>
    %p = arith.mulf %e, %w : tensor<2x4xf64>
    scf.yield %p : tensor<2x4xf64>
  } else {
    %q = arith.mulf %x, %x : tensor<2x4xf64>
    %p = arith.mulf %q, %w : tensor<2x4xf64>
    scf.yield %p : tensor<2x4xf64>
  }
  %l = func.call @sum(%y) : (tensor<2x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// An if inside a loop, on the induction variable; the loop also carries an
// integer counter (saved per iteration like any non-linear value).
// CHECK-LABEL: func.func @loop_if_grad(
func.func @loop_if(%x0: tensor<2x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n0 = arith.constant 0 : i32
  %n1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %x0, %n = %n0) -> (tensor<2x4xf64>, i32) {
    %odd = arith.trunci %n : i32 to i1
    %y = scf.if %odd -> (tensor<2x4xf64>) {
      %s = math.sin %x : tensor<2x4xf64>
      scf.yield %s : tensor<2x4xf64>
    } else {
      %c = math.cos %x : tensor<2x4xf64>
      %p = arith.mulf %c, %x : tensor<2x4xf64>
      scf.yield %p : tensor<2x4xf64>
    }
    %m = arith.addi %n, %n1 : i32
    scf.yield %y, %m : tensor<2x4xf64>, i32
  }
  %l = func.call @sum(%r#0) : (tensor<2x4xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A ring inside a shard_map: 4 steps of h = tanh(ppermute(h) * w).
// CHECK-LABEL: func.func @ring_grad(
// CHECK: spmd.ppermute
func.func @ring(%x: tensor<8x4xf64>, %w: tensor<8x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %r = spmd.shard_map @m4 in_specs = [[{"i"}], [{"i"}]] out_specs = [[]] (%x, %w) : (tensor<8x4xf64>, tensor<8x4xf64>) -> tensor<f64> {
  ^bb0(%xb: tensor<2x4xf64>, %wb: tensor<2x4xf64>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %xb) -> (tensor<2x4xf64>) {
      %p = spmd.ppermute %a over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2x4xf64>
      %m = arith.mulf %p, %wb : tensor<2x4xf64>
      %t = math.tanh %m : tensor<2x4xf64>
      scf.yield %t : tensor<2x4xf64>
    }
    %s = func.call @sum(%h) : (tensor<2x4xf64>) -> tensor<f64>
    %total = spmd.psum %s over ["i"] : tensor<f64>
    spmd.yield %total : tensor<f64>
  }
  return %r : tensor<f64>
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
