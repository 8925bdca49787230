// RUN: trellis-opt %s --split-input-file --verify-diagnostics --spmd-check-variance
// Errors of the default mode (pvary insertion on). The explicit mode's are in
// spmd-check-variance-explicit-errors.mlir.

// An unmapped output of a varying value: the seed-000 program f3 without
// its psum.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f3_unsafe(%x: tensor<12x12xi32>) -> tensor<12x6xi32> {
  // expected-error @below {{output #0 may vary over mesh axis "j", but out_specs[0] does not mention it (an unmapped output promises equal blocks); psum it over "j" before yielding (spmd.psum ... over ["j"]), or mention "j" in out_specs[0]}}
  %y = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[{"i"}, {}]]
      (%x) : (tensor<12x12xi32>) -> tensor<12x6xi32> {
  ^bb0(%b: tensor<3x6xi32>):
    // expected-note @below {{output #0 is computed here}}
    %d = arith.addi %b, %b : tensor<3x6xi32>
    spmd.yield %d : tensor<3x6xi32>
  }
  return %y : tensor<12x6xi32>
}

// -----

// Several axes are named together; a block argument yielded directly has no
// defining op to point at.
trellis.mesh @mesh = <["i"=4, "j"=2]>
func.func @f(%x: tensor<12x12xi32>) -> tensor<3x6xi32> {
  // expected-error @below {{output #0 may vary over mesh axes "i", "j", but out_specs[0] does not mention them (an unmapped output promises equal blocks); psum it over "i", "j" before yielding (spmd.psum ... over ["i", "j"]), or mention "i", "j" in out_specs[0]}}
  %y = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}]] out_specs = [[]]
      (%x) : (tensor<12x12xi32>) -> tensor<3x6xi32> {
  ^bb0(%b: tensor<3x6xi32>):
    spmd.yield %b : tensor<3x6xi32>
  }
  return %y : tensor<3x6xi32>
}

// -----

// Variance that comes from axis_index through scalars, a loop and a branch.
trellis.mesh @mesh = <["i"=4]>
func.func @f(%w: tensor<8xf32>, %p: i1) -> tensor<2xf32> {
  // expected-error @below {{output #0 may vary over mesh axis "i"}}
  %y = spmd.shard_map @mesh in_specs = [[]] out_specs = [[]]
      (%w) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%wb: tensor<8xf32>):
    %idx = spmd.axis_index over ["i"] : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %head = tensor.extract_slice %wb[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
    // expected-note @below {{output #0 is computed here}}
    %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %head) -> (tensor<2xf32>) {
      %cond = arith.cmpi eq, %k, %idx : index
      %n = scf.if %cond -> tensor<2xf32> {
        %s = tensor.extract_slice %wb[%idx] [2] [1] : tensor<8xf32> to tensor<2xf32>
        scf.yield %s : tensor<2xf32>
      } else {
        scf.yield %acc : tensor<2xf32>
      }
      scf.yield %n : tensor<2xf32>
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

// pvary and pscatter need invariant operands: no insertion can fix that.
trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{'spmd.pvary' op needs an operand that is invariant over mesh axis "i", but it already varies there}}
    %v = spmd.pvary %b over ["i"] : tensor<2xf32>
    spmd.yield %v : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<32xf32>) -> tensor<32xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<32xf32>) -> tensor<32xf32> {
  ^bb0(%b: tensor<8xf32>):
    // expected-error @below {{'spmd.pscatter' op needs an operand that is invariant over mesh axis "i", but it already varies there}}
    %v = spmd.pscatter %b over ["i"] dim 0 tiled : tensor<8xf32> -> tensor<2xf32>
    %g = spmd.all_gather %v over ["i"] dim 0 tiled : tensor<2xf32> -> tensor<8xf32>
    spmd.yield %g : tensor<8xf32>
  }
  return %y : tensor<32xf32>
}

// -----

