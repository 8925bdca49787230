//===- Passes.h - Trellis conversions ---------------------------*- C++ -*-===//

#ifndef TRELLIS_CONVERSION_PASSES_H
#define TRELLIS_CONVERSION_PASSES_H

#include "dialects/spmd/IR/SpmdDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::trellis {

#define GEN_PASS_DECL
#include "trellis/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "trellis/Conversion/Passes.h.inc"

} // namespace mlir::trellis

#endif // TRELLIS_CONVERSION_PASSES_H
