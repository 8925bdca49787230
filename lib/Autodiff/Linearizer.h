//===- Linearizer.h - trellis-grad's forward-mode half ----------*- C++ -*-===//
//
// Private to lib/Autodiff. The Linearizer builds, from a function f, the
// program that computes f's results and the tangent of its loss: linear in
// the tangents of the differentiated arguments, with f's arguments as
// non-linear inputs. spmd-transpose's machinery turns it into the gradient
// (Grad.cpp). The rules of single ops are DerivativeOpInterface models
// (DerivativeElementwise.cpp, DerivativeLinalg.cpp); the Linearizer itself
// handles collectives, shard_maps and the errors.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_AUTODIFF_LINEARIZER_H
#define TRELLIS_LIB_AUTODIFF_LINEARIZER_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Autodiff/DerivativeOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::trellis::autodiff {

//===----------------------------------------------------------------------===//
// Builders the rules share
//===----------------------------------------------------------------------===//

/// Whether `type` is a float or a ranked tensor of floats.
bool isFloatLike(Type type);

/// Whether `type` is a ranked tensor of floats (the values that have
/// tangents).
bool isFloatTensor(Type type);

/// The constant `value` of `like`'s type: a float, or a splat tensor.
Value constantLike(OpBuilder &b, Location loc, Type like, double value);

/// Whether `v` is a float constant (or splat) equal to `value`.
bool isConstant(Value v, double value);

/// A tensor of zeros of `type` (an empty tensor filled with 0).
Value zerosOf(OpBuilder &b, Location loc, Type type);

/// `partial * tangent`, folding partials 1 and -1; null for a null tangent.
Value scaleTangent(OpBuilder &b, Location loc, Value partial, Value tangent);

/// `a + c` for tangents, either of which may be null (zero).
Value addTangents(OpBuilder &b, Location loc, Value a, Value c);

/// `-t` (null for null).
Value negateTangent(OpBuilder &b, Location loc, Value t);

/// Clones `op` with every operand (and every value its regions capture)
/// replaced by `map(value)`.
Operation *cloneWith(OpBuilder &b, Operation *op,
                     function_ref<Value(Value)> map);

/// The rule of an op linear in its floating-point tensor operands: the same
/// op applied to their tangents (zeros where they have none), its other
/// operands (indices, offsets) taken from the primal.
LogicalResult linearRule(Operation *op, JvpState &state, OpBuilder &b);

/// Registers the arith and math models (DerivativeElementwise.cpp).
void registerElementwiseDerivativeModels(DialectRegistry &registry);
/// Registers the linalg and tensor models (DerivativeLinalg.cpp).
void registerLinalgDerivativeModels(DialectRegistry &registry);

//===----------------------------------------------------------------------===//
// Linearizer
//===----------------------------------------------------------------------===//

class Linearizer {
public:
  /// Builds `@name(f's arguments (spmd.nonlinear)..., tangents of the
  /// arguments in wrt...) -> (f's results..., tangent of result #0)` with
  /// `b`.
  FailureOr<func::FuncOp> run(func::FuncOp f, ArrayRef<unsigned> wrt,
                              StringRef name, OpBuilder &b);

private:
  LogicalResult linearizeBlock(Block &block, OpBuilder &b);
  LogicalResult linearizeOp(Operation *op, OpBuilder &b);
  /// Linearizes the body of an isolated region op into `into`: its
  /// arguments, then those of the tangents of the inputs `tangentInputs`;
  /// `yielded` gets the primal values the body yields, then the tangents of
  /// the results `withTangent`.
  LogicalResult linearizeBody(Block &body, Block &into,
                              ArrayRef<unsigned> tangentInputs,
                              SmallVectorImpl<Value> &yielded,
                              SmallVectorImpl<unsigned> &withTangent);
  LogicalResult linearizeShardMap(spmd::ShardMapOp map, OpBuilder &b);
  /// auto_axes / explicit_axes: one region taking and returning primal
  /// values and tangents.
  LogicalResult linearizeAxisRegion(Operation *op, OpBuilder &b);
  // LinearizeControlFlow.cpp
  LogicalResult linearizeFor(scf::ForOp loop, OpBuilder &b);
  LogicalResult linearizeIf(scf::IfOp op, OpBuilder &b);
  LogicalResult linearizeWhile(scf::WhileOp op, OpBuilder &b);
  /// Whether `op` reads (in its regions too) a value in `active` or with a
  /// tangent.
  bool readsActive(Operation *op, const DenseSet<Value> &active) const;
  LogicalResult linearizeCollective(spmd::CollectiveOpInterface op,
                                    OpBuilder &b);

  bool hasTangent(Value v) const { return tangents.count(v); }

  class State final : public JvpState {
  public:
    explicit State(Linearizer &l) : l(l) {}
    Value primal(Value v) override { return l.primals.lookupOrDefault(v); }
    Value tangent(Value v) override { return l.tangents.lookup(v); }
    Value tangentOrZeros(OpBuilder &b, Location loc, Value v) override {
      if (Value t = l.tangents.lookup(v))
        return t;
      return zerosOf(b, loc, v.getType());
    }
    void setTangent(Value v, Value t) override {
      if (t)
        l.tangents[v] = t;
    }

  private:
    Linearizer &l;
  };

  IRMapping primals;
  DenseMap<Value, Value> tangents;
  /// Float scalars computed from differentiated tensors (no tangent), with
  /// the op that computed them.
  DenseMap<Value, Operation *> untracked;
};

} // namespace mlir::trellis::autodiff

#endif // TRELLIS_LIB_AUTODIFF_LINEARIZER_H