// Region control flow the analysis cannot follow: a region of more than one
// block.
trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{'scf.execute_region' op has region control flow that spmd-check-variance cannot type: a region has more than one block}}
    %r = scf.execute_region -> tensor<2xf32> {
      cf.br ^bb1
    ^bb1:
      scf.yield %b : tensor<2xf32>
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// scf.forall's results come from parallel_insert_slice, not from terminator
// operands: typed by the forwarded values alone, this one (shared_outs
// invariant, inserted values varying over "a") would pass out_specs = [[]]
// and return device 0's block.
trellis.mesh @m = <["a"=2]>
func.func @forall(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = spmd.shard_map @m in_specs = [[]] out_specs = [[]] (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    %i = spmd.axis_index over ["a"] : index
    %f = arith.index_cast %i : index to i32
    %v = arith.sitofp %f : i32 to f32
    // expected-error @below {{'scf.forall' op has region control flow that spmd-check-variance cannot type: a region ends in 'scf.forall.in_parallel', whose values the analysis cannot follow}}
    %r = scf.forall (%k) in (2) shared_outs(%o = %b) -> tensor<2xf32> {
      %s = tensor.splat %v : tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %s into %o[%k] [1] [1] : tensor<1xf32> into tensor<2xf32>
      }
    }
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

func.func private @callee(tensor<2xf32>) -> tensor<2xf32>
trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{returns tensors in a manual region; spmd-check-variance cannot type calls (inline the callee first)}}
    %r = func.call @callee(%b) : (tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %r : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{holds a tensor constant that is not a dense elements attribute; spmd-check-variance cannot annotate its type}}
    %c = arith.constant dense_resource<blob> : tensor<2xf32>
    %s = arith.addf %b, %c : tensor<2xf32>
    spmd.yield %s : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

trellis.mesh @mesh = <["i"=4]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[{"i"}]]
      (%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%b: tensor<2xf32>):
    // expected-error @below {{has a value of type 'tensor<2xf32, "other">' in a manual region; its encoding leaves no room for #spmd.vary}}
    %c = tensor.empty() : tensor<2xf32, "other">
    spmd.yield %b : tensor<2xf32>
  }
  return %y : tensor<8xf32>
}

// -----

trellis.mesh @mesh = <["i"=4]>
// expected-error @below {{has more than one block; spmd-check-variance types single-block device functions}}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> attributes {spmd.mesh = @mesh} {
  cf.br ^bb1
^bb1:
  return %x : tensor<2xf32>
}

// -----

// A future cannot be lifted by a pvary: a loop-carried future whose first
// psum runs on an invariant operand, and whose later ones on one varying
// over "j", is an error (the pvary belongs before the start).
trellis.mesh @mesh = <["i"=2, "j"=2]>
func.func @carried(%x: tensor<8xf32>) -> tensor<8xf32> attributes {spmd.mesh = @mesh} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4 : index
  %k = spmd.axis_index over ["j"] : index
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %f0 = spmd.psum_start %zero over ["i"] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
  // expected-error @below {{'scf.for' op the initial value of loop-carried value #1 is a future of a value that varies over {} but must vary over {"j"} here; apply spmd.pvary to the collective's operand before it starts}}
  %r:2 = scf.for %l = %c0 to %n step %c1 iter_args(%a = %x, %f = %f0) -> (tensor<8xf32>, !spmd.future<tensor<8xf32>>) {
    %g = spmd.collective_wait %f : !spmd.future<tensor<8xf32>>
    %i = arith.index_cast %k : index to i64
    %v = arith.sitofp %i : i64 to f32
    %t = tensor.splat %v : tensor<8xf32>
    %fn = spmd.psum_start %t over ["i"] : tensor<8xf32> -> !spmd.future<tensor<8xf32>>
    scf.yield %g, %fn : tensor<8xf32>, !spmd.future<tensor<8xf32>>
  }
  return %r#0 : tensor<8xf32>
}

// -----

