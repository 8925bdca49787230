//===- Transposer.h - spmd-transpose's state and helpers --------*- C++ -*-===//
//
// Private to spmd-transpose: the Transposer's driver (analysis, forward
// copies, the backward walk and the dispatch to the rules) is in
// Transpose.cpp with the pass; the rules of collectives, shard_maps and
// loops in TransposeRegions.cpp. Single upstream ops transpose through
// TransposeOpInterface, whose external models (arith and tensor ops in
// TransposeElementwise.cpp, linalg ops in TransposeLinalg.cpp) the pass
// registers.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_TRANSFORMS_SPMD_TRANSPOSER_H
#define TRELLIS_LIB_TRANSFORMS_SPMD_TRANSPOSER_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/spmd/IR/TransposeOpInterface.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "lib/Transforms/Spmd/ArithBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::spmd::transpose {

/// Whether `type`'s element type is a float.
bool isFloat(Type type);

/// A zero tensor of `type` (without its variance encoding).
Value zeros(OpBuilder &b, Location loc, Type type);
/// The zeros a transposed reduction of `inputs` accumulates into, of
/// `type`: where an input is sharded over explicit axes and `type` is not,
/// a constant, which (not being a fresh tensor) is the reduction's
/// out_sharding: replicated, as its primal is; else `zeros`, whose type
/// carries the primal's sharding or leaves it to inference.
Value reductionZeros(OpBuilder &b, Location loc, Type type, ValueRange inputs);

/// `x * y`: arith.mulf for floating-point elements, arith.muli otherwise.
Value mul(OpBuilder &b, Location loc, Value x, Value y);

/// `-x`: arith.negf for floating-point elements, `0 - x` otherwise.
Value negate(OpBuilder &b, Location loc, Value x);

/// The axes as the array attribute collectives take.
ArrayAttr axesAttr(OpBuilder &b, ArrayRef<StringAttr> axes);

/// Whether `v` is statically all zeros (through pvarys).
bool isZero(Value v);

/// `acc + c`. A contribution that only fills a slice of zeros (the
/// transpose of an extract_slice) is added to that slice of `acc` alone, so
/// a loop over the slices of a stacked tensor (layers) accumulates in time
/// linear in the stack, not quadratic.
Value addCotangents(OpBuilder &b, Location loc, Value acc, Value c);

/// The trip count of `loop` when its bounds and step are constants.
std::optional<int64_t> getConstantTripCount(scf::ForOp loop);

/// Iteration number `(iv - lb) / step` of `loop` as an index, for the
/// forward program's `iv`, `lb` and `step`.
Value iterationIndex(OpBuilder &b, Location loc, Value iv, Value lb,
                     Value step);

/// Per-block state.
struct Scope {
  /// Primal non-linear values to their copies in the new program.
  IRMapping fwd;
  /// Primal linear values to their accumulated cotangents.
  DenseMap<Value, Value> ct;
};

/// The TransposeOpInterface model that applies `Rule`, a function
/// `(OpTy, TransposeState &, Value cotangent, OpBuilder &) -> LogicalResult`.
template <typename OpTy, auto Rule>
struct RuleModel
    : TransposeOpInterface::ExternalModel<RuleModel<OpTy, Rule>, OpTy> {
  LogicalResult transpose(Operation *op, TransposeState &state, Value cotangent,
                          OpBuilder &b) const {
    return Rule(cast<OpTy>(op), state, cotangent, b);
  }
};

/// Attaches TransposeOpInterface to arith's add, sub, neg, mul and divf and
/// to tensor's extract_slice, insert_slice, expand_shape, collapse_shape and
/// concat (TransposeElementwise.cpp).
void registerElementwiseTransposeModels(DialectRegistry &registry);

/// Attaches TransposeOpInterface to linalg's transpose, broadcast, reduce
/// and copy (TransposeLinalg.cpp).
void registerLinalgTransposeModels(DialectRegistry &registry);

/// The rule of a linalg op without a TransposeOpInterface model: a
/// contraction, or an error.
LogicalResult transposeLinalg(linalg::LinalgOp op, TransposeState &state,
                              OpBuilder &b);

class Transposer {
public:
  explicit Transposer(bool naive) : naive(naive) {}

  /// Builds the transpose of `primal` (a typed function) as `name`, inserted
  /// with `b`. Its first `numForwardResults` results do not depend on the
  /// linear arguments: the transpose returns their values first instead of
  /// taking their cotangents.
  FailureOr<func::FuncOp> run(func::FuncOp primal, StringRef name, OpBuilder &b,
                              unsigned numForwardResults = 0);

private:
  bool isLinear(Value v) const { return linear.contains(v); }

  /// Linear values captured by `op`'s regions (defined outside `op`).
  SetVector<Value> capturedLinear(Operation *op) const {
    SetVector<Value> found;
    op->walk([&](Operation *inner) {
      if (inner == op)
        return;
      for (Value operand : inner->getOperands())
        if (isLinear(operand) &&
            !op->isAncestor(operand.getParentRegion()->getParentOp()))
          found.insert(operand);
    });
    return found;
  }

  /// Whether `op` reads a linear value (a linalg op's init counts only when
  /// its payload reads it).
  bool readsLinear(Operation *op) const {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    for (OpOperand &operand : op->getOpOperands())
      if (isLinear(operand.get()) &&
          (!linalgOp || !linalgOp.isDpsInit(&operand) ||
           linalgOp.payloadUsesValueFromOperand(&operand)))
        return true;
    return op->getNumRegions() && !capturedLinear(op).empty();
  }

