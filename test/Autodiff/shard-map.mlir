// Gradients of shard_map programs: seed 001's efficient transposes. Checked
// by finite differences (f64) on the simulated mesh, and structurally: the
// data-parallel loss's backward pass has one all-reduce, of the gradient,
// and none of a scalar.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir dp_loss 0 %t/dp_loss | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir mlp_2d 0,1,2 %t/mlp_2d | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir collectives 0 %t/collectives | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir extrema 0 %t/extrema | FileCheck %s --check-prefix=OK
// OK: OK {{.*}}: gradient matches finite differences

trellis.mesh @m8 = <["i"=8]>
trellis.mesh @m24 = <["data"=2, "model"=4]>

// The seed's data-parallel loss: sum of squared errors of a linear model,
// batch split over "i", psum of the per-device losses. The gradient of w is
// one psum over "i"; the cotangent of the psum'd loss is a pvary (nothing
// sent) and the forward psum of the loss is not recomputed.
// CHECK-LABEL: func.func @dp_loss_grad(
// CHECK-SAME: -> (tensor<f64>, tensor<4x3xf64>)
// CHECK: spmd.shard_map @m8 {{.*}}out_specs = {{\[\[}}]]
// CHECK: spmd.psum %{{.*}} over ["i"] : tensor<f64
// CHECK: spmd.shard_map @m8
// CHECK-NOT: spmd.psum %{{.*}} : tensor<f64
// CHECK: spmd.psum %{{.*}} over ["i"] : tensor<4x3xf64
// CHECK-NOT: spmd.psum
// CHECK: return
func.func @dp_loss(%w: tensor<4x3xf64>, %x: tensor<16x4xf64>, %y: tensor<16x3xf64>) -> tensor<f64>
    attributes {trellis.grad = [0]} {
  %l = spmd.shard_map @m8 in_specs = [[], [{"i"}], [{"i"}]] out_specs = [[]]
      (%w, %x, %y) : (tensor<4x3xf64>, tensor<16x4xf64>, tensor<16x3xf64>) -> tensor<f64> {
  ^bb0(%wb: tensor<4x3xf64>, %xb: tensor<2x4xf64>, %yb: tensor<2x3xf64>):
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<2x3xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<2x3xf64>) -> tensor<2x3xf64>
    %p = linalg.matmul ins(%xb, %wb : tensor<2x4xf64>, tensor<4x3xf64>) outs(%z : tensor<2x3xf64>) -> tensor<2x3xf64>
    %d = arith.subf %p, %yb : tensor<2x3xf64>
    %dd = arith.mulf %d, %d : tensor<2x3xf64>
    %e0 = tensor.empty() : tensor<f64>
    %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
    %local = linalg.reduce ins(%dd : tensor<2x3xf64>) outs(%z0 : tensor<f64>) dimensions = [0, 1]
      (%a: f64, %acc: f64) {
        %s = arith.addf %a, %acc : f64
        linalg.yield %s : f64
      }
    %total = spmd.psum %local over ["i"] : tensor<f64>
    spmd.yield %total : tensor<f64>
  }
  return %l : tensor<f64>
}

