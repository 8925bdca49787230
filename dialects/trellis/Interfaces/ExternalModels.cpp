//===- ExternalModels.cpp - Sharding rules for upstream ops ---------------===//
//
// ShardingRuleOpInterface for upstream ops: each op's factor-based rule,
// and how the partitioner builds it on local blocks (tensor ops whose
// attributes hold sizes and constants are rebuilt on the local shapes,
// linalg ops cloned with their linalg.index offset to the block).
//
//===----------------------------------------------------------------------===//

#include "dialects/trellis/Interfaces/ExternalModels.h"
#include "dialects/trellis/Interfaces/ReshapeUtils.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "dialects/trellis/Interfaces/SliceUtils.h"

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

/// `expr` as a sum of loop dimensions times positive coefficients plus a
/// constant, or nothing when it is not one.
std::optional<std::pair<SmallVector<std::pair<unsigned, int64_t>>, int64_t>>
linearTerms(AffineExpr expr) {
  SmallVector<std::pair<unsigned, int64_t>> terms;
  int64_t constant = 0;
  std::function<bool(AffineExpr, int64_t)> add = [&](AffineExpr e,
                                                     int64_t scale) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      terms.push_back({dim.getPosition(), scale});
      return true;
    }
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      constant += scale * c.getValue();
      return true;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return false;
    if (bin.getKind() == AffineExprKind::Add)
      return add(bin.getLHS(), scale) && add(bin.getRHS(), scale);
    if (bin.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        return add(bin.getLHS(), scale * c.getValue());
    return false;
  };
  if (!add(expr, 1))
    return std::nullopt;
  return std::make_pair(terms, constant);
}

/// The window an operand dimension indexed by `expr` is read through: one
/// parallel loop (the factor) times a positive stride, plus reduction
/// loops of static range with positive coefficients and a constant that
/// is not negative (a convolution's `o + k`, a stencil's `o + 2`).
std::optional<WindowDim> windowOf(AffineExpr expr, linalg::LinalgOp op,
                                  ArrayRef<int64_t> ranges) {
  auto linear = linearTerms(expr);
  if (!linear || linear->second < 0)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<WindowDim> window;
  int64_t maxOffset = linear->second;
  for (auto [d, coefficient] : linear->first) {
    if (coefficient <= 0)
      return std::nullopt;
    if (iterators[d] == utils::IteratorType::parallel) {
      if (window)
        return std::nullopt; // two parallel loops: not a window of one
      window = WindowDim{
          0, 0, static_cast<int64_t>(d), coefficient, linear->second, 0};
      continue;
    }
    if (ShapedType::isDynamic(ranges[d]) || ranges[d] < 1)
      return std::nullopt;
    maxOffset += coefficient * (ranges[d] - 1);
  }
  if (window)
    window->maxOffset = maxOffset;
  return window;
}

