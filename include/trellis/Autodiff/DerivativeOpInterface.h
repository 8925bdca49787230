//===- DerivativeOpInterface.h - How an op differentiates -------*- C++ -*-===//
//
// The state trellis-grad hands to an op's derivative rule, and the
// interface itself.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_AUTODIFF_DERIVATIVEOPINTERFACE_H
#define TRELLIS_AUTODIFF_DERIVATIVEOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::trellis {

/// What a derivative rule sees of the program being linearized: the copies
/// of primal values in the new program and the tangents found so far.
class JvpState {
public:
  virtual ~JvpState() = default;

  /// The copy of the old program's `v` in the new program.
  virtual Value primal(Value v) = 0;
  /// The copies of `list`'s values.
  SmallVector<OpFoldResult> primal(ArrayRef<OpFoldResult> list) {
    SmallVector<OpFoldResult> out;
    for (OpFoldResult ofr : list) {
      if (auto v = dyn_cast<Value>(ofr))
        out.push_back(primal(v));
      else
        out.push_back(ofr);
    }
    return out;
  }
  /// The tangent of the old program's `v` (null: zero, or not
  /// differentiated).
  virtual Value tangent(Value v) = 0;
  /// The tangent of `v`, or zeros of its type when it has none.
  virtual Value tangentOrZeros(OpBuilder &b, Location loc, Value v) = 0;
  /// Records `t` as the tangent of the old program's `v`.
  virtual void setTangent(Value v, Value t) = 0;
};

/// Registers the DerivativeOpInterface models of arith, math, linalg and
/// tensor ops (lib/Autodiff).
void registerDerivativeOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace mlir::trellis

#include "trellis/Autodiff/DerivativeOpInterface.h.inc"

#endif // TRELLIS_AUTODIFF_DERIVATIVEOPINTERFACE_H
