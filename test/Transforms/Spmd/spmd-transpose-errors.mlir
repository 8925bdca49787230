// RUN: trellis-opt %s --split-input-file --verify-diagnostics --spmd-transpose
// Errors of spmd-transpose; those of the naive mode are in
// spmd-transpose-naive-errors.mlir.

func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  // expected-error @below {{'arith.mulf' op multiplies two linear values: the function is not linear}}
  %p = arith.mulf %x, %y : tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  // expected-error @below {{'arith.divf' op divides by a linear value: the function is not linear}}
  %p = arith.divf %x, %y : tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

// An affine function.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @below {{'arith.addf' op combines linear values with operand #1, which does not depend on the linear arguments and is not zero: the function is affine, not linear}}
  %p = arith.addf %x, %one : tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'tensor.extract' op computes a non-tensor value from the linear arguments; spmd-transpose transposes functions that are linear in tensors}}
  %e = tensor.extract %x[%c0] : tensor<4xf32>
  %s = tensor.splat %e : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<?xf32> attributes {spmd.transpose} {
  // expected-error @below {{'tensor.cast' op computes a dynamically shaped value from the linear arguments; spmd-transpose needs static shapes}}
  %c = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  return %c : tensor<?xf32>
}

// -----

func.func @f(%x: tensor<4x2xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @below {{'linalg.reduce' op is not a sum over one input; spmd-transpose transposes sum reductions only}}
  %r = linalg.reduce ins(%x : tensor<4x2xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %p = arith.mulf %a, %acc : f32
      linalg.yield %p : f32
    }
  return %r : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> attributes {spmd.transpose} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  // expected-error @below {{'linalg.matmul' op multiplies two linear values: the function is not linear}}
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// -----

func.func @f(%w: tensor<3x4xf16> {spmd.nonlinear}, %x: tensor<2x3xf16>) -> tensor<2x4xf32> attributes {spmd.transpose} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  // expected-error @below {{'linalg.matmul' op mixes element types; spmd-transpose transposes contractions on one element type}}
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf16>, tensor<3x4xf16>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  // expected-error @below {{'math.exp' op takes linear operand #0, but spmd-transpose has no rule to transpose it (it may not be linear)}}
  %e = math.exp %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %p: i1 {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %r = scf.if %p -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    %one = arith.constant dense<1.0> : tensor<4xf32>
    // expected-error @below {{'scf.yield' op yields value #0, which does not depend on the linear arguments, where the other branch yields a linear one: the function is affine, not linear}}
    scf.yield %one : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

trellis.mesh @m = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<2xf32> attributes {spmd.transpose} {
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{'spmd.pmax' op is not linear; spmd-transpose cannot transpose it}}
    %m = spmd.pmax %b over ["i"] : tensor<2xf32>
    spmd.yield %m : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// The primal is variance-checked first.
trellis.mesh @m = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<2xf32> attributes {spmd.transpose} {
  // expected-error @below {{output #0 may vary over mesh axis "i", but out_specs[0] does not mention it}}
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[]] (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    spmd.yield %b : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// Rescaling an unchecked unmapped output needs floats.
trellis.mesh @m = <["i"=4]>
func.func @f(%x: tensor<8xi32>) -> tensor<2xi32> attributes {spmd.transpose} {
  // expected-error @below {{'spmd.shard_map' op output #0 needs rescaling to be transposed, which needs a floating-point element type}}
  %r = spmd.shard_map @m in_specs = [[{"i"}]] out_specs = [[]] check_vma = false (%x) : (tensor<8xi32>) -> tensor<2xi32> {
  ^bb0(%b: tensor<2xi32>):
    spmd.yield %b : tensor<2xi32>
  }
  return %r : tensor<2xi32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    // expected-error @below {{'scf.yield' op yields value #0, which does not depend on the linear arguments, as a linear loop-carried value: the loop is affine, not linear}}
    scf.yield %one : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @below {{'scf.for' op starts linear loop-carried value #0 from a value that does not depend on the linear arguments and is not zero: the loop is affine, not linear}}
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %one) -> (tensor<4xf32>) {
    %s = arith.addf %a, %x : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @below {{'func.func' op has no body to transpose}}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose}

// -----

// expected-error @below {{'func.func' op has more than one block; spmd-transpose transposes single-block functions}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'func.func' op argument #0 is not a statically shaped tensor; spmd-transpose needs one for every linear argument (mark others spmd.nonlinear)}}
func.func @f(%n: index, %x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{'func.func' op result #1 does not depend on the linear arguments}}
func.func @f(%w: tensor<4xf32> {spmd.nonlinear}, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {spmd.transpose} {
  return %x, %w : tensor<4xf32>, tensor<4xf32>
}


// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : tensor<4xf32>
  // expected-error @below {{'scf.while' op decides whether to go on from a value that depends on the linear arguments: the loop is not linear}}
  %r = scf.while (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %first = tensor.extract %a[%c0] : tensor<4xf32>
    %go = arith.cmpf olt, %first, %zero : f32
    scf.condition(%go) %a : tensor<4xf32>
  } do {
  ^bb0(%a: tensor<4xf32>):
    %d = arith.mulf %a, %two : tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A product of two linear values inside a generic.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{'linalg.generic' op computes its result from the linear values other than linearly (a product of two of them, a constant added, or a non-linear function of one): the function is not linear}}
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A linear value plus a constant: affine.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4xf32>
  %one = arith.constant 1.0 : f32
  // expected-error @below {{'linalg.generic' op computes its result from the linear values other than linearly}}
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.addf %a, %one : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A maximum over the output: not a sum.
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4xf32> {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{'linalg.generic' op reads its output other than by adding to it; spmd-transpose transposes generics that write or sum into their output}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%y : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.maximumf %a, %o : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The condition reads a linear value from outside the loop.
func.func @f(%x: tensor<4xf32>, %n: tensor<4xf32> {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : tensor<4xf32>
  // expected-error @below {{'scf.while' op decides whether to go on from a value that depends on the linear arguments: the loop is not linear}}
  %r = scf.while (%a = %n, %b = %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    %first = tensor.extract %x[%c0] : tensor<4xf32>
    %go = arith.cmpf olt, %first, %zero : f32
    scf.condition(%go) %b : tensor<4xf32>
  } do {
  ^bb0(%b: tensor<4xf32>):
    %d = arith.mulf %b, %two : tensor<4xf32>
    scf.yield %n, %d : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// out[i] = x[i, j] for every j: the last write wins.
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{'linalg.generic' op overwrites output elements over loops its output map drops (the last write wins); spmd-transpose transposes maps that write each element once}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Loop j is indexed only by the other linear input.
func.func @f(%x: tensor<4xf32>, %y: tensor<8xf32>) -> tensor<4xf32> attributes {spmd.transpose} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @below {{'linalg.generic' op has a loop that only another linear operand than #0 indexes; spmd-transpose cannot bound it in the transpose}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : tensor<4xf32>, tensor<8xf32>) outs(%z : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %t = arith.addf %o, %s : f32
      linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A linear scalar inside a region of the body.
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %c: i1 {spmd.nonlinear}) -> tensor<4xf32> attributes {spmd.transpose} {
  %e = tensor.empty() : tensor<4xf32>
  %one = arith.constant 1.0 : f32
  // expected-error @below {{'linalg.generic' op computes its result from the linear values other than linearly}}
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = scf.if %c -> (f32) {
        scf.yield %a : f32
      } else {
        scf.yield %one : f32
      }
      %m = arith.mulf %s, %b : f32
      linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
