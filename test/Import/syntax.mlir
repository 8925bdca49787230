// The import-only StableHLO, CHLO and Shardy subsets parse the pretty form
// JAX prints and print it back unchanged; the generic form parses to the
// same ops.
// RUN: trellis-opt %s | FileCheck %s
// RUN: trellis-opt %s | trellis-opt | FileCheck %s
// RUN: trellis-opt %s --mlir-print-op-generic | trellis-opt | FileCheck %s

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: sdy.mesh @ring = <["r"=4], device_ids=[0, 2, 3, 1]>
sdy.mesh @ring = <["r"=4], device_ids=[0, 2, 3, 1]>

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>, %s: tensor<f32>) -> tensor<4xf32> {
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: stablehlo.tanh %{{.*}} : tensor<4xf32>
  %1 = stablehlo.tanh %0 : tensor<4xf32>
  // CHECK: stablehlo.exponential_minus_one %{{.*}} : tensor<4xf32>
  %2 = stablehlo.exponential_minus_one %1 : tensor<4xf32>
  // CHECK: stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xbf16>
  %3 = stablehlo.convert %2 : (tensor<4xf32>) -> tensor<4xbf16>
  // CHECK: stablehlo.compare  GT, %{{.*}}, %{{.*}},  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare  EQ, %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %5 = stablehlo.compare  EQ, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %6 = stablehlo.select %4, %a, %b : tensor<4xi1>, tensor<4xf32>
  // CHECK: stablehlo.clamp %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %7 = stablehlo.clamp %s, %6, %s : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: chlo.erf %{{.*}} : tensor<4xf32> -> tensor<4xf32>
  %8 = chlo.erf %7 : tensor<4xf32> -> tensor<4xf32>
  // CHECK: stablehlo.and %{{.*}}, %{{.*}} : tensor<4xi1>
  %9 = stablehlo.and %p, %5 : tensor<4xi1>
  // CHECK: stablehlo.bitcast_convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %10 = stablehlo.bitcast_convert %8 : (tensor<4xf32>) -> tensor<4xi32>
  return %8 : tensor<4xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%a: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>) -> tensor<6xf32> {
  // CHECK: stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: stablehlo.iota dim = 1 : tensor<2x3xi32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: stablehlo.reshape %{{.*}} : (tensor<3x2xf32>) -> tensor<6xf32>
  %r = stablehlo.reshape %t : (tensor<3x2xf32>) -> tensor<6xf32>
  // CHECK: stablehlo.slice %{{.*}} [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %sl = stablehlo.slice %a [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  // CHECK: stablehlo.slice %{{.*}} [0:6:2] : (tensor<6xf32>) -> tensor<3xf32>
  %st = stablehlo.slice %r [0:6:2] : (tensor<6xf32>) -> tensor<3xf32>
  // CHECK: stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  %cc = stablehlo.concatenate %st, %v, dim = 0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  // CHECK: stablehlo.pad %{{.*}}, %{{.*}}, low = [1], high = [2], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  %p = stablehlo.pad %v, %c, low = [1], high = [2], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  // CHECK: stablehlo.reverse %{{.*}}, dims = [0] : tensor<6xf32>
  %rv = stablehlo.reverse %p, dims = [0] : tensor<6xf32>
  return %rv : tensor<6xf32>
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<2x4x8xbf16>, %b: tensor<2x8x3xbf16>, %x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> tensor<4xf32> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xbf16>, tensor<2x8x3xbf16>) -> tensor<2x4x3xf32>
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xbf16>, tensor<2x8x3xbf16>) -> tensor<2x4x3xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %e = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  // CHECK-NEXT: reducer(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>) (%[[AI:.*]]: tensor<i32>, %[[BI:.*]]: tensor<i32>)
  // CHECK: stablehlo.compare  GT, %[[A]], %[[B]],  FLOAT
  // CHECK: stablehlo.return
  %m:2 = stablehlo.reduce(%x init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a1: tensor<f32>, %b1: tensor<f32>) (%a2: tensor<i32>, %b2: tensor<i32>)  {
    %gt = stablehlo.compare  GT, %a1, %b1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a1, %b1 : tensor<i1>, tensor<f32>
    %w = stablehlo.select %gt, %a2, %b2 : tensor<i1>, tensor<i32>
    stablehlo.return %v, %w : tensor<f32>, tensor<i32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @shardings
// CHECK-SAME: sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {}], replicated={"y"}>
func.func @shardings(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {}], replicated={"y"}>}) -> tensor<8x8xf32> {
  // CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %0 = sdy.sharding_constraint %a <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  // CHECK: sdy.reshard %{{.*}} <@mesh, [{"x"}, {?}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {?}]> : tensor<8x8xf32>
  // CHECK: stablehlo.negate %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// The generic form JAX prints with print_generic_op_form=True.
// CHECK-LABEL: func.func @generic
func.func @generic(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4x3xf32> {
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  // CHECK: stablehlo.compare  LT, %{{.*}}, %{{.*}},  FLOAT
  %1 = "stablehlo.compare"(%0, %0) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xi1>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [0, 1, 2]
  %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %c = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // CHECK: stablehlo.reduce(%{{.*}} init: %{{.*}}) applies stablehlo.maximum across dimensions = [2]
  %3 = "stablehlo.reduce"(%2, %c) <{dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<2x4x3xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4x3xf32>
}
