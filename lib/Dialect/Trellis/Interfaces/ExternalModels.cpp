//===- ExternalModels.cpp - Sharding rules for upstream ops ---------------===//

#include "trellis/Dialect/Trellis/Interfaces/ExternalModels.h"
#include "trellis/Dialect/Trellis/Interfaces/ShardingRule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::trellis;

/// Every dimension of the result is a parallel factor shared by the tensor
/// operands of the same shape (elementwise ops, constants, tensor.empty).
FailureOr<ShardingRule> mlir::trellis::elementwiseRule(Operation *op) {
  if (op->getNumResults() != 1)
    return failure();
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return failure();
  ShardingRule rule;
  ValueFactors dims;
  for (int64_t size : result.getShape())
    dims.push_back({rule.addFactor(size, FactorKind::Parallel)});
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type) {
      rule.operands.push_back({});
      continue;
    }
    if (type.getRank() != result.getRank())
      return failure();
    rule.operands.push_back(dims);
  }
  rule.results.push_back(dims);
  rule.tiedInit.push_back(-1);
  return rule;
}

namespace {

/// A structured op: its loops are the factors, parallel or reduction as its
/// iterator types say; each operand dimension indexed by a plain loop
/// holds that loop's factor, one indexed by a constant (a broadcast unit
/// dimension) holds none, and loops used in compound expressions (windows)
/// must be whole.
FailureOr<ShardingRule> linalgRule(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return failure();
  ShardingRule rule;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [size, kind] : llvm::zip(ranges, op.getIteratorTypesArray()))
    rule.addFactor(size, kind == utils::IteratorType::reduction
                             ? FactorKind::Reduction
                             : FactorKind::Parallel);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ValueFactors dims;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        dims.push_back({static_cast<int64_t>(dim.getPosition())});
      } else {
        dims.push_back({});
        if (!isa<AffineConstantExpr>(expr))
          expr.walk([&](AffineExpr sub) {
            if (auto d = dyn_cast<AffineDimExpr>(sub))
              rule.factorKinds[d.getPosition()] = FactorKind::NeedReplication;
          });
      }
    }
    rule.operands.push_back(dims);
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    rule.results.push_back(rule.operands[init.getOperandNumber()]);
    rule.tiedInit.push_back(init.getOperandNumber());
  }
  return rule;
}

bool isFullDim(OpFoldResult offset, OpFoldResult size, OpFoldResult stride,
               int64_t extent) {
  std::optional<int64_t> o = getConstantIntValue(offset);
  std::optional<int64_t> s = getConstantIntValue(size);
  std::optional<int64_t> st = getConstantIntValue(stride);
  return o && *o == 0 && s && *s == extent && !ShapedType::isDynamic(extent) &&
         st && *st == 1;
}

FailureOr<ShardingRule> extractSliceRule(tensor::ExtractSliceOp op) {
  ShardingRule rule;
  RankedTensorType source = op.getSourceType();
  RankedTensorType result = op.getType();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  ValueFactors sourceDims, resultDims;
  SmallVector<OpFoldResult> offsets = op.getMixedOffsets(),
                            sizes = op.getMixedSizes(),
                            strides = op.getMixedStrides();
  int64_t resultDim = 0;
  for (int64_t d = 0; d < source.getRank(); ++d) {
    int64_t extent = source.getDimSize(d);
    if (isFullDim(offsets[d], sizes[d], strides[d], extent)) {
      int64_t f = rule.addFactor(extent, FactorKind::Parallel);
      sourceDims.push_back({f});
      if (!dropped.test(d))
        resultDims.push_back({f});
    } else {
      sourceDims.push_back(
          {rule.addFactor(extent, FactorKind::NeedReplication)});
      if (!dropped.test(d))
        resultDims.push_back({rule.addFactor(result.getDimSize(resultDim),
                                             FactorKind::Parallel)});
    }
    if (!dropped.test(d))
      ++resultDim;
  }
  rule.operands.push_back(sourceDims);
  for (unsigned i = 1; i < op->getNumOperands(); ++i)
    rule.operands.push_back({});
  rule.results.push_back(resultDims);
  rule.tiedInit.push_back(-1);
  return rule;
}

