//===- Passes.td - trellis dialect passes ---------------------*- tablegen -*-===//

#ifndef TRELLIS_TRANSFORMS_PASSES_TD
#define TRELLIS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TrellisInferShardings : Pass<"trellis-infer-shardings", "ModuleOp"> {
  let summary = "Infer and check shardings in types on explicit mesh axes";
  let description = [{
    Explicit sharding ("sharding in types", seed 002): every op's result
    sharding follows from its operands' by the op's sharding rule. For each
    factor of the rule the operands' dimensions agree on its axes (all
    unsharded, or one sharding); the result dimensions take them. The pass
    fills the sharding encoding of every result type that has none, and
    raises the seed's errors, located at the op and written in JAX types:

    * a result that would use a mesh axis twice: `add operation with inputs:
      i32[4@X,4], i32[4,4@X] produces an illegally sharded result:
      i32[4@X,4@X]`;
    * a sharded contracting (reduction) dimension without an out_sharding:
      `Contracting dimensions are sharded and it is ambiguous how the output
      should be sharded. ... Got lhs_contracting_spec=('Y',) and
      rhs_contracting_spec=('Y',)`;
    * operands that shard the same dimension differently, a sliced, padded
      or concatenated dimension that is sharded, and reshapes that split or
      merge a sharded dimension (JAX's reshape rule: size-1 dimensions are
      ignored; a split or merge of an unsharded dimension keeps the other
      dimensions' shardings).

    A result type that already carries a sharding is the user's
    `out_sharding`. Destination-style ops take their out_sharding from their
    `outs` operand: an init that is a fresh `tensor.empty` (possibly filled)
    without a sharding leaves the result to inference, and is retyped to the
    inferred sharding. A function result declared without a sharding takes
    the inferred one. A function with no sharding in any type (auto mode
    only) is left as it is, and a module of such functions is not verified
    again after the pass.

    ```mlir
    // Before: %init has no sharding.
    %r = linalg.add ins(%x, %y : tensor<4x8xi32, #trellis.sharding<@m, [{"X"}, {}] # "}]" # [{>>,
                                 tensor<4x8xi32, #trellis.sharding<@m, [{}, {"Y"}] # "}]" # [{>>)
                    outs(%init : tensor<4x8xi32>) -> tensor<4x8xi32>
    // After: tensor<4x8xi32, #trellis.sharding<@m, [{"X"}, {"Y"}] # "}]" # [{>> for %init and %r.
    ```
  }];
}

def TrellisPropagate : Pass<"trellis-propagate", "ModuleOp"> {
  let summary = "Propagate shardings over auto axes (compiler, take the wheel)";
  let description = [{
    Gives every tensor value a `trellis.sharding` attribute, starting from
    the shardings the user gave: function argument and result attributes,
    `trellis.sharding_constraint`, explicit types, and the in/out specs of
    embedded `spmd.shard_map`s. It propagates forward and backward through
    each op's sharding rule (one factor at a time: a factor's axes spread to
    every dimension that holds it), through `scf.for` / `scf.if` (carries,
    yields and results share a sharding) to a fixed point.

    Conflicts are resolved deterministically, in this order: a sharding the
    user gave wins over a derived one; pass-through ops (elementwise ops,
    reshapes, control flow) propagate before the others; between derived
    candidates, the larger tensor's wins, then the earlier in program
    order. A dimension marked closed (the default for user shardings) keeps
    its axes; an open one (`{"X", ?}`) and every unannotated dimension may
    gain axes. Slicing, padding and concatenated dimensions are never split.

    With `conservative`, a factor whose candidates conflict keeps only
    their common prefix instead of taking the winner's axes.
  }];
  let options = [
    Option<"conservative", "conservative", "bool", /*default=*/"false",
           "Propagate only conflict-free axes">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Annotate each value (op results, function arguments) with "
           "`trellis.sharding_origin`: per dimension, the argument, result, "
           "constraint, type or shard_map spec its axes came from, how many "
           "ops they crossed and the last one">,
  ];
}

def TrellisInlineCalls : Pass<"trellis-inline-calls", "ModuleOp"> {
  let summary = "Inline calls and drop the functions left unused";
  let description = [{
    Propagation and partitioning work within one function, so
    `trellis-global-to-manual` first inlines every call (upstream `inline`
    with no simplification pipeline, then `symbol-dce`). A module without
    calls is left alone without running either: on large single-function
    programs they cost as much as propagation itself.
  }];
}

def TrellisStripShardings : Pass<"trellis-strip-shardings", "ModuleOp"> {
  let summary = "Drop every sharding: the unpartitioned global program";
  let description = [{
    Removes `trellis.sharding` attributes and sharding encodings from types,
    replaces `trellis.reshard`, `trellis.sharding_constraint` and
    `trellis.propagation_barrier` by their operands, drops
    `trellis.sharding_group` and inlines `trellis.auto_axes` / `trellis.explicit_axes`
    bodies. What remains computes the same values on a single device (or,
    with `spmd.shard_map` regions, with every value outside them
    replicated); `trellis-run --reference` runs it as the oracle.
  }];
}

def TrellisPrintTypes : Pass<"trellis-print-types", "ModuleOp"> {
  let summary = "Print every value's JAX-style type (jax.typeof)";
  let description = [{
    Prints, per function, each block argument and op result with its type
    in JAX's notation: `float32[4@X,4@Y]` for a tensor split over X and Y
    (a dimension split over several axes prints as `8@(X,Y)`). Only explicit
    axes appear in types, as in JAX. The IR is unchanged.
  }];
}

def TrellisTestPrintShardingRules
    : Pass<"trellis-test-print-sharding-rules", "ModuleOp"> {
  let summary = "Report each op's sharding rule as a remark (for tests)";
  let description = [{
    Emits `sharding rule: ([i, k], [k, j], [i, j]) -> ([i, j]) {...}` at
    every op that has a rule, so rules are lit-tested with
    `-verify-diagnostics`.
  }];
}

def TrellisVerifyShardings : Pass<"trellis-verify-shardings", "ModuleOp"> {
  let summary = "Check every sharding encoding against its mesh";
  let description = [{
    Checks each `#trellis.sharding` in a type: the mesh exists, its axes
    exist and are explicit where the value lives, and each dimension is
    divisible by the product of its axes' sizes. The first trellis.mesh of a
    module runs the same check when it is verified; this pass also covers
    modules without a mesh.
  }];
}

def TrellisVerifyManual : Pass<"trellis-verify-manual", "ModuleOp"> {
  let summary = "Check that only per-device code is left for lowering";
  let description = [{
    The check between `trellis-global-to-manual` and the lowering: no
    trellis op but `trellis.mesh` is left (a `trellis.reshard`, a
    `trellis.sharding_constraint` or an `auto_axes`/`explicit_axes` region
    left behind means the partitioner did not handle something); inside
    `spmd.shard_map` bodies no type is sharded; outside them only function
    arguments and
    shard_map results have sharded types (global code computes replicated
    values). Each violation is a located error; the lowering would
    otherwise drop the sharding silently
    or fail far from its cause.
  }];
}

#endif // TRELLIS_TRANSFORMS_PASSES_TD
