// spmd-transpose of scf.while loops on linear values: the loop becomes its
// trip count (a copy carrying only what the condition needs), an scf.for
// over it and the condition's computation on the final state; the backward
// loop recomputes the non-linear carried values of each iteration. Checked
// structurally and by the dot-product identity <t(f)(y), x> = <y, f(x)>,
// executed, on random inputs (two seeds: different trip counts).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --spmd-transpose -o %t/t.mlir
// RUN: FileCheck %s < %t/t.mlir
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir halving 1 %t/halving | FileCheck %s --check-prefix=DOT
// RUN: %python %trellis_src/test/Examples/check_transpose.py --run trellis-run %s %t/t.mlir ring 1 %t/ring | FileCheck %s --check-prefix=DOT
// DOT: OK <t(f)(y), x> = <y, f(x)>

trellis.mesh @m4 = <["i"=4]>

// a <- a * (1 + v), v <- v / 2 while sum(v) > 0.1 (v from |w|, not
// linear).
// CHECK-LABEL: func.func @halving_t(
// The trip count: a while carrying v and the counter only.
// CHECK: %[[N:.*]]:2 = scf.while ({{.*}}) : (tensor<4xf32>, index) -> (tensor<4xf32>, index)
// The backward loop over the count, recomputing v with a forward loop.
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<4xf32>)
// CHECK: return
func.func @halving(%a0: tensor<4xf32>, %w: tensor<4xf32> {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %v0 = math.absf %w : tensor<4xf32>
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %eps = arith.constant 0.1 : f32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.while (%a = %a0, %v = %v0) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = tensor.empty() : tensor<f32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.reduce ins(%v : tensor<4xf32>) outs(%z : tensor<f32>) dimensions = [0]
      (%x: f32, %acc: f32) {
        %t = arith.addf %x, %acc : f32
        linalg.yield %t : f32
      }
    %sv = tensor.extract %s[] : tensor<f32>
    %go = arith.cmpf ogt, %sv, %eps : f32
    scf.condition(%go) %a, %v : tensor<4xf32>, tensor<4xf32>
  } do {
  ^bb0(%a: tensor<4xf32>, %v: tensor<4xf32>):
    %one = arith.constant dense<1.0> : tensor<4xf32>
    %ov = arith.addf %v, %one : tensor<4xf32>
    %av = arith.mulf %a, %ov : tensor<4xf32>
    %v1 = arith.mulf %v, %half : tensor<4xf32>
    scf.yield %av, %v1 : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0 : tensor<4xf32>
}

// Inside a shard_map: the linear value travels a ring while a psum of the
// non-linear state says go on (every device agrees); the transpose sends it
// back the other way.
// CHECK-LABEL: func.func @ring_t(
// CHECK: spmd.ppermute {{.*}} pairs {{\[}}[1, 0], [2, 1], [3, 2], [0, 3]]
func.func @ring(%a0: tensor<8xf32>, %w: tensor<8xf32> {spmd.nonlinear}) -> tensor<8xf32> attributes {spmd.transpose} {
  %r = spmd.shard_map @m4 in_specs = [[{"i"}], [{"i"}]] out_specs = [[{"i"}]] (%a0, %w) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%ab: tensor<2xf32>, %wb: tensor<2xf32>):
    %half = arith.constant dense<0.5> : tensor<2xf32>
    %eps = arith.constant 0.1 : f32
    %zero = arith.constant 0.0 : f32
    %v0 = math.absf %wb : tensor<2xf32>
    %h:2 = scf.while (%a = %ab, %v = %v0) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
      %e = tensor.empty() : tensor<f32>
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
      %s = linalg.reduce ins(%v : tensor<2xf32>) outs(%z : tensor<f32>) dimensions = [0]
        (%x: f32, %acc: f32) {
          %t = arith.addf %x, %acc : f32
          linalg.yield %t : f32
        }
      %all = spmd.psum %s over ["i"] : tensor<f32>
      %sv = tensor.extract %all[] : tensor<f32>
      %go = arith.cmpf ogt, %sv, %eps : f32
      scf.condition(%go) %a, %v : tensor<2xf32>, tensor<2xf32>
    } do {
    ^bb0(%a: tensor<2xf32>, %v: tensor<2xf32>):
      %p = spmd.ppermute %a over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 0]] : tensor<2xf32>
      %one = arith.constant dense<1.0> : tensor<2xf32>
      %ov = arith.addf %v, %one : tensor<2xf32>
      %pv = arith.mulf %p, %ov : tensor<2xf32>
      %v1 = arith.mulf %v, %half : tensor<2xf32>
      scf.yield %pv, %v1 : tensor<2xf32>, tensor<2xf32>
    }
    spmd.yield %h#0 : tensor<2xf32>
  }
  return %r : tensor<8xf32>
}