/// A structured op: its loops are the factors, parallel or reduction as its
/// iterator types say; each operand dimension indexed by a plain loop
/// holds that loop's factor, one indexed by a constant (a broadcast unit
/// dimension) holds none, and loops used in compound expressions must be
/// whole, except the parallel loop of a window (`o + k`, `2 * o + 1`),
/// whose dimension the rule lists as a window of that loop's factor.
FailureOr<ShardingRule> linalgRule(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return failure();
  ShardingRule rule;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [size, kind] : llvm::zip(ranges, op.getIteratorTypesArray()))
    rule.addFactor(size, kind == utils::IteratorType::reduction
                             ? FactorKind::Reduction
                             : FactorKind::Parallel);
  SmallVector<WindowDim> windows;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    ValueFactors dims;
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        dims.push_back({static_cast<int64_t>(dim.getPosition())});
        continue;
      }
      dims.push_back({});
      if (isa<AffineConstantExpr>(expr))
        continue;
      std::optional<WindowDim> window = windowOf(expr, op, ranges);
      expr.walk([&](AffineExpr sub) {
        auto loop = dyn_cast<AffineDimExpr>(sub);
        if (loop && (!window || window->factor != loop.getPosition()))
          rule.factorKinds[loop.getPosition()] = FactorKind::NeedReplication;
      });
      if (window && !op.isDpsInit(&operand)) {
        window->operand = operand.getOperandNumber();
        window->dim = d;
        windows.push_back(*window);
      } else if (window) {
        rule.factorKinds[window->factor] = FactorKind::NeedReplication;
      }
    }
    rule.operands.push_back(dims);
  }
  // A window's loop used some other way in a compound index must be whole.
  for (const WindowDim &window : windows)
    if (!rule.needsReplication(window.factor))
      rule.windows.push_back(window);
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
  // No rule for a slice outside its source (it verifies in wrapping
  // arithmetic): a window's reads would be computed the same way.
  if (staticSliceOutOfBounds(op))
    return failure();
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
    } else if (std::optional<int64_t> offset = getConstantIntValue(offsets[d]),
               stride = getConstantIntValue(strides[d]);
               !dropped.test(d) && offset && stride && *stride >= 1 &&
               !ShapedType::isDynamic(extent) &&
               !result.isDynamicDim(resultDim) &&
               result.getDimSize(resultDim) > 0) {
      // result[i] = source[offset + stride * i]: the source dimension is
      // read through a window of the result's factor (shifted slices such
      // as x[1:] - x[:-1] exchange halos when it is split).
      int64_t f =
          rule.addFactor(result.getDimSize(resultDim), FactorKind::Parallel);
      sourceDims.push_back({});
      resultDims.push_back({f});
      rule.windows.push_back(WindowDim{0, d, f, *stride, *offset, *offset});
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
  if (staticSliceOutOfBounds(op))
    return failure();
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
/// None for a reassociation the verifier let through malformed.
FailureOr<ShardingRule> reshapeRule(Operation *op, RankedTensorType expanded,
                                    ArrayRef<ReassociationIndices> groups,
                                    bool sourceIsExpanded) {
  if (!isWellFormedReassociation(groups, expanded.getRank()))
    return failure();
  ShardingRule rule;
  ValueFactors expandedDims, collapsedDims;
  // No groups: a rank-0 collapsed side; every expanded dimension has size
  // 1 and a factor of its own, which nothing on the other side shares.
  if (groups.empty())
    for (int64_t d = 0; d < expanded.getRank(); ++d)
      expandedDims.push_back(
          {rule.addFactor(expanded.getDimSize(d), FactorKind::Parallel)});
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
// Local builds
//===----------------------------------------------------------------------===//

/// `sizes` (of a slice of `global`) with every whole dimension of `global`
/// made the whole dimension of `local`.
SmallVector<OpFoldResult> localSizes(Builder &b, ArrayRef<OpFoldResult> sizes,
                                     RankedTensorType global,
                                     RankedTensorType local) {
  SmallVector<OpFoldResult> out(sizes);
  for (int64_t d = 0; d < global.getRank(); ++d) {
    std::optional<int64_t> s = getConstantIntValue(sizes[d]);
    if (s && *s == global.getDimSize(d))
      out[d] = b.getIndexAttr(local.getDimSize(d));
  }
  return out;
}

/// `values` with their SSA values replaced through `mapping`.
SmallVector<OpFoldResult> mapped(const IRMapping &mapping,
                                 ArrayRef<OpFoldResult> values) {
  SmallVector<OpFoldResult> out;
  for (OpFoldResult v : values)
    out.push_back(isa<Value>(v)
                      ? OpFoldResult(mapping.lookupOrDefault(cast<Value>(v)))
                      : v);
  return out;
}

/// linalg.index yields local loop indices: adds the block's offset to
/// those of `clone` whose loops are split.
void offsetLinalgIndices(Operation *clone, const FactorSplit &split,
                         OpBuilder &b) {
  Location loc = clone->getLoc();
  SmallVector<linalg::IndexOp> indices;
  clone->walk([&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    int64_t d = index.getDim();
    if (d >= static_cast<int64_t>(split.axes.size()) || split.axes[d].empty())
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(clone);
    Value offset = split.blockOffset(b, loc, d);
    b.setInsertionPointAfter(index);
    Value global = arith::AddIOp::create(b, loc, index, offset);
    index.getResult().replaceAllUsesExcept(global, global.getDefiningOp());
  }
}

/// A splat constant is resized to the block; any other exists whole on
/// every device (the partitioner slices it if the rule wanted it split),
/// so it fails when the block is not the whole constant.
FailureOr<SmallVector<Value>> buildLocalConstant(arith::ConstantOp constant,
                                                 TypeRange resultTypes,
                                                 OpBuilder &b) {
  Location loc = constant.getLoc();
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  auto type = cast<RankedTensorType>(resultTypes[0]);
  if (dense && dense.isSplat())
    return SmallVector<Value>{
        arith::ConstantOp::create(b, loc, dense.resizeSplat(type))};
  if (type.getShape() != cast<RankedTensorType>(constant.getType()).getShape())
    return failure();
  return SmallVector<Value>{
      arith::ConstantOp::create(b, loc,
                                dense ? DenseElementsAttr(dense.reshape(type))
                                      : cast<TypedAttr>(constant.getValue()))};
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
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    Operation *clone =
        cloneOnLocal(builder, op, localOperands, localResultTypes, mapping);
    offsetLinalgIndices(clone, split, builder);
    return llvm::to_vector_of<Value>(clone->getResults());
  }
};

struct ConstantModel
    : ShardingRuleOpInterface::ExternalModel<ConstantModel, arith::ConstantOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return elementwiseRule(op);
  }
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    return buildLocalConstant(cast<arith::ConstantOp>(op), localResultTypes,
                              builder);
  }
};

