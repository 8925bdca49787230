//===- Passes.h - Differentiation -------------------------------*- C++ -*-===//
//
// Reverse-mode differentiation of (sharded) programs.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_AUTODIFF_PASSES_H
#define TRELLIS_AUTODIFF_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::trellis {

#define GEN_PASS_DECL
#include "trellis/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Autodiff/Passes.h.inc"

} // namespace mlir::trellis

#endif // TRELLIS_AUTODIFF_PASSES_H
