//===- WidenAccumulation.cpp - f32 accumulation for bf16 and f16 ----------===//
//
// A contraction or sum whose accumulator is bf16 or f16 accumulates in f32
// and rounds once (docs/Precision.md). The op becomes a linalg.generic on
// an f32 accumulator whose body extends its 16-bit operands; a truncf
// rounds the result.
//
//===----------------------------------------------------------------------===//

#include "trellis/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISWIDENACCUMULATION
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {

bool isNarrowFloat(Type type) { return type.isBF16() || type.isF16(); }

/// The body ops computed in f32 instead: float arithmetic that rounds the
/// same way in any width. Anything else (casts, comparisons, math calls)
/// leaves the op as it is.
bool isWidenable(Operation &op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp>(op) &&
         op.getNumRegions() == 0;
}

struct WidenAccumulator : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 || op.getNumReductionLoops() == 0)
      return failure();
    Value init = op.getDpsInitOperand(0)->get();
    auto initType = dyn_cast<RankedTensorType>(init.getType());
    if (!initType || !isNarrowFloat(initType.getElementType()))
      return failure();
    Block *body = op.getBlock();
    // Every value of the body is of the accumulator's type: only then does
    // computing it in f32 change nothing but the rounding.
    for (BlockArgument arg : body->getArguments())
      if (arg.getType() != initType.getElementType())
        return failure();
    bool sums = false;
    // Only the body's own values: a value captured from outside would need
    // its own extension.
    auto local = [&](Value v) { return v.getParentBlock() == body; };
    for (Operation &inner : body->without_terminator()) {
      if (!isWidenable(inner) || !llvm::all_of(inner.getOperands(), local))
        return failure();
      sums |= isa<arith::AddFOp, arith::SubFOp>(inner);
    }
    if (!llvm::all_of(body->getTerminator()->getOperands(), local))
      return failure();
    // A max or min rounds nothing.
    if (!sums)
      return failure();

    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value wideInit =
        arith::ExtFOp::create(rewriter, loc, initType.clone(f32), init);
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{wideInit.getType()}, op.getDpsInputs(),
        ValueRange{wideInit}, op.getIndexingMapsArray(),
        op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          IRMapping map;
          for (auto [old, now] : llvm::zip(body->getArguments(), args))
            map.map(
                old,
                now.getType() == f32
                    ? now
                    : arith::ExtFOp::create(b, bodyLoc, f32, now).getResult());
          for (Operation &inner : body->without_terminator()) {
            OperationState state(inner.getLoc(), inner.getName());
            for (Value operand : inner.getOperands())
              state.addOperands(map.lookup(operand));
            state.addTypes(SmallVector<Type>(inner.getNumResults(), f32));
            state.addAttributes(inner.getAttrs());
            Operation *wide = b.create(state);
            map.map(inner.getResults(), wide->getResults());
          }
          linalg::YieldOp::create(b, bodyLoc, map.lookup(yield.getOperand(0)));
        });
    Value narrow =
        arith::TruncFOp::create(rewriter, loc, initType, generic.getResult(0));
    rewriter.replaceOp(op, narrow);
    return success();
  }
};

struct TrellisWidenAccumulationPass
    : public trellis::impl::TrellisWidenAccumulationBase<
          TrellisWidenAccumulationPass> {
  void runOnOperation() override {
    // One rewrite per op, nothing else touched (no folding).
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk(
        [&](linalg::LinalgOp op) { candidates.push_back(op); });
    WidenAccumulator pattern(&getContext());
    PatternRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      (void)pattern.matchAndRewrite(op, rewriter);
    }
  }
};

} // namespace
