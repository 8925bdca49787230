// What each StableHLO op and Shardy sharding becomes in Trellis IR.
// RUN: trellis-opt %s --trellis-import-stablehlo --mlir-print-local-scope | FileCheck %s

// CHECK: module @jit_f {
module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  // CHECK: trellis.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  // CHECK: trellis.mesh @ring = <["r"=8], devices = [0, 2, 4, 6, 7, 5, 3, 1]>
  sdy.mesh @ring = <["r"=8], device_ids=[0, 2, 4, 6, 7, 5, 3, 1]>

  // CHECK-LABEL: func.func public @main
  // CHECK-SAME: %arg0: tensor<8x16xf32> {trellis.name = "x", trellis.sharding = #trellis.sharding<@mesh, [{"x", ?}p0, {}], replicated = {"y"}>}
  // CHECK-SAME: -> (tensor<8x16xf32> {trellis.name = "result", trellis.sharding = #trellis.sharding<@mesh, [{"x"}, {}]>})
  func.func public @main(%arg0: tensor<8x16xf32> {jax.arg_info = "x", mhlo.layout_mode = "default", sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p0, {}], replicated={"y"}>}) -> (tensor<8x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    // CHECK: %[[C:.*]] = trellis.sharding_constraint %arg0 to <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    // CHECK: %[[N:.*]] = arith.negf %[[C]] : tensor<8x16xf32>
    // CHECK: %[[R:.*]] = trellis.sharding_constraint %[[N]] to <@mesh, [{"x"}, {?}]> : tensor<8x16xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {?}]>]>} : tensor<8x16xf32>
    // CHECK: trellis.sharding_constraint %[[R]] to <@mesh, [{}, {}]>
    %2 = sdy.reshard %1 <@mesh, [{}, {}]> : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }

  // CHECK-LABEL: func.func @dot
  func.func @dot(%a: tensor<2x4x8xbf16>, %b: tensor<2x8x3xbf16>) -> tensor<2x4x3xf32> {
    // CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
    // CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<2x4x3xf32>)
    // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    // CHECK-SAME: ins(%arg0, %arg1 : tensor<2x4x8xbf16>, tensor<2x8x3xbf16>) outs(%[[F]] : tensor<2x4x3xf32>)
    // CHECK: ^bb0(%[[X:.*]]: bf16, %[[Y:.*]]: bf16, %[[ACC:.*]]: f32):
    // CHECK-NEXT: %[[XE:.*]] = arith.extf %[[X]] : bf16 to f32
    // CHECK-NEXT: %[[YE:.*]] = arith.extf %[[Y]] : bf16 to f32
    // CHECK-NEXT: %[[M:.*]] = arith.mulf %[[XE]], %[[YE]] : f32
    // CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
    // CHECK-NEXT: linalg.yield %[[S]] : f32
    %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xbf16>, tensor<2x8x3xbf16>) -> tensor<2x4x3xf32>
    return %0 : tensor<2x4x3xf32>
  }

  // CHECK-LABEL: func.func @reduce
  func.func @reduce(%a: tensor<4x8xf32>) -> tensor<4xf32> {
    // The zero init stays a scalar constant, so the partitioner sees a sum.
    // CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
    // CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<4xf32>)
    // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%[[F]] : tensor<4xf32>)
    // CHECK: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
    // CHECK-NEXT: %[[S:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
    %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }

  // CHECK-LABEL: func.func @shapes
  func.func @shapes(%v: tensor<3xf32>, %m: tensor<1x3xf32>, %p: tensor<2x3xi1>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xi32>, tensor<2x3xf32>) {
    // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
    %b = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
    // CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2xf32>) permutation = [1, 0]
    %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    // CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x2xf32> into tensor<6xf32>
    %r = stablehlo.reshape %t : (tensor<3x2xf32>) -> tensor<6xf32>
    // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>]
    // CHECK: linalg.index 1 : index
    // CHECK: arith.index_cast %{{.*}} : index to i64
    // CHECK: arith.trunci %{{.*}} : i64 to i32
    %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
    // A scalar predicate applies to every element.
    // CHECK: %[[PB:.*]] = linalg.broadcast ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [0, 1]
    // CHECK: arith.select %arg2, %{{.*}}, %[[PB]] : tensor<2x3xi1>, tensor<2x3xf32>
    %sel = stablehlo.select %p, %b, %s : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    return %b, %t, %r, %i, %sel : tensor<2x3xf32>, tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xi32>, tensor<2x3xf32>
  }

  // CHECK-LABEL: func.func @through_flat
  func.func @through_flat(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
    // CHECK: %[[F:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
    // CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
    %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
  }
}
