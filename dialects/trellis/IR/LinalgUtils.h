//===- LinalgUtils.h - Questions about linalg ops ---------------*- C++ -*-===//
//
// Checks on linalg ops that several passes ask and upstream answers too
// loosely for them.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_IR_LINALGUTILS_H
#define DIALECTS_TRELLIS_IR_LINALGUTILS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::trellis {

/// Whether `op` is a contraction that is bilinear in its two inputs, so a
/// pass may treat it as a matrix product of its operands (lower it to a
/// matmul kernel, transpose or differentiate it as one): a named
/// contraction, or one whose body is exactly `yield(acc + a * b)` of its
/// block arguments (floats or integers), or with `allowExtensions` also
/// `acc + ext(a) * ext(b)`. isaContractionOpInterface also accepts bodies
/// with other unary ops on the factors (`acc + a * exp(b)`), which are not
/// products of the operands.
bool isPlainContraction(linalg::LinalgOp op, bool allowExtensions = false);

} // namespace mlir::trellis

#endif // DIALECTS_TRELLIS_IR_LINALGUTILS_H