struct EmptyModel
    : ShardingRuleOpInterface::ExternalModel<EmptyModel, tensor::EmptyOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return elementwiseRule(op);
  }
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    auto type = cast<RankedTensorType>(localResultTypes[0]);
    return SmallVector<Value>{tensor::EmptyOp::create(
        builder, op->getLoc(), type.getShape(), type.getElementType())};
  }
};

struct ExtractSliceModel
    : ShardingRuleOpInterface::ExternalModel<ExtractSliceModel,
                                             tensor::ExtractSliceOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return extractSliceRule(cast<tensor::ExtractSliceOp>(op));
  }
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    auto slice = cast<tensor::ExtractSliceOp>(op);
    auto global = slice.getSourceType();
    auto local = cast<RankedTensorType>(localOperands[0].getType());
    auto localResult = cast<RankedTensorType>(localResultTypes[0]);
    SmallVector<OpFoldResult> sizes = localSizes(
        builder, mapped(mapping, slice.getMixedSizes()), global, local);
    // A dimension read through a window of a split factor: the operand is
    // this device's window (from its first element), the result its block.
    FailureOr<ShardingRule> rule = extractSliceRule(slice);
    if (succeeded(rule))
      for (const WindowDim &window : rule->windows)
        if (window.factor < static_cast<int64_t>(split.axes.size()) &&
            !split.axes[window.factor].empty()) {
          int64_t resultDim = 0;
          llvm::SmallBitVector dropped = slice.getDroppedDims();
          for (int64_t d = 0; d < window.dim; ++d)
            resultDim += !dropped.test(d);
          sizes[window.dim] =
              builder.getIndexAttr(localResult.getDimSize(resultDim));
        }
    return SmallVector<Value>{tensor::ExtractSliceOp::create(
        builder, op->getLoc(), localResult, localOperands[0],
        mapped(mapping, slice.getMixedOffsets()), sizes,
        mapped(mapping, slice.getMixedStrides()))};
  }
};

struct InsertSliceModel
    : ShardingRuleOpInterface::ExternalModel<InsertSliceModel,
                                             tensor::InsertSliceOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return insertSliceRule(cast<tensor::InsertSliceOp>(op));
  }
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    auto insert = cast<tensor::InsertSliceOp>(op);
    auto global = insert.getDestType();
    auto local = cast<RankedTensorType>(localOperands[1].getType());
    return SmallVector<Value>{tensor::InsertSliceOp::create(
        builder, op->getLoc(), localOperands[0], localOperands[1],
        mapped(mapping, insert.getMixedOffsets()),
        localSizes(builder, mapped(mapping, insert.getMixedSizes()), global,
                   local),
        mapped(mapping, insert.getMixedStrides()))};
  }
};

struct ConcatModel
    : ShardingRuleOpInterface::ExternalModel<ConcatModel, tensor::ConcatOp> {
  FailureOr<ShardingRule> getShardingRule(Operation *op) const {
    return concatRule(cast<tensor::ConcatOp>(op));
  }
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    return SmallVector<Value>{tensor::ConcatOp::create(
        builder, op->getLoc(), localResultTypes[0],
        cast<tensor::ConcatOp>(op).getDim(), localOperands)};
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
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    return SmallVector<Value>{tensor::ExpandShapeOp::create(
        builder, op->getLoc(), cast<RankedTensorType>(localResultTypes[0]),
        localOperands[0],
        cast<tensor::ExpandShapeOp>(op).getReassociationIndices())};
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
  FailureOr<SmallVector<Value>>
  buildLocalOp(Operation *op, ValueRange localOperands,
               TypeRange localResultTypes, const FactorSplit &split,
               IRMapping &mapping, OpBuilder &builder) const {
    return SmallVector<Value>{tensor::CollapseShapeOp::create(
        builder, op->getLoc(), cast<RankedTensorType>(localResultTypes[0]),
        localOperands[0],
        cast<tensor::CollapseShapeOp>(op).getReassociationIndices())};
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
    arith::ConstantOp::attachInterface<ConstantModel>(*ctx);
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
    tensor::EmptyOp::attachInterface<EmptyModel>(*ctx);
    tensor::ExtractSliceOp::attachInterface<ExtractSliceModel>(*ctx);
    tensor::InsertSliceOp::attachInterface<InsertSliceModel>(*ctx);
    tensor::ConcatOp::attachInterface<ConcatModel>(*ctx);
    tensor::PadOp::attachInterface<PadModel>(*ctx);
    tensor::ExpandShapeOp::attachInterface<ExpandShapeModel>(*ctx);
    tensor::CollapseShapeOp::attachInterface<CollapseShapeModel>(*ctx);
  });
}
