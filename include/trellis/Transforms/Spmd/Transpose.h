//===- Transpose.h - Transpose one linear function --------------*- C++ -*-===//
//
// The transposition that spmd-transpose runs on each marked function, for
// other passes to call (trellis-grad transposes the linearized program).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_TRANSFORMS_SPMD_TRANSPOSE_H
#define TRELLIS_TRANSFORMS_SPMD_TRANSPOSE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::spmd {

struct TransposeOptions {
  /// Transpose as JAX did before device-variance types (psum to psum, 1/N).
  bool naive = false;
  /// The primal's first results that do not depend on the linear
  /// arguments: the transpose returns their values first, before the
  /// cotangents, and takes no cotangent for them.
  unsigned numForwardResults = 0;
};

/// Builds `@name`, the transpose of `primal`, right after it and adds it to
/// `symbols`. `primal` is linear in its arguments except those marked
/// `spmd.nonlinear`; the transpose takes those, then one cotangent per
/// (non-forward) result, and returns the forward results, then one
/// cotangent per linear argument. It is typed by variance inference. Fails
/// with located errors and leaves the module unchanged.
FailureOr<func::FuncOp> transposeFunction(func::FuncOp primal, StringRef name,
                                          SymbolTable &symbols,
                                          const TransposeOptions &options);

/// Rewrites every scf.while in `func` that reads `active` values (or values
/// computed from them) into forms that run backwards: counting loops into
/// scf.for; others into their trip count (a copy of the loop carrying only
/// what its condition needs, plus a counter), an scf.for over it, and the
/// condition's computation on the final state. With `activeCondition`
/// false, a condition that depends on active values is a located error (a
/// loop linear in them cannot decide on them). Used on scratch copies by
/// spmd-transpose (active: the linear arguments) and trellis-grad (the
/// differentiated ones).
LogicalResult rewriteWhileLoops(func::FuncOp func, ArrayRef<Value> active,
                                bool activeCondition);

/// Drops `#spmd.vary` from every type inside `func`'s body (but not from its
/// arguments when `keepArguments`) and from constants, and updates its type.
void stripVarianceInside(func::FuncOp func, bool keepArguments);

} // namespace mlir::spmd

#endif // TRELLIS_TRANSFORMS_SPMD_TRANSPOSE_H
