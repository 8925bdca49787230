//===- Passes.h - trellis dialect passes ------------------------*- C++ -*-===//

#ifndef TRELLIS_TRANSFORMS_TRELLIS_PASSES_H
#define TRELLIS_TRANSFORMS_TRELLIS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::trellis {

/// trellis-infer-shardings on one function: fills the sharding encodings of
/// its values' types from the shardings in its argument types (nothing when
/// it has none), with the pass's located errors.
LogicalResult inferShardingsInFunction(func::FuncOp func);

#define GEN_PASS_DECL
#include "trellis/Transforms/Trellis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Transforms/Trellis/Passes.h.inc"

} // namespace mlir::trellis

#endif // TRELLIS_TRANSFORMS_TRELLIS_PASSES_H
