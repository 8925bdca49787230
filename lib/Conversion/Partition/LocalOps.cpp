//===- LocalOps.cpp - One op re-emitted on local blocks -------------------===//
//
// An op whose operands are in the layouts its rule asks for is emitted
// again on the local blocks, with local result types: tensor ops whose
// attributes hold sizes are rebuilt, others are cloned (linalg.index gets
// the block's offset). Ops without a rule run on whole, replicated
// tensors.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

/// Ops without a rule run on whole (replicated) tensors.
LogicalResult FunctionPartitioner::partitionFallback(Operation *op) {
  // The whole operands are mapped for this clone only: other users of an
  // operand keep its block in the operand's own layout.
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    operands.push_back(
        type ? localIn(operand, Layout::replicated(type.getRank()))
             : mapping.lookupOrDefault(operand));
  }
  Operation *clone = cloneOn(op, operands);
  for (OpResult result : clone->getResults())
    result.setType(plain(result.getType()));
  for (auto [global, local] :
       llvm::zip(op->getResults(), clone->getResults())) {
    auto type = dyn_cast<RankedTensorType>(global.getType());
    if (!type) {
      mapping.map(global, local);
      continue;
    }
    Layout replicated = Layout::replicated(type.getRank());
    setLocal(global, local, replicated);
    Layout want = desiredLayout(global);
    if (want != replicated)
      setLocal(global,
               resharder.reshard(op->getLoc(), local, type, replicated, want),
               want);
  }
  return success();
}

/// `sizes` (of a slice of `global`) with every whole dimension of `global`
/// made the whole dimension of `local`.
static SmallVector<OpFoldResult> localSizes(Builder &b,
                                            ArrayRef<OpFoldResult> sizes,
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
static SmallVector<OpFoldResult> mapped(const IRMapping &mapping,
                                        ArrayRef<OpFoldResult> values) {
  SmallVector<OpFoldResult> out;
  for (OpFoldResult v : values)
    out.push_back(isa<Value>(v)
                      ? OpFoldResult(mapping.lookupOrDefault(cast<Value>(v)))
                      : v);
  return out;
}

std::optional<Value>
FunctionPartitioner::rebuildLocalOp(Operation *op, ValueRange operands,
                                    ArrayRef<Type> resultTypes) {
  Location loc = op->getLoc();
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    auto global = slice.getSourceType();
    auto local = cast<RankedTensorType>(operands[0].getType());
    return tensor::ExtractSliceOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        mapped(mapping, slice.getMixedOffsets()),
        localSizes(b, slice.getMixedSizes(), global, local),
        mapped(mapping, slice.getMixedStrides()));
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    auto global = insert.getDestType();
    auto local = cast<RankedTensorType>(operands[1].getType());
    return tensor::InsertSliceOp::create(
        b, loc, operands[0], operands[1],
        mapped(mapping, insert.getMixedOffsets()),
        localSizes(b, insert.getMixedSizes(), global, local),
        mapped(mapping, insert.getMixedStrides()));
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return tensor::ExpandShapeOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return tensor::CollapseShapeOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        collapse.getReassociationIndices());
  if (auto concat = dyn_cast<tensor::ConcatOp>(op))
    return tensor::ConcatOp::create(b, loc, resultTypes[0], concat.getDim(),
                                    operands);
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    auto type = cast<RankedTensorType>(resultTypes[0]);
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    auto type = cast<RankedTensorType>(resultTypes[0]);
    if (dense && dense.isSplat())
      return arith::ConstantOp::create(b, loc, dense.resizeSplat(type));
    // A non-splat constant exists whole on every device; the caller slices
    // it if the rule wanted it split.
    if (type != plain(constant.getType()))
      return Value();
    return arith::ConstantOp::create(
        b, loc,
        dense ? DenseElementsAttr(dense.reshape(type))
              : cast<TypedAttr>(constant.getValue()));
  }
  return std::nullopt;
}

void FunctionPartitioner::offsetLinalgIndices(Operation *clone,
                                              const FactorAxes &factorAxes,
                                              const ShardingRule &rule) {
  Location loc = clone->getLoc();
  SmallVector<linalg::IndexOp> indices;
  clone->walk([&](linalg::IndexOp index) { indices.push_back(index); });
  for (linalg::IndexOp index : indices) {
    int64_t d = index.getDim();
    if (d >= static_cast<int64_t>(factorAxes.size()) || factorAxes[d].empty())
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(clone);
    int64_t block = rule.factorSizes[d] / mesh.getAxesSize(factorAxes[d]);
    SmallVector<Attribute> axes(factorAxes[d].begin(), factorAxes[d].end());
    Value rank = spmd::AxisIndexOp::create(b, loc, b.getIndexType(),
                                           b.getArrayAttr(axes));
    Value offset = arith::MulIOp::create(
        b, loc, rank, arith::ConstantIndexOp::create(b, loc, block));
    b.setInsertionPointAfter(index);
    Value global = arith::AddIOp::create(b, loc, index, offset);
    index.getResult().replaceAllUsesExcept(global, global.getDefiningOp());
  }
}

Value FunctionPartitioner::createLocalOp(Operation *op, ValueRange operands,
                                         ArrayRef<Type> resultTypes,
                                         const FactorAxes &factorAxes,
                                         const ShardingRule &rule,
                                         SmallVector<Value> &results) {
  if (std::optional<Value> rebuilt =
          rebuildLocalOp(op, operands, resultTypes)) {
    if (*rebuilt)
      results.push_back(*rebuilt);
    return *rebuilt;
  }

  // Generic path: clone on the local operands, with local result types.
  Operation *clone = cloneOn(op, operands);
  for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
    result.setType(type);
  clone->removeAttr(TrellisDialect::kShardingAttrName);

  // linalg.index yields local loop indices; add the block's offset for
  // loops that are split.
  if (isa<linalg::LinalgOp>(clone))
    offsetLinalgIndices(clone, factorAxes, rule);
  llvm::append_range(results, clone->getResults());
  return clone->getNumResults() ? clone->getResult(0) : Value();
}
