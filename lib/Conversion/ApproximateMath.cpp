//===- ApproximateMath.cpp - Polynomial f32 transcendentals ---------------===//
//
// math.tanh and friends lower to one libm call per element, which keeps
// LLVM from vectorizing the loop around them. MLIR's polynomial
// approximations are plain arithmetic; this pass applies them to f32 ops.
//
//===----------------------------------------------------------------------===//

#include "trellis/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISAPPROXIMATEMATH
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {
/// The ops approximated: those whose approximation measured within 4 ulp
/// (5 near exp overflow) of float64 numpy over their f32 range
/// (test/Execution/math). sin and cos
/// (about 6e-6 absolute error at |x| = 100: a short range reduction), atan
/// (35 ulp), atan2 (wrong sign for atan2(-0, x < 0)) and cbrt (11 ulp) stay
/// libm calls, as do f16/bf16 ops (no widening here).
bool approximated(StringRef name) {
  name.consume_front("math.");
  return llvm::StringSwitch<bool>(name)
      .Cases({"tanh", "exp", "expm1", "log", "log1p", "log2", "erf", "erfc"},
             true)
      .Default(false);
}

/// Scalars and vectors of f32, as the approximations themselves take:
/// tensors are left to be made loops first (and may have dynamic shapes).
bool isF32ScalarOrVector(Type type) {
  return isa<FloatType, VectorType>(type) && getElementTypeOrSelf(type).isF32();
}

/// Replaces the f32 scalar or vector math op `op` by what `build` makes of
/// its operand, given a maker of f32 constants of the op's type. Returns the
/// math op `build` created in its place (to be approximated next), or null
/// when `op` is not f32 or is on tensors.
template <typename MathOp, typename Build>
Operation *rewriteF32(MathOp op, Build build) {
  Type type = op.getType();
  if (!isF32ScalarOrVector(type))
    return nullptr;
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto constant = [&](double v) -> Value {
    TypedAttr scalar = b.getF32FloatAttr(v);
    if (auto vector = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(vector, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  };
  MathOp inner;
  Value result = build(b, loc, constant, op.getOperand(), inner);
  op.replaceAllUsesWith(result);
  op.erase();
  return inner;
}

/// The approximations of log and log2 take a subnormal input for the
/// smallest normal one (log(1e-45) came out as -87.3, not -103.3). Scale
/// subnormal inputs by 2^24 into the normal range and subtract 24 ln 2
/// (24 for log2) from the result; zero, negative, infinite and NaN inputs
/// keep their results (-inf, NaN, NaN, NaN).
template <typename LogOp>
Operation *scaleSubnormalInputs(LogOp op, double shift) {
  return rewriteF32(
      op,
      [&](OpBuilder &b, Location loc, auto constant, Value x,
          LogOp &log) -> Value {
        Value subnormal =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                  constant(std::numeric_limits<float>::min()));
        Value scaled = arith::MulFOp::create(b, loc, x, constant(16777216.0));
        Value input = arith::SelectOp::create(b, loc, subnormal, scaled, x);
        log = LogOp::create(b, loc, input);
        Value correction = arith::SelectOp::create(
            b, loc, subnormal, constant(shift), constant(0));
        return arith::SubFOp::create(b, loc, log, correction);
      });
}

/// The approximation of exp flushes results below the smallest normal f32
/// to zero (exp(-100) came out as 0, not 3.8e-44). Where the result is
/// subnormal (x < -87.33), compute exp(x / 2)^2 instead: halving is exact,
/// exp(x / 2) is normal, and the square rounds once, into the subnormal
/// range. -inf and NaN keep their results.
Operation *scaleSubnormalResults(math::ExpOp op) {
  return rewriteF32(
      op,
      [](OpBuilder &b, Location loc, auto constant, Value x,
         math::ExpOp &exp) -> Value {
        Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                            x, constant(-87.33));
        Value half = arith::MulFOp::create(b, loc, x, constant(0.5));
        Value input = arith::SelectOp::create(b, loc, small, half, x);
        exp = math::ExpOp::create(b, loc, input);
        Value square = arith::MulFOp::create(b, loc, exp, exp);
        return arith::SelectOp::create(b, loc, small, square, exp);
      });
}

struct ApproximateMathPass
    : mlir::trellis::impl::TrellisApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    // Only the math ops and what their rewrites create: a greedy rewrite of
    // the whole module would also fold and simplify everything else.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
          approximated(op->getName().getStringRef()) &&
          op->getNumResults() == 1 &&
          isF32ScalarOrVector(op->getResult(0).getType()))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    // log, log2 and exp first get their subnormal fix-ups, which replace
    // them by a new op of the same kind.
    for (Operation *&op : ops) {
      if (auto log = dyn_cast<math::LogOp>(op))
        op = scaleSubnormalInputs(log, 24 * std::log(2.0));
      else if (auto log2 = dyn_cast<math::Log2Op>(op))
        op = scaleSubnormalInputs(log2, 24);
      else if (auto exp = dyn_cast<math::ExpOp>(op))
        op = scaleSubnormalResults(exp);
    }
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, approximated);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
