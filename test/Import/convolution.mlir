// stablehlo.convolution in the forms JAX prints (pretty, generic, and the
// raw dimension numbers) parses and prints back, and imports as one
// linalg.generic that reads the dilated, padded input through windows.
// RUN: trellis-opt %s | FileCheck %s --check-prefix=SYNTAX
// RUN: trellis-opt %s | trellis-opt | FileCheck %s --check-prefix=SYNTAX
// RUN: trellis-opt %s --mlir-print-op-generic | trellis-opt | FileCheck %s --check-prefix=SYNTAX
// RUN: trellis-opt %s --trellis-import-stablehlo --mlir-print-local-scope | FileCheck %s

// SYNTAX-LABEL: func.func @same_bf16
// SYNTAX: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x4x3xbf16>, tensor<3x3x3x2xbf16>) -> tensor<2x4x4x2xf32>
// CHECK-LABEL: func.func @same_bf16
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[OUT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x4x2xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[PAD]], %arg1 : tensor<2x6x6x3xbf16>, tensor<3x3x3x2xbf16>) outs(%[[OUT]] : tensor<2x4x4x2xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @same_bf16(%x: tensor<2x4x4x3xbf16>, %w: tensor<3x3x3x2xbf16>) -> tensor<2x4x4x2xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x4x3xbf16>, tensor<3x3x3x2xbf16>) -> tensor<2x4x4x2xf32>
  return %0 : tensor<2x4x4x2xf32>
}

// Strides, both dilations, a negative low padding (read from one further
// in) and two feature groups (the features split in two).
// SYNTAX-LABEL: func.func @grouped
// SYNTAX: window = {stride = [2, 1], pad = {{\[\[}}-1, 1], [0, 2]], lhs_dilate = [1, 2], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
// CHECK-LABEL: func.func @grouped
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x9x17x4xf32>)
// CHECK: %[[DILATED:.*]] = tensor.insert_slice %arg0 into %[[ZEROS]][0, 0, 0, 0] [2, 8, 8, 4] [1, 1, 2, 1] : tensor<2x8x8x4xf32> into tensor<2x9x17x4xf32>
// CHECK: %[[IN:.*]] = tensor.expand_shape %[[DILATED]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [2, 9, 17, 2, 2]
// CHECK: %[[K:.*]] = tensor.expand_shape %arg1 {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 3, 2, 2, 4]
// CHECK: %[[OUT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x2x15x2x4xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + d5 * 2 + 1, d2 + d6, d3, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[IN]], %[[K]] : {{.*}}) outs(%[[OUT]] : tensor<2x2x15x2x4xf32>)
// CHECK: tensor.collapse_shape %[[R]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<2x2x15x2x4xf32> into tensor<2x2x15x8xf32>
func.func @grouped(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x8xf32>) -> tensor<2x2x15x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[-1, 1], [0, 2]], lhs_dilate = [1, 2], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<2x2x15x8xf32>
  return %0 : tensor<2x2x15x8xf32>
}

// A kernel gradient as JAX prints it: the batch is the contraction, and
// two batch groups split the input's batch (here its dimension 3).
// CHECK-LABEL: func.func @kernel_gradient
// CHECK: %[[IN:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1], [2], [3, 4]] output_shape [2, 8, 8, 2, 2]
// CHECK: %[[DY:.*]] = tensor.expand_shape %arg1 {{\[\[}}0], [1], [2], [3, 4]] output_shape [2, 6, 6, 2, 4]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d1 + d5, d2 + d6, d3, d0)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d7, d5, d6, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d0, d3, d4)>]
// CHECK-SAME: ins(%[[IN]], %[[DY]] : tensor<2x8x8x2x2xf32>, tensor<2x6x6x2x4xf32>)
func.func @kernel_gradient(%x: tensor<2x8x8x4xf32>, %dy: tensor<2x6x6x8xf32>) -> tensor<3x3x2x8xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<2x6x6x8xf32>) -> tensor<3x3x2x8xf32>
  return %0 : tensor<3x3x2x8xf32>
}

// The generic form, 1-D, a reversed window: the kernel is reversed first.
// SYNTAX-LABEL: func.func @reversed
// SYNTAX: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = {{\[\[}}2, 2]], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
// CHECK-LABEL: func.func @reversed
// CHECK: %[[PAD:.*]] = tensor.pad %arg0 low[0, 0, 2] high[0, 0, 2]
// CHECK: %[[K:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, -d2 + 2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.*}} ins(%arg1 : tensor<4x3x3xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1 + d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1)>]{{.*}} ins(%[[PAD]], %[[K]] :
func.func @reversed(%s: tensor<2x3x10xf32>, %k: tensor<4x3x3xf32>) -> tensor<2x4x12xf32> {
  %0 = "stablehlo.convolution"(%s, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 1 : i64, padding = dense<2> : tensor<1x2xi64>, window_reversal = array<i1: true>}> : (tensor<2x3x10xf32>, tensor<4x3x3xf32>) -> tensor<2x4x12xf32>
  return %0 : tensor<2x4x12xf32>
}

// The raw dimension numbers print in the short form when they can.
// SYNTAX-LABEL: func.func @raw
// SYNTAX: dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[f, 0, 1, b], window = {stride = [2, 1]}
// CHECK-LABEL: func.func @raw
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d1, d2, d0)>]
// CHECK: arith.muli
// CHECK: arith.addi
func.func @raw(%i: tensor<2x5x4x3xi32>, %k: tensor<2x3x3x4xi32>) -> tensor<4x2x2x2xi32> {
  %0 = "stablehlo.convolution"(%i, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 3, output_feature_dimension = 0, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 1>}> : (tensor<2x5x4x3xi32>, tensor<2x3x3x4xi32>) -> tensor<4x2x2x2xi32>
  return %0 : tensor<4x2x2x2xi32>
}
