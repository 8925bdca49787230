//===- Passes.td - Differentiation -------------------------*- tablegen -*-===//
//
// Reverse-mode differentiation of (sharded) programs.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_AUTODIFF_PASSES
#define TRELLIS_AUTODIFF_PASSES

include "mlir/Pass/PassBase.td"

def TrellisGrad : Pass<"trellis-grad", "ModuleOp"> {
  let summary = "Build the gradient of a scalar loss (reverse mode)";
  let description = [{
    For every function named by `funcs` (or marked `trellis.grad`), whose
    first result is a scalar floating-point loss (`tensor<f32>`, any float
    type), builds `@<name><suffix>`: it takes the same arguments and returns
    the function's results followed by the gradient of the loss with
    respect to each argument in `wrt` (all floating-point tensor arguments
    when empty; a `trellis.grad = [i, j]` marker names them too). Each
    gradient carries its argument's type and attributes, its sharding
    included, so the partitioner sees a sharded backward pass. An external
    declaration of `@<name><suffix>` is replaced by the gradient, so a
    training loop in the same module can call it before it exists (its
    type must match).

    The gradient is the transpose of the linearization, as in JAX: every
    op's `DerivativeOpInterface` rule builds its tangent (a linear
    function of the operands' tangents), and `spmd-transpose`'s machinery
    turns the linear program around. So a `shard_map` differentiates with
    seed 001's rules: the cotangent of a `psum` is a `pvary` (no
    communication), that of an invariant input's implicit fan-out is a
    `psum`, `all_gather` goes to `psum_scatter`, and so on. The forward
    values the backward pass needs are computed once at the top level;
    inside a `shard_map` the backward body recomputes the forward one (its
    unread collectives are dropped).

    Rules: arith add/sub/mul/div/neg/max/min/select/extf/truncf, math
    exp/exp2/expm1/log/log1p/log2/tanh/erf/sqrt/rsqrt/sin/cos/absf/powf,
    contractions (`linalg.matmul`, `batch_matmul`, `linalg.generic` matrix
    products), `linalg.generic` bodies of those scalar ops (maps, and sums
    over reduction loops), `linalg.reduce` (add; max/min split the
    derivative evenly among ties), `linalg.transpose`, `broadcast`,
    `copy`, `fill`, the `tensor` slicing and reshaping ops, every
    collective, `spmd.shard_map`, `scf.for` (the state it carries saved
    per iteration; constant trip count) and `scf.if`. An op without a rule
    is a located error; calls must be inlined first (`--inline`).
  }];
  let options = [
    ListOption<"funcs", "funcs", "std::string",
               "Functions to differentiate (besides those marked "
               "trellis.grad)">,
    ListOption<"wrt", "wrt", "unsigned",
               "Argument indices to differentiate with respect to (default: "
               "every floating-point tensor argument)">,
    Option<"suffix", "suffix", "std::string", /*default=*/"\"_grad\"",
           "Name of the gradient: the function's name followed by this">,
    Option<"naive", "naive", "bool", /*default=*/"false",
           "Transpose as JAX did before device-variance types (psum to "
           "psum with 1/N): for comparing what the backward pass sends">,
    Option<"jvp", "jvp", "bool", /*default=*/"false",
           "Stop at forward mode: build @<name>_jvp(args..., tangents of "
           "the wrt arguments...) -> (results..., tangent of the loss) "
           "instead of the gradient">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::spmd::SpmdDialect",
  ];
}

#endif // TRELLIS_AUTODIFF_PASSES
