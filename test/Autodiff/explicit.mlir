// Gradients of programs with shardings in types (explicit and mixed axes)
// and of auto_axes / explicit_axes regions. trellis-grad infers the
// explicit shardings first, so tangents and cotangents carry their primals'
// types; a transposed reduction whose primal is replicated over explicit
// axes accumulates into a constant (its out_sharding, as JAX's transpose
// rules pass the primal's sharding), so the gradient of a replicated weight
// is one all-reduce of a batch-sharded contraction. Checked by finite
// differences (f64) run partitioned on 8 devices, and partitioned against
// unpartitioned (--reference).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: trellis-opt %s --inline --trellis-grad -o %t/g.mlir
// RUN: FileCheck %s < %t/g.mlir
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir mlp 0,1,2 %t/mlp | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir mixed 0,1 %t/mixed | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir explicit_region 0,1 %t/explicit_region | FileCheck %s --check-prefix=OK
// RUN: %python %S/check_grad.py trellis-run %t/g.mlir auto_region 0,1 %t/auto_region | FileCheck %s --check-prefix=OK
// OK: OK {{.*}}: gradient matches finite differences
// RUN: trellis-run %t/g.mlir --entry mlp_grad --random 1 --reference | FileCheck %s --check-prefix=REF
// RUN: trellis-run %t/g.mlir --entry mixed_grad --random 1 --reference | FileCheck %s --check-prefix=REF
// RUN: trellis-run %t/g.mlir --entry explicit_region_grad --random 1 --reference | FileCheck %s --check-prefix=REF
// RUN: trellis-run %t/g.mlir --entry auto_region_grad --random 1 --reference | FileCheck %s --check-prefix=REF
// REF: reference: out1 ({{.*}}, 8 devices vs 1): match
//
// The partitioned backward pass of the explicit MLP: the loss and the
// replicated weights' gradients are all-reduced over the batch axis, one
// psum each, and nothing is gathered (the partial sums of a reduction into
// a zero constant combine afterwards).
// RUN: trellis-run %t/g.mlir --entry mlp_grad --random 1 --dump-partitioned --quiet 2>&1 >/dev/null | FileCheck %s --check-prefix=PART

trellis.mesh @e = <["a"=4, "b"=2], types = [explicit, explicit]>
trellis.mesh @x = <["a"=4, "b"=2], types = [explicit, auto]>
trellis.mesh @m = <["a"=4, "b"=2]>

