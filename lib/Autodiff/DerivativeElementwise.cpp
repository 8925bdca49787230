//===- DerivativeElementwise.cpp - Derivatives of arith and math ops ------===//
//
// The DerivativeOpInterface models of elementwise arithmetic: each rule
// builds the tangent of the result from the operands, their tangents (null
// for zero) and the result, with elementwise ops only, so it works on
// scalars (inside linalg.generic bodies) and on tensors alike. The tangent
// is linear in the operands' tangents: a product with a non-linear
// partial derivative, a sum, a select on a non-linear condition, a
// precision change.
//
// Ties and kinks, as JAX: max/min give half the tangent to each operand
// where they are equal; abs has derivative sign(x) (0 at 0); floor, ceil
// and round have derivative 0.
//
//===----------------------------------------------------------------------===//

#include "lib/Autodiff/Linearizer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace mlir::trellis::autodiff {
namespace {

/// What a rule sees: the new operands, their tangents and the new result.
struct Args {
  OpBuilder &b;
  Location loc;
  ValueRange x;
  ValueRange dx;
  Value y;

  Value c(double value) const {
    return constantLike(b, loc, y.getType(), value);
  }
  Value mul(Value p, Value q) const {
    return arith::MulFOp::create(b, loc, p, q);
  }
  Value div(Value p, Value q) const {
    return arith::DivFOp::create(b, loc, p, q);
  }
  Value add(Value p, Value q) const {
    return arith::AddFOp::create(b, loc, p, q);
  }
  Value sub(Value p, Value q) const {
    return arith::SubFOp::create(b, loc, p, q);
  }
  /// `partial * dx[i]`.
  Value times(Value partial, unsigned i) const {
    return scaleTangent(b, loc, partial, dx[i]);
  }
  Value cmp(arith::CmpFPredicate pred, Value p, Value q) const {
    return arith::CmpFOp::create(b, loc, pred, p, q);
  }
  Value select(Value cond, Value p, Value q) const {
    return arith::SelectOp::create(b, loc, cond, p, q);
  }
};

using Rule = FailureOr<Value> (*)(Operation *, const Args &);

/// The model that applies `R`.
template <typename OpTy, Rule R>
struct ElementwiseModel
    : DerivativeOpInterface::ExternalModel<ElementwiseModel<OpTy, R>, OpTy> {
  FailureOr<Value> buildTangent(Operation *op, OpBuilder &b,
                                ValueRange operands, ValueRange tangents,
                                Value result) const {
    Args args{b, op->getLoc(), operands, tangents, result};
    if (llvm::all_of(tangents, [](Value t) { return !t; }))
      return Value();
    return R(op, args);
  }

  LogicalResult jvp(Operation *op, JvpState &state, OpBuilder &b) const {
    SmallVector<Value> operands, tangents;
    for (Value v : op->getOperands()) {
      operands.push_back(state.primal(v));
      tangents.push_back(isFloatLike(v.getType()) ? state.tangent(v) : Value());
    }
    FailureOr<Value> t =
        buildTangent(op, b, operands, tangents, state.primal(op->getResult(0)));
    if (failed(t))
      return failure();
    state.setTangent(op->getResult(0), *t);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

FailureOr<Value> addRule(Operation *, const Args &a) {
  return addTangents(a.b, a.loc, a.dx[0], a.dx[1]);
}

FailureOr<Value> subRule(Operation *, const Args &a) {
  return addTangents(a.b, a.loc, a.dx[0], negateTangent(a.b, a.loc, a.dx[1]));
}

FailureOr<Value> negRule(Operation *, const Args &a) {
  return negateTangent(a.b, a.loc, a.dx[0]);
}

FailureOr<Value> mulRule(Operation *, const Args &a) {
  return addTangents(a.b, a.loc, a.times(a.x[1], 0), a.times(a.x[0], 1));
}

/// d(p / q) = (dp - y dq) / q.
FailureOr<Value> divRule(Operation *, const Args &a) {
  Value num = addTangents(a.b, a.loc, a.dx[0],
                          negateTangent(a.b, a.loc, a.times(a.y, 1)));
  return a.div(num, a.x[1]);
}

/// max/min: the tangent of the chosen operand, half of each on ties.
template <arith::CmpFPredicate Wins>
FailureOr<Value> extremumRule(Operation *, const Args &a) {
  Value one = a.c(1.0), half = a.c(0.5), zero = a.c(0.0);
  auto partial = [&](Value p, Value q) {
    Value tie = a.cmp(arith::CmpFPredicate::OEQ, p, q);
    return a.select(a.cmp(Wins, p, q), one, a.select(tie, half, zero));
  };
  return addTangents(a.b, a.loc, a.times(partial(a.x[0], a.x[1]), 0),
                     a.times(partial(a.x[1], a.x[0]), 1));
}

FailureOr<Value> selectRule(Operation *, const Args &a) {
  if (!a.dx[1] && !a.dx[2])
    return Value();
  auto orZero = [&](Value t) -> Value {
    if (t)
      return t;
    if (isa<RankedTensorType>(a.y.getType()))
      return zerosOf(a.b, a.loc, a.y.getType());
    return a.c(0.0);
  };
  return a.select(a.x[0], orZero(a.dx[1]), orZero(a.dx[2]));
}

FailureOr<Value> extFRule(Operation *, const Args &a) {
  return Value(arith::ExtFOp::create(a.b, a.loc, a.y.getType(), a.dx[0]));
}

FailureOr<Value> truncFRule(Operation *, const Args &a) {
  return Value(arith::TruncFOp::create(a.b, a.loc, a.y.getType(), a.dx[0]));
}

//===----------------------------------------------------------------------===//
// math
//===----------------------------------------------------------------------===//

FailureOr<Value> expRule(Operation *, const Args &a) { return a.times(a.y, 0); }
FailureOr<Value> exp2Rule(Operation *, const Args &a) {
  return a.times(a.mul(a.y, a.c(std::log(2.0))), 0);
}
FailureOr<Value> expm1Rule(Operation *, const Args &a) {
  return a.times(a.add(a.y, a.c(1.0)), 0);
}
FailureOr<Value> logRule(Operation *, const Args &a) {
  return a.times(a.div(a.c(1.0), a.x[0]), 0);
}
FailureOr<Value> log1pRule(Operation *, const Args &a) {
  return a.times(a.div(a.c(1.0), a.add(a.x[0], a.c(1.0))), 0);
}
FailureOr<Value> log2Rule(Operation *, const Args &a) {
  return a.times(a.div(a.c(1.0 / std::log(2.0)), a.x[0]), 0);
}
/// 1 - tanh(x)^2.
FailureOr<Value> tanhRule(Operation *, const Args &a) {
  return a.times(a.sub(a.c(1.0), a.mul(a.y, a.y)), 0);
}
/// 2 / sqrt(pi) exp(-x^2).
FailureOr<Value> erfRule(Operation *, const Args &a) {
  Value sq = a.mul(a.x[0], a.x[0]);
  Value e =
      math::ExpOp::create(a.b, a.loc, arith::NegFOp::create(a.b, a.loc, sq));
  return a.times(a.mul(a.c(2.0 / std::sqrt(M_PI)), e), 0);
}
/// 1 / (2 sqrt(x)).
FailureOr<Value> sqrtRule(Operation *, const Args &a) {
  return a.times(a.div(a.c(0.5), a.y), 0);
}
/// -rsqrt(x) / (2 x).
FailureOr<Value> rsqrtRule(Operation *, const Args &a) {
  return a.times(a.div(a.mul(a.c(-0.5), a.y), a.x[0]), 0);
}
FailureOr<Value> sinRule(Operation *, const Args &a) {
  return a.times(math::CosOp::create(a.b, a.loc, a.x[0]), 0);
}
FailureOr<Value> cosRule(Operation *, const Args &a) {
  Value s = math::SinOp::create(a.b, a.loc, a.x[0]);
  return a.times(arith::NegFOp::create(a.b, a.loc, s), 0);
}
/// 1 + tan(x)^2.
FailureOr<Value> tanRule(Operation *, const Args &a) {
  return a.times(a.add(a.c(1.0), a.mul(a.y, a.y)), 0);
}
/// sign(x), 0 at 0.
FailureOr<Value> absRule(Operation *, const Args &a) {
  Value pos = a.cmp(arith::CmpFPredicate::OGT, a.x[0], a.c(0.0));
  Value neg = a.cmp(arith::CmpFPredicate::OLT, a.x[0], a.c(0.0));
  Value sign = a.select(pos, a.c(1.0), a.select(neg, a.c(-1.0), a.c(0.0)));
  return a.times(sign, 0);
}
/// d(p^q) = q p^(q-1) dp + log(p) p^q dq.
FailureOr<Value> powRule(Operation *, const Args &a) {
  Value dp;
  if (a.dx[0]) {
    Value lower =
        math::PowFOp::create(a.b, a.loc, a.x[0], a.sub(a.x[1], a.c(1.0)));
    dp = a.times(a.mul(a.x[1], lower), 0);
  }
  Value dq;
  if (a.dx[1])
    dq = a.times(a.mul(math::LogOp::create(a.b, a.loc, a.x[0]), a.y), 1);
  return addTangents(a.b, a.loc, dp, dq);
}
/// Piecewise constant: derivative 0.
FailureOr<Value> zeroRule(Operation *, const Args &) { return Value(); }

} // namespace

void registerElementwiseDerivativeModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::AddFOp::attachInterface<ElementwiseModel<arith::AddFOp, addRule>>(
        *ctx);
    arith::SubFOp::attachInterface<ElementwiseModel<arith::SubFOp, subRule>>(
        *ctx);
    arith::NegFOp::attachInterface<ElementwiseModel<arith::NegFOp, negRule>>(
        *ctx);
    arith::MulFOp::attachInterface<ElementwiseModel<arith::MulFOp, mulRule>>(
        *ctx);
    arith::DivFOp::attachInterface<ElementwiseModel<arith::DivFOp, divRule>>(
        *ctx);
    arith::MaximumFOp::attachInterface<ElementwiseModel<
        arith::MaximumFOp, extremumRule<arith::CmpFPredicate::OGT>>>(*ctx);
    arith::MaxNumFOp::attachInterface<ElementwiseModel<
        arith::MaxNumFOp, extremumRule<arith::CmpFPredicate::OGT>>>(*ctx);
    arith::MinimumFOp::attachInterface<ElementwiseModel<
        arith::MinimumFOp, extremumRule<arith::CmpFPredicate::OLT>>>(*ctx);
    arith::MinNumFOp::attachInterface<ElementwiseModel<
        arith::MinNumFOp, extremumRule<arith::CmpFPredicate::OLT>>>(*ctx);
    arith::SelectOp::attachInterface<
        ElementwiseModel<arith::SelectOp, selectRule>>(*ctx);
    arith::ExtFOp::attachInterface<ElementwiseModel<arith::ExtFOp, extFRule>>(
        *ctx);
    arith::TruncFOp::attachInterface<
        ElementwiseModel<arith::TruncFOp, truncFRule>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    math::ExpOp::attachInterface<ElementwiseModel<math::ExpOp, expRule>>(*ctx);
    math::Exp2Op::attachInterface<ElementwiseModel<math::Exp2Op, exp2Rule>>(
        *ctx);
    math::ExpM1Op::attachInterface<ElementwiseModel<math::ExpM1Op, expm1Rule>>(
        *ctx);
    math::LogOp::attachInterface<ElementwiseModel<math::LogOp, logRule>>(*ctx);
    math::Log1pOp::attachInterface<ElementwiseModel<math::Log1pOp, log1pRule>>(
        *ctx);
    math::Log2Op::attachInterface<ElementwiseModel<math::Log2Op, log2Rule>>(
        *ctx);
    math::TanhOp::attachInterface<ElementwiseModel<math::TanhOp, tanhRule>>(
        *ctx);
    math::ErfOp::attachInterface<ElementwiseModel<math::ErfOp, erfRule>>(*ctx);
    math::SqrtOp::attachInterface<ElementwiseModel<math::SqrtOp, sqrtRule>>(
        *ctx);
    math::RsqrtOp::attachInterface<ElementwiseModel<math::RsqrtOp, rsqrtRule>>(
        *ctx);
    math::SinOp::attachInterface<ElementwiseModel<math::SinOp, sinRule>>(*ctx);
    math::CosOp::attachInterface<ElementwiseModel<math::CosOp, cosRule>>(*ctx);
    math::TanOp::attachInterface<ElementwiseModel<math::TanOp, tanRule>>(*ctx);
    math::AbsFOp::attachInterface<ElementwiseModel<math::AbsFOp, absRule>>(
        *ctx);
    math::PowFOp::attachInterface<ElementwiseModel<math::PowFOp, powRule>>(
        *ctx);
    math::FloorOp::attachInterface<ElementwiseModel<math::FloorOp, zeroRule>>(
        *ctx);
    math::CeilOp::attachInterface<ElementwiseModel<math::CeilOp, zeroRule>>(
        *ctx);
    math::RoundOp::attachInterface<ElementwiseModel<math::RoundOp, zeroRule>>(
        *ctx);
    math::RoundEvenOp::attachInterface<
        ElementwiseModel<math::RoundEvenOp, zeroRule>>(*ctx);
  });
}

} // namespace mlir::trellis::autodiff
