//===- Passes.h - spmd dialect passes ---------------------------*- C++ -*-===//

#ifndef TRELLIS_DIALECT_SPMD_TRANSFORMS_PASSES_H
#define TRELLIS_DIALECT_SPMD_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::spmd {

#define GEN_PASS_DECL
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"

} // namespace mlir::spmd

#endif // TRELLIS_DIALECT_SPMD_TRANSFORMS_PASSES_H