// A data-parallel MLP in explicit mode: the batch is split over "a", the
// weights are replicated; loss = sum(tanh(x w1) w2) with a replicated sum.
// CHECK-LABEL: func.func @mlp_grad(
// The cotangents of the hidden values keep the batch split.
// CHECK: arith.mulf {{.*}} : tensor<8x16xf64, #trellis.sharding<@e, [{"a"}, {}]>>
// The weight gradients accumulate into constants: replicated, like the
// weights.
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x4xf64>
// CHECK: linalg.matmul {{.*}} outs(%[[Z]] : tensor<16x4xf64>)
// PART-LABEL: func.func @mlp_grad(
// PART-NOT: spmd.all_gather
// PART: spmd.psum %{{.*}} over ["a"] : tensor<f64>
// PART-NEXT: spmd.psum %{{.*}} over ["a"] : tensor<6x16xf64>
// PART-NEXT: spmd.psum %{{.*}} over ["a"] : tensor<16x4xf64>
// PART-NEXT: spmd.yield
// PART-NOT: spmd.
func.func @mlp(%x: tensor<8x6xf64, #trellis.sharding<@e, [{"a"}, {}]>>, %w1: tensor<6x16xf64>, %w2: tensor<16x4xf64>) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<8x16xf64>
  %f1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<8x16xf64>) -> tensor<8x16xf64>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x6xf64, #trellis.sharding<@e, [{"a"}, {}]>>, tensor<6x16xf64>) outs(%f1 : tensor<8x16xf64>) -> tensor<8x16xf64>
  %t = math.tanh %h : tensor<8x16xf64>
  %e2 = tensor.empty() : tensor<8x4xf64>
  %f2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<8x4xf64>) -> tensor<8x4xf64>
  %y = linalg.matmul ins(%t, %w2 : tensor<8x16xf64>, tensor<16x4xf64>) outs(%f2 : tensor<8x4xf64>) -> tensor<8x4xf64>
  %l0 = arith.constant dense<0.0> : tensor<f64>
  %l = linalg.reduce ins(%y : tensor<8x4xf64>) outs(%l0 : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// Mixed axes: "a" explicit (the batch), "b" auto (the weight's columns).
// CHECK-LABEL: func.func @mixed_grad(
func.func @mixed(%x: tensor<8x6xf64, #trellis.sharding<@x, [{"a"}, {}]>>,
                 %w: tensor<6x16xf64> {trellis.sharding = #trellis.sharding<@x, [{}, {"b"}]>}) -> tensor<f64> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x16xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<8x16xf64>) -> tensor<8x16xf64>
  %h = linalg.matmul ins(%x, %w : tensor<8x6xf64, #trellis.sharding<@x, [{"a"}, {}]>>, tensor<6x16xf64>) outs(%f : tensor<8x16xf64>) -> tensor<8x16xf64>
  %t = math.tanh %h : tensor<8x16xf64>
  %sq = arith.mulf %t, %h : tensor<8x16xf64>
  %l0 = arith.constant dense<0.0> : tensor<f64>
  %l = linalg.reduce ins(%sq : tensor<8x16xf64>) outs(%l0 : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s = arith.addf %a, %acc : f64
      linalg.yield %s : f64
    }
  return %l : tensor<f64>
}

// Auto mode with an explicit_axes region: the region's gradient is an
// explicit_axes region over the cotangents.
// CHECK-LABEL: func.func @explicit_region_grad(
// CHECK: trellis.explicit_axes @m ["a", "b"]
// CHECK: trellis.explicit_axes @m ["a", "b"]
func.func @explicit_region(%x: tensor<8x8xf64>, %w: tensor<8x8xf64>) -> tensor<f64> attributes {trellis.grad} {
  %s = math.sin %x : tensor<8x8xf64>
  %z = trellis.explicit_axes @m ["a", "b"] (%s, %w) : (tensor<8x8xf64>, tensor<8x8xf64>) -> tensor<8x8xf64> {
  ^bb0(%y: tensor<8x8xf64, #trellis.sharding<@m, [{"a"}, {"b"}]>>, %v: tensor<8x8xf64, #trellis.sharding<@m, [{"a"}, {"b"}]>>):
    %m = arith.mulf %y, %v : tensor<8x8xf64, #trellis.sharding<@m, [{"a"}, {"b"}]>>
    %t = math.tanh %m : tensor<8x8xf64, #trellis.sharding<@m, [{"a"}, {"b"}]>>
    trellis.yield %t : tensor<8x8xf64, #trellis.sharding<@m, [{"a"}, {"b"}]>>
  }
  %e = math.exp %z : tensor<8x8xf64>
  %zero = arith.constant 0.0 : f64
  %l0 = tensor.empty() : tensor<f64>
  %l1 = linalg.fill ins(%zero : f64) outs(%l0 : tensor<f64>) -> tensor<f64>
  %l = linalg.reduce ins(%e : tensor<8x8xf64>) outs(%l1 : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s2 = arith.addf %a, %acc : f64
      linalg.yield %s2 : f64
    }
  return %l : tensor<f64>
}

// Explicit mode with an auto_axes region over "a".
// CHECK-LABEL: func.func @auto_region_grad(
// CHECK: trellis.auto_axes @e ["a"]
// CHECK: trellis.auto_axes @e ["a"]
func.func @auto_region(%x: tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>, %w: tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>) -> tensor<f64> attributes {trellis.grad} {
  %s = math.sin %x : tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>
  %z = trellis.auto_axes @e ["a"] (%s, %w)
      : (tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>, tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>)
     -> tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>> {
  ^bb0(%y: tensor<8x8xf64, #trellis.sharding<@e, [{}, {"b"}]>>, %v: tensor<8x8xf64, #trellis.sharding<@e, [{}, {"b"}]>>):
    %m = arith.mulf %y, %v : tensor<8x8xf64, #trellis.sharding<@e, [{}, {"b"}]>>
    %t = math.tanh %m : tensor<8x8xf64, #trellis.sharding<@e, [{}, {"b"}]>>
    trellis.yield %t : tensor<8x8xf64, #trellis.sharding<@e, [{}, {"b"}]>>
  }
  %e = math.exp %z : tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>
  %l0 = arith.constant dense<0.0> : tensor<f64>
  %l = linalg.reduce ins(%e : tensor<8x8xf64, #trellis.sharding<@e, [{"a"}, {"b"}]>>) outs(%l0 : tensor<f64>) dimensions = [0, 1]
    (%a: f64, %acc: f64) {
      %s2 = arith.addf %a, %acc : f64
      linalg.yield %s2 : f64
    }
  return %l : tensor<f64>
}
