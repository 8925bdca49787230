//===- ShardingRule.h - Factor-based sharding rules of ops ------*- C++ -*-===//
//
// How an op's operand and result dimensions relate, as Shardy's op sharding
// rules describe them: the op's iteration space is a set of *factors* (loop
// dimensions, the pieces of a reshaped dimension), and each tensor dimension
// of each operand and result is a list of factors, major to minor. Sharding
// a factor over mesh axes shards every dimension that holds it.
//
// A factor is parallel (it appears in results), a reduction (operands only:
// sharding it leaves partial sums), or needs replication (the op slices,
// pads or concatenates along it, so the dimension must be whole).
//
// `matmul` is ([i, k], [k, j], [i, j]) -> ([i, j]) with k a reduction.
//
// A dimension a convolution or stencil reads through a window of a loop
// (`stride * o + k`, `o + 1`) holds no factor; the rule lists it as a
// window of that loop's factor, which stays parallel: when the factor is
// split, each device reads its block's window of the dimension (its
// block plus a halo from the neighbours).
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_INTERFACES_SHARDINGRULE_H
#define DIALECTS_TRELLIS_INTERFACES_SHARDINGRULE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::trellis {

enum class FactorKind { Parallel, Reduction, NeedReplication };

/// The factors of one tensor dimension, major to minor (empty: a size-1
/// or broadcast dimension that no factor iterates).
using DimFactors = SmallVector<int64_t, 2>;
/// The factors of every dimension of one operand or result (empty for a
/// scalar or non-tensor value).
using ValueFactors = SmallVector<DimFactors>;

/// An operand dimension read at `stride * o + offset` for a parallel loop
/// `o` (the factor) and offsets in [`minOffset`, `maxOffset`] (a
/// convolution's or pooling's window, a stencil's shifts). The block
/// [o0, o0 + b) of the factor reads [stride * o0 + minOffset,
/// stride * (o0 + b - 1) + maxOffset].
struct WindowDim {
  int64_t operand;
  int64_t dim;
  int64_t factor;
  int64_t stride;
  int64_t minOffset;
  int64_t maxOffset;
};

struct ShardingRule {
  SmallVector<int64_t> factorSizes; ///< ShapedType::kDynamic if unknown
  SmallVector<FactorKind> factorKinds;
  SmallVector<ValueFactors> operands;
  SmallVector<ValueFactors> results;
  /// For destination-style ops: result i is written into operand
  /// tiedInit[i] (-1 if none).
  SmallVector<int64_t> tiedInit;
  /// Operand dimensions read through windows of parallel factors.
  SmallVector<WindowDim> windows;
  /// For a rule the user declared (`trellis.rule`): how partial results
  /// over split reduction factors combine ("sum", "max", "min"), or empty
  /// when they cannot (reduction factors then stay whole).
  std::string declaredReduction;

  int64_t addFactor(int64_t size, FactorKind kind) {
    factorSizes.push_back(size);
    factorKinds.push_back(kind);
    return static_cast<int64_t>(factorSizes.size() - 1);
  }
  int64_t numFactors() const { return factorSizes.size(); }
  bool isReduction(int64_t f) const {
    return factorKinds[f] == FactorKind::Reduction;
  }
  bool needsReplication(int64_t f) const {
    return factorKinds[f] == FactorKind::NeedReplication;
  }
  /// The first factor of a dimension's `factors` whose size is not 1 (the
  /// one a sharding of the dimension splits), or -1 when there is none.
  int64_t majorFactor(const DimFactors &factors) const;

  /// `([i, k], [k, j]) -> ([i, j]) {i=2, j=4, k=8} reduction={k}`.
  std::string str() const;
};

/// How the partitioner split an op's factors, for
/// ShardingRuleOpInterface::buildLocalOp.
struct FactorSplit {
  /// The mesh axes splitting each factor of the op's rule (none: whole).
  ArrayRef<SmallVector<StringAttr>> axes;
  /// Builds, at the builder's insertion point, the index at which this
  /// device's block of split factor `f` starts in the whole factor.
  function_ref<Value(OpBuilder &builder, Location loc, int64_t f)> blockOffset;
};

/// `op` cloned at `builder`'s insertion point with its operands replaced by
/// `operands` and its result types by `resultTypes`; the values its regions
/// capture go through `mapping`. The default of buildLocalOp.
Operation *cloneOnLocal(OpBuilder &builder, Operation *op, ValueRange operands,
                        TypeRange resultTypes, IRMapping &mapping);

/// Parses a rule the user declares for `op` in `trellis.rule`:
///
///   rule   := values `->` values (`;` clause)*
///   values := value (`,` value)*      one per tensor operand / result
///   value  := (letter | `_`)*         one per dimension; `_`: no factor
///   clause := `reduce` (`sum` | `max` | `min`) | `whole` letter+
///
/// Letters name factors: those in a result are parallel, the others
/// reductions, whose partial results combine as `reduce` says (without
/// it they stay whole); `whole` factors need replication. Each factor must
/// have one size wherever it appears. `"ij,jk->ik; reduce sum"` is a
/// matmul; `"ij->ij; whole j"` a row-wise softmax. Diagnostics go to
/// `emitError` when given.
FailureOr<ShardingRule>
parseDeclaredRule(Operation *op, StringRef text,
                  function_ref<InFlightDiagnostic()> emitError = {});

/// The sharding rule of `op`: the one it declares in `trellis.rule`, else
/// its ShardingRuleOpInterface's; failure when it has none.
FailureOr<ShardingRule> getShardingRule(Operation *op);

/// The value whose blocks supply a window read of `operand` along `dim`:
/// the source of a tensor.pad with a constant padding value and static
/// amounts (`low` is then the padding before the first element), else
/// `operand` itself (`low` 0).
Value windowSource(Value operand, int64_t dim, int64_t &low);

/// The rule of an op whose result dimensions are all parallel factors shared
/// by its tensor operands of the same rank (elementwise ops).
FailureOr<ShardingRule> elementwiseRule(Operation *op);

} // namespace mlir::trellis

#include "dialects/trellis/Interfaces/ShardingRuleInterface.h.inc"

#endif // DIALECTS_TRELLIS_INTERFACES_SHARDINGRULE_H