  bool touchesLinear(Operation *op) const {
    return llvm::any_of(op->getResults(),
                        [&](Value v) { return isLinear(v); }) ||
           readsLinear(op);
  }

  LogicalResult analyzeBlock(Block &block);
  LogicalResult analyzeOp(Operation *op);

  LogicalResult cloneForward(Block &block, Scope &s, OpBuilder &b);
  /// Copies forward the part of a shard_map that computes its used
  /// non-linear outputs (when others are linear).
  LogicalResult cloneForwardShardMap(ShardMapOp map, Scope &s, OpBuilder &b);
  /// The same for an auto_axes / explicit_axes region.
  LogicalResult cloneForwardAxisRegion(Operation *op, Scope &s, OpBuilder &b);
  /// Copies forward the non-linear values a loop carries beside linear
  /// ones, saving each iteration's in a tensor (`saved`) for the backward
  /// loop to read when the trip count is a constant.
  LogicalResult cloneForwardFor(scf::ForOp loop, Scope &s, OpBuilder &b);
  /// A forward copy of `loop` from its lower bound to `ub`, carrying the
  /// non-linear values `carried` (and, when `rows` is given, one tensor per
  /// carried value with `rows` rows, each iteration storing its values in
  /// its row); null after an error.
  scf::ForOp forwardLoop(scf::ForOp loop, ArrayRef<unsigned> carried, Scope &s,
                         OpBuilder &b, Value ub, std::optional<int64_t> rows);
  /// Copies forward the used non-linear results of an scf.if whose other
  /// results are linear.
  LogicalResult cloneForwardIf(scf::IfOp op, Scope &s, OpBuilder &b);
  LogicalResult transposeBackward(Block &block, Scope &s, OpBuilder &b);
  LogicalResult transposeOp(Operation *op, Scope &s, OpBuilder &b);
  /// The error for a linear op that no rule transposes.
  LogicalResult noRule(Operation *op);

  Value fwd(Scope &s, Value v) { return s.fwd.lookupOrNull(v); }
  OpFoldResult fwd(Scope &s, OpFoldResult ofr) {
    if (auto v = dyn_cast<Value>(ofr))
      return fwd(s, v);
    return ofr;
  }
  SmallVector<OpFoldResult> fwd(Scope &s, ArrayRef<OpFoldResult> list) {
    return llvm::map_to_vector(list,
                               [&](OpFoldResult ofr) { return fwd(s, ofr); });
  }
  void accumulate(Scope &s, OpBuilder &b, Location loc, Value primal,
                  Value contribution) {
    Value &slot = s.ct[primal];
    slot = slot ? addCotangents(b, loc, slot, contribution) : contribution;
  }
  LogicalResult buildBody(func::FuncOp primal, func::FuncOp t,
                          ArrayRef<unsigned> nonlinearArgs,
                          ArrayRef<unsigned> linearArgs);

  /// What a TransposeOpInterface rule sees of scope `s`.
  class ScopeState final : public TransposeState {
  public:
    ScopeState(Transposer &t, Scope &s) : t(t), s(s) {}
    bool isLinear(Value v) const override { return t.isLinear(v); }
    Value forward(Value v) override { return t.fwd(s, v); }
    SmallVector<OpFoldResult> forward(ArrayRef<OpFoldResult> list) override {
      return t.fwd(s, list);
    }
    Value cotangent(Value primal) override { return s.ct.lookup(primal); }
    void setCotangent(Value primal, Value c) override { s.ct[primal] = c; }
    void accumulate(OpBuilder &b, Location loc, Value primal,
                    Value contribution) override {
      t.accumulate(s, b, loc, primal, contribution);
    }
    /// A non-linear operand of a linear op must be zero (else the function
    /// is affine, not linear).
    LogicalResult requireZero(Operation *op, unsigned operand) override {
      if (isZero(op->getOperand(operand)))
        return success();
      return op->emitOpError("combines linear values with operand #")
             << operand
             << ", which does not depend on the linear arguments and is not "
                "zero: the function is affine, not linear";
    }

  private:
    Transposer &t;
    Scope &s;
  };

  // TransposeRegions.cpp: collectives, shard_maps and loops.
  LogicalResult transposeCollective(CollectiveOpInterface op, Scope &s,
                                    OpBuilder &b);
  LogicalResult transposeShardMap(ShardMapOp map, Scope &s, OpBuilder &b);
  /// An auto_axes / explicit_axes region into one of the same kind taking
  /// the non-linear inputs and the results' cotangents, returning the
  /// linear inputs' cotangents (the forward values recomputed inside).
  LogicalResult transposeAxisRegion(Operation *op, Scope &s, OpBuilder &b);
  LogicalResult transposeFor(scf::ForOp loop, Scope &s, OpBuilder &b);
  LogicalResult transposeIf(scf::IfOp op, Scope &s, OpBuilder &b);

  bool naive;
  unsigned numForwardResults = 0;
  /// Per loop with non-linear carried values: the tensors holding each
  /// iteration's values of those, in the forward program.
  DenseMap<Operation *, SmallVector<Value>> saved;
  /// Loops whose non-linear carried values the backward loop recomputes
  /// (their trip count is not a constant, so no rows can be allocated).
  DenseSet<Operation *> recomputed;
  DenseSet<Value> linear;
};

} // namespace mlir::spmd::transpose

#endif // TRELLIS_LIB_TRANSFORMS_SPMD_TRANSPOSER_H