FailureOr<ShardingRule> insertSliceRule(tensor::InsertSliceOp op) {
  ShardingRule rule;
  RankedTensorType source = op.getSourceType();
  RankedTensorType dest = op.getDestType();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<OpFoldResult> offsets = op.getMixedOffsets(),
                            sizes = op.getMixedSizes(),
                            strides = op.getMixedStrides();
  ValueFactors sourceDims, destDims;
  int64_t sourceDim = 0;
  for (int64_t d = 0; d < dest.getRank(); ++d) {
    int64_t extent = dest.getDimSize(d);
    if (isFullDim(offsets[d], sizes[d], strides[d], extent)) {
      int64_t f = rule.addFactor(extent, FactorKind::Parallel);
      destDims.push_back({f});
      if (!dropped.test(d))
        sourceDims.push_back({f});
    } else {
      destDims.push_back({rule.addFactor(extent, FactorKind::NeedReplication)});
      if (!dropped.test(d))
        sourceDims.push_back({rule.addFactor(source.getDimSize(sourceDim),
                                             FactorKind::NeedReplication)});
    }
    if (!dropped.test(d))
      ++sourceDim;
  }
  rule.operands.push_back(sourceDims);
  rule.operands.push_back(destDims);
  for (unsigned i = 2; i < op->getNumOperands(); ++i)
    rule.operands.push_back({});
  rule.results.push_back(destDims);
  rule.tiedInit.push_back(1);
  return rule;
}

FailureOr<ShardingRule> concatRule(tensor::ConcatOp op) {
  ShardingRule rule;
  RankedTensorType result = op.getResultType();
  int64_t axis = op.getDim();
  ValueFactors shared;
  for (int64_t d = 0; d < result.getRank(); ++d)
    shared.push_back(d == axis
                         ? DimFactors{}
                         : DimFactors{rule.addFactor(result.getDimSize(d),
                                                     FactorKind::Parallel)});
  for (Value input : op.getInputs()) {
    ValueFactors dims = shared;
    dims[axis] = {
        rule.addFactor(cast<RankedTensorType>(input.getType()).getDimSize(axis),
                       FactorKind::NeedReplication)};
    rule.operands.push_back(dims);
  }
  ValueFactors resultDims = shared;
  resultDims[axis] = {
      rule.addFactor(result.getDimSize(axis), FactorKind::NeedReplication)};
  rule.results.push_back(resultDims);
  rule.tiedInit.push_back(-1);
  return rule;
}

FailureOr<ShardingRule> padRule(tensor::PadOp op) {
  ShardingRule rule;
  RankedTensorType source = op.getSourceType();
  RankedTensorType result = op.getResultType();
  SmallVector<OpFoldResult> low = op.getMixedLowPad(),
                            high = op.getMixedHighPad();
  ValueFactors sourceDims, resultDims;
  for (int64_t d = 0; d < source.getRank(); ++d) {
    std::optional<int64_t> l = getConstantIntValue(low[d]);
    std::optional<int64_t> h = getConstantIntValue(high[d]);
    if (l && h && *l == 0 && *h == 0) {
      int64_t f = rule.addFactor(source.getDimSize(d), FactorKind::Parallel);
      sourceDims.push_back({f});
      resultDims.push_back({f});
    } else {
      sourceDims.push_back(
          {rule.addFactor(source.getDimSize(d), FactorKind::NeedReplication)});
      resultDims.push_back(
          {rule.addFactor(result.getDimSize(d), FactorKind::NeedReplication)});
    }
  }
  rule.operands.push_back(sourceDims);
  for (unsigned i = 1; i < op->getNumOperands(); ++i)
    rule.operands.push_back({});
  rule.results.push_back(resultDims);
  rule.tiedInit.push_back(-1);
  return rule;
}

