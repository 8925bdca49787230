// RUN: trellis-opt %s --split-input-file --verify-diagnostics --spmd-check-variance=insert-pvary=false
// With insert-pvary=false (the seed's explicit mode) every place that needs
// a spmd.pvary is an error; programs that already have them pass.

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>, %w: tensor<2xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}], []] out_specs = [[{"i"}]]
      (%x, %w) : (tensor<8xf32>, tensor<2xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>, %wb: tensor<2xf32>):
    // expected-error @below {{'arith.mulf' op operand #1 varies over {} but must vary over {"i"} (the union of the operands' variance); insert spmd.pvary over ["i"] (spmd-check-variance does so unless insert-pvary=false)}}
    %m = arith.mulf %b, %wb : tensor<2xf32>
    spmd.yield %m : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// The same program with its pvary passes.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>, %w: tensor<2xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}], []] out_specs = [[{"i"}]]
      (%x, %w) : (tensor<8xf32>, tensor<2xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>, %wb: tensor<2xf32>):
    %wv = spmd.pvary %wb over ["i"] : tensor<2xf32>
    %m = arith.mulf %b, %wv : tensor<2xf32>
    spmd.yield %m : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%w: tensor<2xf32>) -> tensor<2xf32> {
  %y = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]]
      (%w) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%wb: tensor<2xf32>):
    // expected-error @below {{'spmd.psum' op needs an operand that varies over mesh axis "i", but it is invariant there; insert spmd.pvary over it (spmd-check-variance does so automatically)}}
    %s = spmd.psum %wb over ["i"] : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    // expected-error @below {{'scf.for' op the initial value of loop-carried value #0 varies over {} but must vary over {"i"} (the loop makes it vary); insert spmd.pvary over ["i"]}}
    %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %z) -> (tensor<2xf32>) {
      %n = arith.addf %acc, %b : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>, %w: tensor<2xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}], []] out_specs = [[{"i"}]]
      (%x, %w) : (tensor<8xf32>, tensor<2xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>, %wb: tensor<2xf32>):
    %c = arith.constant true
    %r = scf.if %c -> tensor<2xf32> {
      scf.yield %b : tensor<2xf32>
    } else {
      // expected-error @below {{'scf.yield' op yielded value #0 of the else branch varies over {} but must vary over {"i"} (the result varies there: the other branch or the condition makes it vary); insert spmd.pvary over ["i"]}}
      scf.yield %wb : tensor<2xf32>
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %zv = spmd.pvary %z over ["i"] : tensor<2xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zv) -> (tensor<2xf32>) {
      // expected-error @below {{'scf.yield' op yielded value #0 varies over {} but must vary over {"i"} (the loop-carried value varies there); insert spmd.pvary over ["i"]}}
      scf.yield %z : tensor<2xf32>
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    // expected-error @below {{'scf.while' op the initial value of loop-carried value #0 varies over {} but must vary over {"i"} (the loop makes it vary)}}
    %w = scf.while (%acc = %z) : (tensor<2xf32>) -> tensor<2xf32> {
      %c = arith.constant false
      scf.condition(%c) %acc : tensor<2xf32>
    } do {
    ^bb0(%a: tensor<2xf32>):
      %n = arith.addf %a, %b : tensor<2xf32>
      scf.yield %n : tensor<2xf32>
    }
    spmd.yield %w : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// A varying condition makes the forwarded values vary.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %idx = spmd.axis_index over ["i"] : index
    %c0 = arith.constant 0 : index
    %w = scf.while (%acc = %z) : (tensor<2xf32>) -> tensor<2xf32> {
      %c = arith.cmpi eq, %idx, %c0 : index
      // expected-error @below {{'scf.condition' op forwarded value #0 varies over {} but must vary over {"i"} (the loop makes it vary)}}
      scf.condition(%c) %acc : tensor<2xf32>
    } do {
    ^bb0(%a: tensor<2xf32>):
      scf.yield %z : tensor<2xf32>
    }
    spmd.yield %w : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}
