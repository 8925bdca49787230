//===- CollectiveOpInterface.h - What a collective means --------*- C++ -*-===//
//
// The vocabulary of spmd's CollectiveOpInterface: seed 001's variance rules
// and the elementwise reductions, and the interface itself.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SPMD_IR_COLLECTIVEOPINTERFACE_H
#define DIALECTS_SPMD_IR_COLLECTIVEOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>
#include <string>

namespace mlir::spmd {

/// Seed 001's typing rule of a collective, over each of its axes: what the
/// operand must be there, and what the op does to the result's variance.
struct VarianceRule {
  enum class Need {
    Nothing,   ///< No operand (the axis queries).
    Varying,   ///< Reductions, gathers, scatters, all_to_all, ppermute.
    Invariant, ///< pvary and pscatter.
  };
  enum class Effect {
    Keep,   ///< The result varies where the operand does.
    Remove, ///< The result no longer varies over the axes.
    Add,    ///< The result varies over the axes as well.
  };
  Need need;
  Effect effect;

  /// The axes the result varies over, given the operand's `operandVary`
  /// and the op's `axes` (in the order of `operandVary`, new axes
  /// appended); fails, explaining why in `reason`, when the operand's
  /// variance is wrong for the op.
  FailureOr<SmallVector<StringAttr>> apply(ArrayRef<StringAttr> operandVary,
                                           ArrayRef<StringAttr> axes,
                                           std::string &reason) const;
};

/// The elementwise combination of a reducing collective.
enum class ReductionKind { Sum, Max, Min, Mean };

namespace detail {
/// The product of the sizes of `axes` where `op` is (1 outside manual code).
int64_t groupSizeOf(Operation *op, ArrayRef<StringAttr> axes);
} // namespace detail

} // namespace mlir::spmd

#include "dialects/spmd/IR/CollectiveOpInterface.h.inc"

namespace mlir::spmd {
/// Whether `op` is an axis query (axis_index, axis_size): a collective
/// without operands that moves no data, whose result depends only on where
/// it runs.
inline bool isAxisQuery(Operation *op) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  return collective && op->getNumOperands() == 0 && !collective.communicates();
}
} // namespace mlir::spmd

#endif // DIALECTS_SPMD_IR_COLLECTIVEOPINTERFACE_H