// A region op the inference does not model returning a scalar: an
// axis_index inside its region makes the scalar vary (it was typed
// invariant and the unmapped output kept device 0's block).
trellis.mesh @m = <["a"=2]>
func.func @axis_index_in_switch(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @below {{output #0 may vary over mesh axis "a", but out_specs[0] does not mention it}}
  %y = spmd.shard_map @m in_specs = [[{}]] out_specs = [[]] (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    %c0 = arith.constant 0 : index
    %f = scf.index_switch %c0 -> f32
    case 0 {
      %i = spmd.axis_index over ["a"] : i32
      %c = arith.sitofp %i : i32 to f32
      scf.yield %c : f32
    }
    default {
      %c = arith.constant 2.0 : f32
      scf.yield %c : f32
    }
    %e = tensor.empty() : tensor<2xf32>
    // expected-note @below {{output #0 is computed here}}
    %t = linalg.fill ins(%f : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    spmd.yield %t : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// -----

// A collective inside a region op without region control flow is rejected,
// not left untyped.
trellis.mesh @m = <["a"=2]>
func.func @collective_in_generate(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = spmd.shard_map @m in_specs = [[{"a"}]] out_specs = [[{"a"}]] (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<1xf32>):
    // expected-error @below {{'tensor.generate' op has regions holding 'spmd.psum'; spmd-check-variance types spmd ops only in the body of a shard_map, a device function or an op with region control flow (scf.for, scf.if, scf.while, ...)}}
    %t = tensor.generate {
    ^bb0(%k: index):
      %s = spmd.psum %b over ["a"] : tensor<1xf32>
      %v = tensor.extract %s[%k] : tensor<1xf32>
      tensor.yield %v : f32
    } : tensor<1xf32>
    spmd.yield %t : tensor<1xf32>
  }
  return %y : tensor<2xf32>
}

// -----

// Branches between the blocks of a region steer which scalar is yielded:
// the cond_br's condition varies over "i", so the result does too, and an
// unmapped output of it is refused (typed invariant, this returned device
// 0's block).
trellis.mesh @mesh = <["i"=4]>
func.func @cond_br_in_region(%x: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @below {{output #0 may vary over mesh axis "i", but out_specs[0] does not mention it}}
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    %v = scf.execute_region -> f32 {
      %i = spmd.axis_index over ["i"] : index
      %c0 = arith.constant 0 : index
      %c = arith.cmpi eq, %i, %c0 : index
      cf.cond_br %c, ^a, ^b
    ^a:
      %one = arith.constant 1.0 : f32
      scf.yield %one : f32
    ^b:
      %two = arith.constant 2.0 : f32
      scf.yield %two : f32
    }
    // expected-note @below {{output #0 is computed here}}
    %t = tensor.splat %v : tensor<2xf32>
    spmd.yield %t : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// The same through a block argument: the branches pass constants, the
// condition (captured from outside the region) decides which.
trellis.mesh @mesh = <["i"=4]>
func.func @cond_br_block_argument(%x: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @below {{output #0 may vary over mesh axis "i", but out_specs[0] does not mention it}}
  %r = spmd.shard_map @mesh in_specs = [[{"i"}]] out_specs = [[]]
      (%x) : (tensor<8xf32>) -> tensor<2xf32> {
  ^bb0(%b: tensor<2xf32>):
    %i = spmd.axis_index over ["i"] : index
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %i, %c0 : index
    %v = scf.execute_region -> f32 {
      cf.cond_br %c, ^a, ^b
    ^a:
      %one = arith.constant 1.0 : f32
      cf.br ^m(%one : f32)
    ^b:
      %two = arith.constant 2.0 : f32
      cf.br ^m(%two : f32)
    ^m(%y: f32):
      scf.yield %y : f32
    }
    // expected-note @below {{output #0 is computed here}}
    %t = tensor.splat %v : tensor<2xf32>
    spmd.yield %t : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
