// select_and_scatter the importer cannot model stops it with an error at
// the op.
// RUN: trellis-opt %s -split-input-file -verify-diagnostics --trellis-import-stablehlo

func.func @source_shape(%x: tensor<8x8xf32>, %s: tensor<3x4xf32>, %c: tensor<f32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{the source 'tensor<3x4xf32>' needs one element per window: 4 along dimension 0}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %v = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %v : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<3x4xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @strides(%x: tensor<8x8xf32>, %s: tensor<4x4xf32>, %c: tensor<f32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{window_strides [2] need one positive entry per dimension of 'tensor<8x8xf32>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %v = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %v : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @negative_padding(%x: tensor<8x8xf32>, %s: tensor<3x4xf32>, %c: tensor<f32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{negative padding of select_and_scatter is not supported}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{padding = dense<[[-2, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %v = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %v : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<3x4xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @types(%x: tensor<8x8xf32>, %s: tensor<4x4xbf16>, %c: tensor<f32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{the result must have the operand's type 'tensor<8x8xf32>', and the source and the 0-d init value its element type}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %v = stablehlo.add %a, %b : tensor<bf16>
    stablehlo.return %v : tensor<bf16>
  }) : (tensor<8x8xf32>, tensor<4x4xbf16>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @select_region(%x: tensor<8x8xf32>, %s: tensor<4x4xf32>, %c: tensor<f32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{the select region must return a boolean}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %p : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %v = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %v : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @scatter_region(%x: tensor<8x8xf32>, %s: tensor<4x4xf32>, %c: tensor<f32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error@+1 {{'stablehlo.dot_general' is not supported in a reducer}}
    %v = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %v : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
