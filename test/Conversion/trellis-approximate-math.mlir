// RUN: trellis-opt %s --trellis-approximate-math | FileCheck %s

// f32 tanh, exp, expm1, log, log1p, log2, erf and erfc become arithmetic:
// no math op of theirs is left, and no call.
// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.erf
// CHECK-NOT: call
// CHECK: return
func.func @approximated(%x: f32, %v: vector<8xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, vector<8xf32>) {
  %0 = math.tanh %x : f32
  %1 = math.exp %x : f32
  %2 = math.expm1 %x : f32
  %3 = math.log %x : f32
  %4 = math.log1p %x : f32
  %5 = math.log2 %x : f32
  %6 = math.erf %x : f32
  %7 = math.erfc %x : f32
  %8 = math.tanh %v : vector<8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, f32, vector<8xf32>
}

// log and log2 first scale subnormal inputs by 2^24 into the normal range,
// then subtract 24 ln 2 (24 for log2).
// CHECK-LABEL: func.func @log_subnormal
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[TINY:.*]] = arith.constant 1.17549435E-38 : f32
// CHECK: %[[SUB:.*]] = arith.cmpf olt, %[[X]], %[[TINY]] : f32
// CHECK: %[[SCALE:.*]] = arith.constant 0x4B800000 : f32
// CHECK: %[[MUL:.*]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK: arith.select %[[SUB]], %[[MUL]], %[[X]] : f32
// CHECK-NOT: math.log
// CHECK: %[[SHIFT:.*]] = arith.constant 16.6355324 : f32
// CHECK: %[[CORR:.*]] = arith.select %[[SUB]], %[[SHIFT]], %{{.*}} : f32
// CHECK: %[[R:.*]] = arith.subf %{{.*}}, %[[CORR]] : f32
// CHECK: return %[[R]]
func.func @log_subnormal(%x: f32) -> f32 {
  %0 = math.log %x : f32
  return %0 : f32
}

// exp computes subnormal results as exp(x / 2)^2 below x = -87.33.
// CHECK-LABEL: func.func @exp_subnormal
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[LIMIT:.*]] = arith.constant -8.733000e+01 : f32
// CHECK: %[[SMALL:.*]] = arith.cmpf olt, %[[X]], %[[LIMIT]] : f32
// CHECK: %[[HALF:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK: arith.select %[[SMALL]], %[[HALF]], %[[X]] : f32
// CHECK-NOT: math.exp
// CHECK: %[[R:.*]] = arith.select %[[SMALL]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: return %[[R]]
func.func @exp_subnormal(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @log2_subnormal
// CHECK: arith.constant 2.400000e+01 : f32
// CHECK: arith.subf
func.func @log2_subnormal(%x: f32) -> f32 {
  %0 = math.log2 %x : f32
  return %0 : f32
}

// What stays: f64 (libm is exact enough and as fast), f16, and the
// functions whose approximations measured too inexact (sin, cos, atan,
// atan2, cbrt).
// CHECK-LABEL: func.func @kept
// CHECK: math.tanh %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f16
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.cos %{{.*}} : f32
// CHECK: math.atan %{{.*}} : f32
// CHECK: math.atan2 %{{.*}} : f32
// CHECK: math.cbrt %{{.*}} : f32
func.func @kept(%d: f64, %h: f16, %x: f32) -> (f64, f16, f32, f32, f32, f32, f32) {
  %0 = math.tanh %d : f64
  %1 = math.exp %h : f16
  %2 = math.sin %x : f32
  %3 = math.cos %x : f32
  %4 = math.atan %x : f32
  %5 = math.atan2 %x, %x : f32
  %6 = math.cbrt %x : f32
  return %0, %1, %2, %3, %4, %5, %6 : f64, f16, f32, f32, f32, f32, f32
}

// Inside a linalg.generic body, as convert-elementwise-to-linalg makes it.
// CHECK-LABEL: func.func @in_generic
// CHECK: linalg.generic
// CHECK-NOT: math.tanh
// CHECK: linalg.yield
func.func @in_generic(%t: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// Tensors (static or dynamic) are left alone: the lowering makes them loops
// over scalars first, which are then approximated.
// CHECK-LABEL: func.func @tensors
// CHECK: math.log %{{.*}} : tensor<?xf32>
// CHECK: math.log2 %{{.*}} : tensor<4xf32>
// CHECK: math.tanh %{{.*}} : tensor<?xf32>
func.func @tensors(%x: tensor<?xf32>, %y: tensor<4xf32>) -> (tensor<?xf32>, tensor<4xf32>, tensor<?xf32>) {
  %0 = math.log %x : tensor<?xf32>
  %1 = math.log2 %y : tensor<4xf32>
  %2 = math.tanh %x : tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<4xf32>, tensor<?xf32>
}
