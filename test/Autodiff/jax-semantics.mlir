// JAX's gradient tests for shard_map, as their semantics (written here):
// the gradient of all_to_all, of all_gather_invariant, of a psum and of an
// implicit fan-out, and through an unused psum. Each gradient is executed on
// 8 devices and compared with its closed form by numpy.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: trellis-run %t/g.mlir --entry all_to_all_grad --random 1 --output-dir %t/a2a --quiet
// RUN: %python -c "import numpy as np; g = np.load('%t/a2a/out1.npy'); assert np.array_equal(g, 2 * np.ones((64, 8))), g"
// RUN: trellis-run %t/g.mlir --entry gather_invariant_grad --random 1 --save-inputs --output-dir %t/agi --quiet
// RUN: %python -c "import numpy as np; x = np.load('%t/agi/arg0.npy'); g = np.load('%t/agi/out1.npy'); assert np.allclose(g, 8 * np.cos(x), rtol=1e-5), (g, x)"
// RUN: trellis-run %t/g.mlir --entry fan_out_grad --random 1 --save-inputs --output-dir %t/fan --quiet
// RUN: %python -c "import numpy as np; x = np.load('%t/fan/arg0.npy'); g = np.load('%t/fan/out1.npy'); assert np.allclose(g, 8 * 2 * x, rtol=1e-5), (g, x)"
// RUN: trellis-run %t/g.mlir --entry unused_psum_grad --random 1 --save-inputs --output-dir %t/unused --quiet
// RUN: %python -c "import numpy as np; x = np.load('%t/unused/arg0.npy'); g = np.load('%t/unused/out1.npy'); assert np.allclose(g, 3 * np.ones_like(x)), g"

trellis.mesh @m8 = <["i"=8]>

// loss = 2 * sum(all_to_all(x)): the gradient is 2 everywhere (the
// transpose of all_to_all is all_to_all with split and concat swapped).
// CHECK-LABEL: func.func @all_to_all_grad(
// CHECK: spmd.all_to_all %{{.*}} over ["i"] split 1 concat 0
func.func @all_to_all(%x: tensor<64x8xf32>) -> tensor<f32> attributes {trellis.grad} {
  %r = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[]] (%x) : (tensor<64x8xf32>) -> tensor<f32> {
  ^bb0(%xb: tensor<8x8xf32>):
    %a = spmd.all_to_all %xb over ["i"] split 0 concat 1 : tensor<8x8xf32> -> tensor<1x64xf32>
    %two = arith.constant dense<2.0> : tensor<1x64xf32>
    %d = arith.mulf %a, %two : tensor<1x64xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.reduce ins(%d : tensor<1x64xf32>) outs(%z : tensor<f32>) dimensions = [0, 1]
      (%u: f32, %acc: f32) {
        %t = arith.addf %u, %acc : f32
        linalg.yield %t : f32
      }
    %l = spmd.psum %s over ["i"] : tensor<f32>
    spmd.yield %l : tensor<f32>
  }
  return %r : tensor<f32>
}

// Each device computes sum(sin(all_gather_invariant(x))) (invariant), and
// the loss is the psum of its 8 equal copies: 8 sum(sin(x)). The gradient,
// 8 cos(x), is sharded over the gathered axis: all_gather_invariant
// transposes to pscatter (each device keeps its block, nothing sent).
// CHECK-LABEL: func.func @gather_invariant_grad(
// CHECK: spmd.pscatter
func.func @gather_invariant(%x: tensor<64xf32>) -> tensor<f32> attributes {trellis.grad} {
  %r = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[]] (%x) : (tensor<64xf32>) -> tensor<f32> {
  ^bb0(%xb: tensor<8xf32>):
    %g = spmd.all_gather_invariant %xb over ["i"] dim 0 tiled : tensor<8xf32> -> tensor<64xf32>
    %s = math.sin %g : tensor<64xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %t = linalg.reduce ins(%s : tensor<64xf32>) outs(%z : tensor<f32>) dimensions = [0]
      (%u: f32, %acc: f32) {
        %v = arith.addf %u, %acc : f32
        linalg.yield %v : f32
      }
    %v = spmd.pvary %t over ["i"] : tensor<f32>
    %l = spmd.psum %v over ["i"] : tensor<f32>
    spmd.yield %l : tensor<f32>
  }
  return %r : tensor<f32>
}

// A replicated input (P()) fanned out to 8 devices, each computing
// sum(x^2); the psum of those is the loss: the gradient is the psum of
// the 8 devices' cotangents, 8 * 2x (the fan-out transposes to a psum, the
// psum to a pvary).
// CHECK-LABEL: func.func @fan_out_grad(
// CHECK: spmd.psum {{.*}} : tensor<16xf32
func.func @fan_out(%x: tensor<16xf32>) -> tensor<f32> attributes {trellis.grad} {
  %r = spmd.shard_map @m8 in_specs = [[]] out_specs = [[]] (%x) : (tensor<16xf32>) -> tensor<f32> {
  ^bb0(%xb: tensor<16xf32>):
    %v = spmd.pvary %xb over ["i"] : tensor<16xf32>
    %sq = arith.mulf %v, %v : tensor<16xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %t = linalg.reduce ins(%sq : tensor<16xf32>) outs(%z : tensor<f32>) dimensions = [0]
      (%u: f32, %acc: f32) {
        %w = arith.addf %u, %acc : f32
        linalg.yield %w : f32
      }
    %l = spmd.psum %t over ["i"] : tensor<f32>
    spmd.yield %l : tensor<f32>
  }
  return %r : tensor<f32>
}

// An output of the shard_map that the loss does not use (a psum): no
// cotangent flows through it and the gradient is that of the used one.
// CHECK-LABEL: func.func @unused_psum_grad(
func.func @unused_psum(%x: tensor<16xf32>) -> tensor<f32> attributes {trellis.grad} {
  %r:2 = spmd.shard_map @m8 in_specs = [[{"i"}]] out_specs = [[], [{"i"}]] (%x) : (tensor<16xf32>) -> (tensor<2xf32>, tensor<16xf32>) {
  ^bb0(%xb: tensor<2xf32>):
    %p = spmd.psum %xb over ["i"] : tensor<2xf32>
    %three = arith.constant dense<3.0> : tensor<2xf32>
    %y = arith.mulf %xb, %three : tensor<2xf32>
    spmd.yield %p, %y : tensor<2xf32>, tensor<2xf32>
  }
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.reduce ins(%r#1 : tensor<16xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%u: f32, %acc: f32) {
      %w = arith.addf %u, %acc : f32
      linalg.yield %w : f32
    }
  return %l : tensor<f32>
}
