//===- Passes.h - spmd dialect passes ---------------------------*- C++ -*-===//

#ifndef TRELLIS_TRANSFORMS_SPMD_PASSES_H
#define TRELLIS_TRANSFORMS_SPMD_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::spmd {

#define GEN_PASS_DECL
#include "trellis/Transforms/Spmd/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Transforms/Spmd/Passes.h.inc"

} // namespace mlir::spmd

#endif // TRELLIS_TRANSFORMS_SPMD_PASSES_H