// A 2-layer MLP, data parallel over "data" and tensor parallel over "model"
// (hidden units split), with the loss computed outside the shard_map.
// CHECK-LABEL: func.func @mlp_2d_grad(
func.func @mlp_2d(%w1: tensor<4x8xf64>, %w2: tensor<8x3xf64>, %b1: tensor<8xf64>,
                  %x: tensor<6x4xf64>) -> tensor<f64> attributes {trellis.grad = [0, 1, 2]} {
  %y = spmd.shard_map @m24 in_specs = [[{}, {"model"}], [{"model"}, {}], [{"model"}], [{"data"}, {}]]
      out_specs = [[{"data"}, {}]]
      (%w1, %w2, %b1, %x) : (tensor<4x8xf64>, tensor<8x3xf64>, tensor<8xf64>, tensor<6x4xf64>) -> tensor<6x3xf64> {
  ^bb0(%w1b: tensor<4x2xf64>, %w2b: tensor<2x3xf64>, %bb: tensor<2xf64>, %xb: tensor<3x4xf64>):
    %zero = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<3x2xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<3x2xf64>) -> tensor<3x2xf64>
    %h = linalg.matmul ins(%xb, %w1b : tensor<3x4xf64>, tensor<4x2xf64>) outs(%z : tensor<3x2xf64>) -> tensor<3x2xf64>
    %eb = tensor.empty() : tensor<3x2xf64>
    %bias = linalg.broadcast ins(%bb : tensor<2xf64>) outs(%eb : tensor<3x2xf64>) dimensions = [0]
    %hb = arith.addf %h, %bias : tensor<3x2xf64>
    %a = math.tanh %hb : tensor<3x2xf64>
    %e2 = tensor.empty() : tensor<3x3xf64>
    %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<3x3xf64>) -> tensor<3x3xf64>
    %o = linalg.matmul ins(%a, %w2b : tensor<3x2xf64>, tensor<2x3xf64>) outs(%z2 : tensor<3x3xf64>) -> tensor<3x3xf64>
    %s = spmd.psum %o over ["model"] : tensor<3x3xf64>
    spmd.yield %s : tensor<3x3xf64>
  }
  %yy = arith.mulf %y, %y : tensor<6x3xf64>
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<f64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%yy : tensor<6x3xf64>) outs(%z0 : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// Every linear collective on the way to the loss.
// CHECK-LABEL: func.func @collectives_grad(
// CHECK-DAG: spmd.psum_scatter
// CHECK-DAG: spmd.all_gather
// CHECK-DAG: spmd.all_to_all
// CHECK-DAG: spmd.ppermute
func.func @collectives(%x: tensor<64x8xf64>) -> tensor<f64> attributes {trellis.grad} {
  %r = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<64x8xf64>) -> tensor<f64> {
  ^bb0(%xb: tensor<8x8xf64>):
    %t = math.sin %xb : tensor<8x8xf64>
    %a = spmd.all_to_all %t over ["i"] split 0 concat 1 : tensor<8x8xf64> -> tensor<1x64xf64>
    %p = spmd.ppermute %a over ["i"] pairs [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]] : tensor<1x64xf64>
    %pp = arith.mulf %p, %a : tensor<1x64xf64>
    %rs = spmd.psum_scatter %pp over ["i"] dim 1 tiled : tensor<1x64xf64> -> tensor<1x8xf64>
    %ag = spmd.all_gather %rs over ["i"] dim 1 tiled : tensor<1x8xf64> -> tensor<1x64xf64>
    %sq = arith.mulf %ag, %ag : tensor<1x64xf64>
    %m = spmd.pmean %sq over ["i"] : tensor<1x64xf64>
    %sc = spmd.pscatter %m over ["i"] dim 1 tiled : tensor<1x64xf64> -> tensor<1x8xf64>
    %agi = spmd.all_gather_invariant %sc over ["i"] dim 1 tiled : tensor<1x8xf64> -> tensor<1x64xf64>
    %th = math.tanh %agi : tensor<1x64xf64>
    %zero = arith.constant 0.0 : f64
    %e0 = tensor.empty() : tensor<f64>
    %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
    %l = linalg.reduce ins(%th : tensor<1x64xf64>) outs(%z0 : tensor<f64>) dimensions = [0, 1]
      (%u: f64, %acc: f64) {
        %s = arith.addf %u, %acc : f64
        linalg.yield %s : f64
      }
    spmd.yield %l : tensor<f64>
  }
  return %r : tensor<f64>
}

// pmax and pmin: the derivative reaches the device holding the extremum.
// CHECK-LABEL: func.func @extrema_grad(
func.func @extrema(%x: tensor<32xf64>) -> tensor<f64> attributes {trellis.grad} {
  %r = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<32xf64>) -> tensor<f64> {
  ^bb0(%xb: tensor<4xf64>):
    %mx = spmd.pmax %xb over ["i"] : tensor<4xf64>
    %mn = spmd.pmin %xb over ["i"] : tensor<4xf64>
    %p = arith.mulf %mx, %mn : tensor<4xf64>
    %zero = arith.constant 0.0 : f64
    %e0 = tensor.empty() : tensor<f64>
    %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
    %l = linalg.reduce ins(%p : tensor<4xf64>) outs(%z0 : tensor<f64>) dimensions = [0]
      (%u: f64, %acc: f64) {
        %s = arith.addf %u, %acc : f64
        linalg.yield %s : f64
      }
    spmd.yield %l : tensor<f64>
  }
  return %r : tensor<f64>
}