/// A reshape: each group of the reassociation is one dimension on the
/// collapsed side made of one factor per dimension on the expanded side.
ShardingRule reshapeRule(Operation *op, RankedTensorType expanded,
                         ArrayRef<ReassociationIndices> groups,
                         bool sourceIsExpanded) {
  ShardingRule rule;
  ValueFactors expandedDims, collapsedDims;
  for (const ReassociationIndices &group : groups) {
    DimFactors compound;
    for (int64_t d : group) {
      int64_t f = rule.addFactor(expanded.getDimSize(d), FactorKind::Parallel);
      expandedDims.push_back({f});
      compound.push_back(f);
    }
    collapsedDims.push_back(compound);
  }
  rule.operands.push_back(sourceIsExpanded ? expandedDims : collapsedDims);
  for (unsigned i = 1; i < op->getNumOperands(); ++i)
    rule.operands.push_back({});
  rule.results.push_back(sourceIsExpanded ? collapsedDims : expandedDims);
  rule.tiedInit.push_back(-1);
  return rule;
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct ElementwiseModel
    : ShardingRuleOpInterface::ExternalModel<ElementwiseModel<OpTy>, OpTy> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return elementwiseRule(op);
  }
};

template <typename OpTy>
struct LinalgModel
    : ShardingRuleOpInterface::ExternalModel<LinalgModel<OpTy>, OpTy> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return linalgRule(cast<linalg::LinalgOp>(op));
  }
};

struct ExtractSliceModel
    : ShardingRuleOpInterface::ExternalModel<ExtractSliceModel,
                                             tensor::ExtractSliceOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return extractSliceRule(cast<tensor::ExtractSliceOp>(op));
  }
};

struct InsertSliceModel
    : ShardingRuleOpInterface::ExternalModel<InsertSliceModel,
                                             tensor::InsertSliceOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return insertSliceRule(cast<tensor::InsertSliceOp>(op));
  }
};

struct ConcatModel
    : ShardingRuleOpInterface::ExternalModel<ConcatModel, tensor::ConcatOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return concatRule(cast<tensor::ConcatOp>(op));
  }
};

struct PadModel
    : ShardingRuleOpInterface::ExternalModel<PadModel, tensor::PadOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return padRule(cast<tensor::PadOp>(op));
  }
};

struct ExpandShapeModel
    : ShardingRuleOpInterface::ExternalModel<ExpandShapeModel,
                                             tensor::ExpandShapeOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    auto expand = cast<tensor::ExpandShapeOp>(op);
    return reshapeRule(op, expand.getResultType(),
                       expand.getReassociationIndices(),
                       /*sourceIsExpanded=*/false);
  }
};

struct CollapseShapeModel
    : ShardingRuleOpInterface::ExternalModel<CollapseShapeModel,
                                             tensor::CollapseShapeOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    auto collapse = cast<tensor::CollapseShapeOp>(op);
    return reshapeRule(op, collapse.getSrcType(),
                       collapse.getReassociationIndices(),
                       /*sourceIsExpanded=*/true);
  }
};

template <typename... OpTys> void attachElementwise(MLIRContext *ctx) {
  (
      [&] {
        if constexpr (OpTys::template hasTrait<OpTrait::Elementwise>())
          OpTys::template attachInterface<ElementwiseModel<OpTys>>(*ctx);
      }(),
      ...);
}

template <typename... OpTys> void attachLinalg(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgModel<OpTys>>(*ctx), ...);
}

} // namespace

void mlir::trellis::registerShardingRuleExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachElementwise<
#define GET_OP_LIST
#include "mlir/Dialect/Arith/IR/ArithOps.cpp.inc"
        >(ctx);
    arith::ConstantOp::attachInterface<ElementwiseModel<arith::ConstantOp>>(
        *ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachElementwise<
#define GET_OP_LIST
#include "mlir/Dialect/Math/IR/MathOps.cpp.inc"
        >(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachLinalg<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::EmptyOp::attachInterface<ElementwiseModel<tensor::EmptyOp>>(*ctx);
    tensor::ExtractSliceOp::attachInterface<ExtractSliceModel>(*ctx);
    tensor::InsertSliceOp::attachInterface<InsertSliceModel>(*ctx);
    tensor::ConcatOp::attachInterface<ConcatModel>(*ctx);
    tensor::PadOp::attachInterface<PadModel>(*ctx);
    tensor::ExpandShapeOp::attachInterface<ExpandShapeModel>(*ctx);
    tensor::CollapseShapeOp::attachInterface<CollapseShapeModel>(*ctx);
  });
}
