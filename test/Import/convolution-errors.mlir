// Convolutions the importer cannot model stop it with an error at the op
// that names the attribute.
// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-import-stablehlo

func.func @not_a_permutation(%i: tensor<2x5x4x3xf32>, %k: tensor<2x3x3x4xf32>) -> tensor<4x2x2x2xf32> {
  // expected-error@+1 {{dimension_numbers #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, output_batch_dimension = 3, output_feature_dimension = 0, input_spatial_dimensions = [1, 2], kernel_spatial_dimensions = [0, 1], output_spatial_dimensions = [1, 2]> do not name each dimension of the input 'tensor<2x5x4x3xf32>', kernel 'tensor<2x3x3x4xf32>' and result 'tensor<4x2x2x2xf32>' once}}
  %0 = "stablehlo.convolution"(%i, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 3, output_feature_dimension = 0, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64}> : (tensor<2x5x4x3xf32>, tensor<2x3x3x4xf32>) -> tensor<4x2x2x2xf32>
  return %0 : tensor<4x2x2x2xf32>
}

// -----

func.func @rank(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4xf32>) -> tensor<2x8x8x4xf32> {
  // expected-error@+1 {{do not name each dimension of the input 'tensor<2x8x8x4xf32>', kernel 'tensor<3x3x4xf32>'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}

// -----

func.func @strides(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{window_strides needs one entry per spatial dimension (2), got 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}

// -----

func.func @dilation(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{rhs_dilation [1, 0] must be positive}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}

// -----

func.func @padding(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{padding needs a [low, high] pair per spatial dimension (2)}}
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x3xi64>}> : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}

// -----

func.func @reversal(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{window_reversal needs one entry per spatial dimension (2)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}

// -----

func.func @both_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error@+1 {{feature_group_count 2 and batch_group_count 2 must be positive, and one of them 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

func.func @groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<2x6x6x6xf32> {
  // expected-error@+1 {{input features (4), kernel input features (2), output features (6) and batch (2) do not fit feature_group_count 4 and batch_group_count 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<2x6x6x6xf32>
  return %0 : tensor<2x6x6x6xf32>
}

// -----

func.func @result_shape(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32> {
  // expected-error@+1 {{result type 'tensor<2x8x8x8xf32>' does not match the convolution's shape [2, 3, 6, 8]}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return %0 : tensor<2x8x8x8xf32>
}

// -----

func.func @narrowing(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xbf16> {
  // expected-error@+1 {{convolution into 'bf16', narrower than its 'f32' operands, is not supported}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xbf16>
  return %0 : tensor<2x6x6x8xbf16>
}

// -----

func.func @mixed(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xbf16>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{convolution of 'f32' and 'bf16' into 'f32' is not supported}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xbf16>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}

// -----

func.func @booleans(%x: tensor<2x8x8x4xi1>, %w: tensor<3x3x4x8xi1>) -> tensor<2x6x6x8xi1> {
  // expected-error@+1 {{convolution of booleans is not supported}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xi1>, tensor<3x3x4x8xi1>) -> tensor<2x6x6x8xi1>
  return %0 : tensor<2x6x6x8xi1>
}

// -----

func.func @syntax(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{each of 'b', 'f' and the spatial dimensions 0..1 must appear once}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}

// -----

func.func @window_field(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32> {
  // expected-error@+1 {{unknown window field 'strides' (expected stride, pad, lhs_dilate, rhs_dilate or reverse)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {strides = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x6x6x8xf32>
  return %0 : tensor<2x6x6x8xf32>
}
