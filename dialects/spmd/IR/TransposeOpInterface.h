//===- TransposeOpInterface.h - How a linear op transposes ------*- C++ -*-===//
//
// The state spmd-transpose hands to an op's transpose rule, and the
// interface itself.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SPMD_IR_TRANSPOSEOPINTERFACE_H
#define DIALECTS_SPMD_IR_TRANSPOSEOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::spmd {

/// What a transpose rule sees of spmd-transpose in the block it works on:
/// which values are linear, the forward copies of the others, and the
/// cotangents gathered so far.
class TransposeState {
public:
  virtual ~TransposeState() = default;

  /// Whether `v` depends on the linear arguments.
  virtual bool isLinear(Value v) const = 0;
  /// The copy of non-linear `v` in the new program.
  virtual Value forward(Value v) = 0;
  /// `list` with its values replaced by their forward copies.
  virtual SmallVector<OpFoldResult> forward(ArrayRef<OpFoldResult> list) = 0;
  /// The cotangent of linear `primal` gathered so far (null: none yet).
  virtual Value cotangent(Value primal) = 0;
  /// Replaces the cotangent of `primal` by `c` (a rule that accumulates
  /// into the old one itself).
  virtual void setCotangent(Value primal, Value c) = 0;
  /// Adds `contribution` to the cotangent of `primal`.
  virtual void accumulate(OpBuilder &b, Location loc, Value primal,
                          Value contribution) = 0;
  /// Succeeds when non-linear operand #`operand` of `op` is zero; fails
  /// with a located error otherwise (the function would be affine).
  virtual LogicalResult requireZero(Operation *op, unsigned operand) = 0;
};

} // namespace mlir::spmd

#include "dialects/spmd/IR/TransposeOpInterface.h.inc"

#endif // DIALECTS_SPMD_IR_TRANSPOSEOPINTERFACE_H
