//===- Passes.td - The StableHLO importer -------------------*- tablegen -*-===//

#ifndef TRELLIS_IMPORT_PASSES_TD
#define TRELLIS_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def TrellisImportStableHLO
    : Pass<"trellis-import-stablehlo", "::mlir::ModuleOp"> {
  let summary = "Convert StableHLO with Shardy shardings to Trellis IR";
  let description = [{
    Rewrites a module as JAX prints it (`jax.jit(f).lower(...).as_text()`,
    pretty or generic form) into the IR the rest of Trellis takes:

    - `sdy.mesh` becomes `trellis.mesh`; `#sdy.sharding` on arguments,
      results and ops becomes `trellis.sharding` (ops: a
      `trellis.sharding_constraint` on the result); `sdy.sharding_constraint`
      and `sdy.reshard` become `trellis.sharding_constraint`.
    - StableHLO compute ops become linalg, tensor, arith and math ops on
      tensors: elementwise ops, `dot_general` (a `linalg.generic` that
      accumulates in the result type, so bf16 x bf16 -> f32 stays exact),
      `reduce` (any reducer built from elementwise ops, argmax included),
      `broadcast_in_dim`, `reshape`, `transpose`, `slice`, `concatenate`,
      `pad`, `reverse`, `iota`, `convert`, `compare`, `select`.
    - `jax.result_info` / `jax.arg_info` become `trellis.name`, the names
      trellis-run prints and reads inputs by.

    Whatever it does not model stops the import with a located error naming
    the op or attribute: sub-axes, dynamic shapes, unsigned or complex
    element types, `TOTALORDER` comparisons, meshes with a device order.
  }];
  let dependentDialects = [
    "::mlir::trellis::TrellisDialect",
    "::mlir::spmd::SpmdDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::func::FuncDialect",
  ];
}

#endif // TRELLIS_IMPORT_PASSES_TD
