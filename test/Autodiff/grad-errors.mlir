// RUN: trellis-opt %s --split-input-file --verify-diagnostics --trellis-grad

// expected-error @below {{'func.func' op must return a scalar floating-point loss (e.g. tensor<f32>) as result #0 to be differentiated}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {trellis.grad} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'func.func' op has no argument #3 to differentiate with respect to}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad = [3]} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'func.func' op argument #0 is not a statically shaped floating-point tensor; trellis-grad differentiates with respect to those}}
func.func @f(%k: tensor<4xi32>, %x: tensor<f32>) -> tensor<f32> attributes {trellis.grad = [0]} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'func.func' op lists argument #0 twice to differentiate with respect to}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad = [0, 0]} {
  return %x : tensor<f32>
}

// -----

// expected-error @below {{'func.func' op has no floating-point tensor argument to differentiate with respect to}}
func.func @f(%k: tensor<4xi32>) -> tensor<f32> attributes {trellis.grad} {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// expected-error @below {{'func.func' op result #0 (the loss) does not depend on the arguments trellis-grad differentiates with respect to}}
func.func @f(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> attributes {trellis.grad = [0]} {
  return %y : tensor<f32>
}

// -----

// expected-error @below {{'func.func' op has no body to differentiate}}
func.func private @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad}

// -----

// expected-error @below {{'trellis.grad' must be a unit attribute or an array of argument indices on a function}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad = "x"} {
  return %x : tensor<f32>
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  // expected-error @below {{'math.atan' op has no derivative rule, but trellis-grad needs one: operand #0 depends on the differentiated arguments}}
  %y = math.atan %x : tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func private @g(%x: tensor<f32>) -> tensor<f32>
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  // expected-error @below {{'func.call' op calls a function with differentiated values; trellis-grad differentiates one function body: inline the callee first (--inline)}}
  %y = func.call @g(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  %c = arith.constant 1 : i1
  // expected-error @below {{'scf.execute_region' op has regions that use differentiated values; trellis-grad has no rule for it (it differentiates scf.for, scf.while, scf.if, shard_maps and axis regions)}}
  %r = scf.execute_region -> tensor<f32> {
    %d = arith.mulf %x, %x : tensor<f32>
    scf.yield %d : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  // expected-note @below {{the scalar is computed here}}
  %s = tensor.extract %x[] : tensor<f32>
  %e = tensor.empty() : tensor<f32>
  // expected-error @below {{'linalg.fill' op computes a floating-point value from a scalar that depends on the differentiated arguments; trellis-grad carries derivatives on tensors only (keep it a tensor, e.g. tensor<f32>)}}
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %y = arith.mulf %f, %x : tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'scf.for' op carries value #1, which depends on the differentiated arguments but is not a floating-point tensor; trellis-grad differentiates tensor values}}
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%c = %x, %m = %zero) -> (tensor<f32>, f32) {
    %d = arith.mulf %c, %c : tensor<f32>
    %e = tensor.extract %c[] : tensor<f32>
    scf.yield %d, %e : tensor<f32>, f32
  }
  return %r#0 : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<f32> attributes {trellis.grad} {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%one : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-error @below {{'linalg.generic' op combines its output with the rest of its body other than by a sum, max or min; trellis-grad differentiates maps and such reductions}}
  %p = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<4xf32>) outs(%i : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %p : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<f32> attributes {trellis.grad} {
  %e = tensor.empty() : tensor<f32>
  // expected-error @below {{'linalg.generic' op has reduction loops but does not read its output; trellis-grad cannot differentiate it}}
  %p = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    linalg.yield %a : f32
  } -> tensor<f32>
  return %p : tensor<f32>
}

// -----

func.func @f(%x: tensor<4x2xf32>) -> tensor<f32> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-error @below {{'linalg.generic' op indexes an input by affine_map<(d0) -> (d0, 1)>; trellis-grad differentiates generics whose input maps are projected permutations (and constant 0 on unit dimensions)}}
  %p = linalg.generic {indexing_maps = [affine_map<(i) -> (i, 1)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<4x2xf32>) outs(%i : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %p : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<f32> attributes {trellis.grad} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %p = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<4xf32>) outs(%i : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    // expected-error @below {{'math.atan' op has no derivative rule, but trellis-grad needs one to differentiate the body of a linalg.generic}}
    %t = math.atan %a : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %p : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<f32> attributes {trellis.grad} {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%one : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-error @below {{'linalg.reduce' op combines with arith.mulf; trellis-grad differentiates sums, max and min reductions}}
  %p = linalg.reduce ins(%x : tensor<4xf32>) outs(%i : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %m = arith.mulf %a, %acc : f32
      linalg.yield %m : f32
    }
  return %p : tensor<f32>
}

// -----

func.func @f(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  // expected-error @below {{'linalg.reduce' op takes the extremum with a differentiated initial value; trellis-grad differentiates only the input}}
  %p = linalg.reduce ins(%x : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %m = arith.maximumf %a, %acc : f32
      linalg.yield %m : f32
    }
  return %p : tensor<f32>
}

// -----

// A declaration of the gradient is replaced by it, if the types agree.
// expected-error @below {{'func.func' op is declared with type '(tensor<f32>) -> tensor<f32>' but the gradient has type '(tensor<f32>) -> (tensor<f32>, tensor<f32>)'}}
func.func @f(%x: tensor<f32>) -> tensor<f32> attributes {trellis.grad} {
  return %x : tensor<f32>
}
func.func private @f_grad(tensor<f32>) -> tensor<f32>
