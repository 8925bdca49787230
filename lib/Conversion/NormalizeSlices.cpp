//===- NormalizeSlices.cpp - Unit strides on unit slice dimensions --------===//
//
// The stride of a slice dimension of size 1 does not change what the slice
// reads or writes, but after bufferization it does change the strided
// layout of the subview: a rank-reducing slice that drops a unit dimension
// with stride 2 becomes a subview whose dropped dimension upstream MLIR's
// memref passes cannot recover (expand-strided-metadata crashed in
// SubViewOp::getDroppedDims). Such strides become 1 here, on tensors.
//
//===----------------------------------------------------------------------===//

#include "trellis/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISNORMALIZESLICES
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {

/// The strides of `op` with those of unit-size dimensions set to 1, or
/// nothing when none changes.
template <typename OpTy>
std::optional<SmallVector<OpFoldResult>> unitStrides(OpTy op, Builder &b) {
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  SmallVector<OpFoldResult> strides = op.getMixedStrides();
  bool changed = false;
  for (auto [size, stride] : llvm::zip(sizes, strides)) {
    std::optional<int64_t> s = getConstantIntValue(size);
    std::optional<int64_t> t = getConstantIntValue(stride);
    if (s == 1 && t != 1) {
      stride = b.getIndexAttr(1);
      changed = true;
    }
  }
  if (!changed)
    return std::nullopt;
  return strides;
}

struct NormalizeExtract : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<OpFoldResult>> strides =
        unitStrides(op, rewriter);
    if (!strides)
      return failure();
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), op.getSource(), op.getMixedOffsets(),
        op.getMixedSizes(), *strides);
    return success();
  }
};

struct NormalizeInsert : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<OpFoldResult>> strides =
        unitStrides(op, rewriter);
    if (!strides)
      return failure();
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, op.getSource(), op.getDest(), op.getMixedOffsets(),
        op.getMixedSizes(), *strides);
    return success();
  }
};

struct NormalizeSlicesPass
    : mlir::trellis::impl::TrellisNormalizeSlicesBase<NormalizeSlicesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NormalizeExtract, NormalizeInsert>(&getContext());
    // Each pattern fires once per op; no folding or region simplification.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
