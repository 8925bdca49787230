//===- Passes.h - Trellis analyses and reports ------------------*- C++ -*-===//
//
// Passes that measure a program and leave it unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_ANALYSIS_PASSES_H
#define TRELLIS_ANALYSIS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::trellis {

#define GEN_PASS_DECL
#include "trellis/Analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Analysis/Passes.h.inc"

} // namespace mlir::trellis

#endif // TRELLIS_ANALYSIS_PASSES_H
