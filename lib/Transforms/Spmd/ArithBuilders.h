//===- ArithBuilders.h - Small arith builders shared by passes --*- C++ -*-===//
//
// Builders the spmd passes share when they emit arithmetic on tensors or
// scalars whose element type they do not know in advance.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_TRANSFORMS_SPMD_ARITHBUILDERS_H
#define TRELLIS_LIB_TRANSFORMS_SPMD_ARITHBUILDERS_H

#include "mlir/IR/Builders.h"

namespace mlir::spmd {

/// `x + y`: arith.addf for floating-point elements, arith.addi otherwise.
Value buildAdd(OpBuilder &b, Location loc, Value x, Value y);

} // namespace mlir::spmd

#endif // TRELLIS_LIB_TRANSFORMS_SPMD_ARITHBUILDERS_H
