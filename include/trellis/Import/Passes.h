//===- Passes.h - The StableHLO importer ------------------------*- C++ -*-===//

#ifndef TRELLIS_IMPORT_PASSES_H
#define TRELLIS_IMPORT_PASSES_H

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::trellis {

#define GEN_PASS_DECL
#include "trellis/Import/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Import/Passes.h.inc"

} // namespace mlir::trellis

#endif // TRELLIS_IMPORT_PASSES_H
