//===- ImportIndexing.cpp - gather and dynamic slices ---------------------===//
//
// gather (what x[idx], jnp.take and embedding lookups print) becomes a
// linalg.generic over the result whose body reads the start indices and
// the operand with tensor.extract, following the StableHLO specification:
// batch dimensions of the result pick a start index vector, start indices
// are clamped so the slice stays in the operand, offset dimensions walk
// the slice. dynamic_slice and dynamic_update_slice become tensor slices
// at clamped run-time offsets.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

/// `value` (an integer of any width) as an index clamped into [0, bound].
static Value clampedIndex(OpBuilder &b, Location loc, Value value,
                          int64_t bound, bool isUnsigned) {
  Value wide = value;
  if (!value.getType().isInteger(64))
    wide = convertElements(b, loc, value, b.getI64Type(), isUnsigned);
  Value lo = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  Value hi = arith::ConstantIntOp::create(b, loc, b.getI64Type(), bound);
  Value clamped = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, wide, lo), hi);
  if (isUnsigned && value.getType().isInteger(64)) {
    // A ui64 index at or past 2^63 reads as negative: it is past the end.
    Value huge =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, wide, lo);
    clamped = arith::SelectOp::create(b, loc, huge, hi, clamped);
  }
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), clamped);
}

FailureOr<Value> Importer::importGather(hlo::GatherOp op) {
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  auto indicesType = cast<RankedTensorType>(op.getStartIndices().getType());
  auto type = cast<RankedTensorType>(op.getType());
  hlo::GatherDimensionNumbersAttr dn = op.getDimensionNumbers();
  ArrayRef<int64_t> offsetDims = dn.getOffsetDims(),
                    collapsed = dn.getCollapsedSliceDims(),
                    startIndexMap = dn.getStartIndexMap(),
                    sizes = op.getSliceSizes();
  int64_t operandRank = operandType.getRank(),
          indicesRank = indicesType.getRank(), rank = type.getRank();
  int64_t vectorDim = dn.getIndexVectorDim();
  auto invalid = [&](const Twine &why) { return op.emitError(why); };
  if (!dn.getOperandBatchingDims().empty() ||
      !dn.getStartIndicesBatchingDims().empty())
    return invalid("gathers with batching dimensions are not supported yet");
  if (!isa<IntegerType>(indicesType.getElementType()) ||
      indicesType.getElementType().isInteger(1))
    return invalid("start indices must be integers");
  if (vectorDim < 0 || vectorDim > indicesRank)
    return invalid("index_vector_dim is out of range");
  int64_t vectorSize =
      vectorDim < indicesRank ? indicesType.getDimSize(vectorDim) : 1;
  if (static_cast<int64_t>(sizes.size()) != operandRank ||
      static_cast<int64_t>(startIndexMap.size()) != vectorSize ||
      !areDistinctDims(startIndexMap, operandRank) ||
      !areDistinctDims(collapsed, operandRank) ||
      !areDistinctDims(offsetDims, rank) || !llvm::is_sorted(offsetDims))
    return invalid("gather dimension numbers do not fit the operand and "
                   "start indices");
  for (int64_t d = 0; d < operandRank; ++d)
    if (sizes[d] < 0 || sizes[d] > operandType.getDimSize(d) ||
        (llvm::is_contained(collapsed, d) && sizes[d] != 1))
      return invalid("slice size ")
             << sizes[d] << " does not fit operand dimension " << d;
  // Operand dimensions the offsets walk, and result batch dimensions.
  SmallVector<int64_t> offsetOperandDims, batchDims, indexBatchDims;
  for (int64_t d = 0; d < operandRank; ++d)
    if (!llvm::is_contained(collapsed, d))
      offsetOperandDims.push_back(d);
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(offsetDims, d))
      batchDims.push_back(d);
  for (int64_t d = 0; d < indicesRank; ++d)
    if (d != vectorDim)
      indexBatchDims.push_back(d);
  if (offsetOperandDims.size() != offsetDims.size() ||
      batchDims.size() != indexBatchDims.size())
    return invalid("gather dimension numbers do not fit the result ") << type;
  for (auto [r, d] : llvm::zip(offsetDims, offsetOperandDims))
    if (type.getDimSize(r) != sizes[d])
      return invalid("result dimension ")
             << r << " must be the slice size " << sizes[d];
  for (auto [r, d] : llvm::zip(batchDims, indexBatchDims))
    if (type.getDimSize(r) != indicesType.getDimSize(d))
      return invalid("result dimension ")
             << r << " must match start indices dimension " << d;

  Location loc = op.getLoc();
  Value indices = op.getStartIndices(), operand = op.getOperand();
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange(), ValueRange{emptyOf(b, loc, type)},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(linalg::IndexOp::create(nb, nloc, d));
        // Where the slice starts: the index vector at this batch position,
        // clamped so the slice fits.
        SmallVector<Value> position(operandRank);
        for (int64_t d = 0; d < operandRank; ++d)
          position[d] = arith::ConstantIndexOp::create(nb, nloc, 0);
        for (auto [k, d] : llvm::enumerate(startIndexMap)) {
          SmallVector<Value> where(indicesRank);
          for (auto [r, i] : llvm::zip(batchDims, indexBatchDims))
            where[i] = at[r];
          if (vectorDim < indicesRank)
            where[vectorDim] = arith::ConstantIndexOp::create(nb, nloc, k);
          Value start = tensor::ExtractOp::create(nb, nloc, indices, where);
          position[d] = clampedIndex(nb, nloc, start,
                                     operandType.getDimSize(d) - sizes[d],
                                     wasUnsigned(op, 1));
        }
        for (auto [r, d] : llvm::zip(offsetDims, offsetOperandDims))
          position[d] = arith::AddIOp::create(nb, nloc, position[d], at[r]);
        linalg::YieldOp::create(
            nb, nloc,
            tensor::ExtractOp::create(nb, nloc, operand, position).getResult());
      });
  return generic->getResult(0);
}

/// The start indices of a dynamic slice, each a 0-d integer tensor, as
/// indices clamped so a slice of `sizes` fits `type`.
static FailureOr<SmallVector<OpFoldResult>>
clampedStarts(OpBuilder &b, Operation *op, ValueRange starts,
              unsigned firstStart, RankedTensorType type,
              ArrayRef<int64_t> sizes) {
  if (static_cast<int64_t>(starts.size()) != type.getRank() ||
      static_cast<int64_t>(sizes.size()) != type.getRank())
    return op->emitError("needs one start index and size per dimension of ")
           << type;
  SmallVector<OpFoldResult> offsets;
  for (auto [d, start] : llvm::enumerate(starts)) {
    auto startType = cast<RankedTensorType>(start.getType());
    if (startType.getRank() != 0 ||
        !isa<IntegerType>(startType.getElementType()) ||
        startType.getElementType().isInteger(1))
      return op->emitError("start indices must be 0-d integer tensors");
    if (sizes[d] < 0 || sizes[d] > type.getDimSize(d))
      return op->emitError("size ")
             << sizes[d] << " does not fit dimension " << d << " of " << type;
    int64_t bound = type.getDimSize(d) - sizes[d];
    bool isUnsigned = wasUnsigned(op, firstStart + d);
    // Offsets known at import are static: a slice taking a whole dimension
    // starts at 0 whatever its index (JAX's scan slices its stacked inputs
    // with a run-time index in the first dimension and zeros in the rest),
    // and a constant index is clamped now. Propagation passes shardings
    // through static offsets only; a dimension reached through a dynamic
    // one would be gathered whole.
    if (bound == 0) {
      offsets.push_back(b.getIndexAttr(0));
      continue;
    }
    DenseIntElementsAttr constant;
    if (matchPattern(start, m_Constant(&constant))) {
      APInt value = *constant.value_begin<APInt>();
      int64_t offset;
      if (isUnsigned)
        offset = value.getActiveBits() > 63
                     ? bound
                     : std::min<int64_t>(value.getZExtValue(), bound);
      else
        offset = std::clamp<int64_t>(value.getSExtValue(), 0, bound);
      offsets.push_back(b.getIndexAttr(offset));
      continue;
    }
    Value scalar = scalarOf(b, op->getLoc(), start);
    offsets.push_back(clampedIndex(b, op->getLoc(), scalar, bound, isUnsigned));
  }
  return offsets;
}

FailureOr<Value> Importer::importDynamicSlice(hlo::DynamicSliceOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> sizes = op.getSliceSizes();
  FailureOr<SmallVector<OpFoldResult>> offsets =
      clampedStarts(b, op, op.getStartIndices(), 1, from, sizes);
  if (failed(offsets))
    return failure();
  if (type.getShape() != sizes)
    return op.emitError("result type ")
           << type << " does not match the slice sizes";
  SmallVector<OpFoldResult> sizeAttrs, strides;
  for (int64_t size : sizes) {
    sizeAttrs.push_back(b.getIndexAttr(size));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::ExtractSliceOp::create(b, op.getLoc(), type, op.getOperand(),
                                        *offsets, sizeAttrs, strides)
      .getResult();
}

FailureOr<Value>
Importer::importDynamicUpdateSlice(hlo::DynamicUpdateSliceOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto update = cast<RankedTensorType>(op.getUpdate().getType());
  FailureOr<SmallVector<OpFoldResult>> offsets =
      clampedStarts(b, op, op.getStartIndices(), 2, type, update.getShape());
  if (failed(offsets))
    return failure();
  SmallVector<OpFoldResult> sizeAttrs, strides;
  for (int64_t size : update.getShape()) {
    sizeAttrs.push_back(b.getIndexAttr(size));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::InsertSliceOp::create(b, op.getLoc(), op.getUpdate(),
                                       op.getOperand(), *offsets, sizeAttrs,
                                       strides)
      .getResult();
}

namespace {
/// A scatter the importer supports, with what its dimension numbers say
/// about its operand, indices and updates.
struct ScatterGeometry {
  Value operand, indices, updates;
  RankedTensorType operandType, indicesType, updatesType;
  ArrayRef<int64_t> windowDims, toOperand;
  int64_t vectorDim;
  /// The operand dimensions the update window spans, the update
  /// dimensions that pick a start index vector, and the indices'
  /// dimensions they pick it along.
  SmallVector<int64_t> windowOperandDims, scatterDims, indexBatchDims;
  /// The window's size in each operand dimension.
  SmallVector<int64_t> windowSize;
  /// The update computation's block.
  Block *combiner;
};
} // namespace

/// Checks that the importer supports `op` and that its dimension numbers
/// fit its operand, indices and updates; emits an error at `op` and fails
/// otherwise.
static FailureOr<ScatterGeometry> analyzeScatter(hlo::ScatterOp op) {
  if (op.getInputs().size() != 1)
    return op.emitError("scatters of several operands are not supported yet");
  ScatterGeometry g;
  g.operand = op.getInputs()[0];
  g.indices = op.getScatterIndices();
  g.updates = op.getUpdates()[0];
  g.operandType = cast<RankedTensorType>(g.operand.getType());
  g.indicesType = cast<RankedTensorType>(g.indices.getType());
  g.updatesType = cast<RankedTensorType>(g.updates.getType());
  hlo::ScatterDimensionNumbersAttr dn = op.getScatterDimensionNumbers();
  g.windowDims = dn.getUpdateWindowDims();
  g.toOperand = dn.getScatterDimsToOperandDims();
  ArrayRef<int64_t> inserted = dn.getInsertedWindowDims();
  int64_t operandRank = g.operandType.getRank(),
          indicesRank = g.indicesType.getRank(),
          updatesRank = g.updatesType.getRank();
  g.vectorDim = dn.getIndexVectorDim();
  auto invalid = [&](const Twine &why) { return op.emitError(why); };
  if (!dn.getInputBatchingDims().empty() ||
      !dn.getScatterIndicesBatchingDims().empty())
    return invalid("scatters with batching dimensions are not supported yet");
  if (!isa<IntegerType>(g.indicesType.getElementType()) ||
      g.indicesType.getElementType().isInteger(1))
    return invalid("scatter indices must be integers");
  if (g.vectorDim < 0 || g.vectorDim > indicesRank)
    return invalid("index_vector_dim is out of range");
  int64_t vectorSize =
      g.vectorDim < indicesRank ? g.indicesType.getDimSize(g.vectorDim) : 1;
  for (int64_t d = 0; d < operandRank; ++d)
    if (!llvm::is_contained(inserted, d))
      g.windowOperandDims.push_back(d);
  for (int64_t d = 0; d < updatesRank; ++d)
    if (!llvm::is_contained(g.windowDims, d))
      g.scatterDims.push_back(d);
  for (int64_t d = 0; d < indicesRank; ++d)
    if (d != g.vectorDim)
      g.indexBatchDims.push_back(d);
  if (static_cast<int64_t>(g.toOperand.size()) != vectorSize ||
      !areDistinctDims(g.toOperand, operandRank) ||
      !areDistinctDims(inserted, operandRank) ||
      !areDistinctDims(g.windowDims, updatesRank) ||
      !llvm::is_sorted(g.windowDims) ||
      g.windowOperandDims.size() != g.windowDims.size() ||
      g.scatterDims.size() != g.indexBatchDims.size() ||
      g.operandType.getElementType() != g.updatesType.getElementType() ||
      op->getResult(0).getType() != g.operandType)
    return invalid("scatter dimension numbers do not fit the operand, "
                   "indices and updates");
  g.windowSize.assign(operandRank, 1);
  for (auto [u, d] : llvm::zip(g.windowDims, g.windowOperandDims)) {
    g.windowSize[d] = g.updatesType.getDimSize(u);
    if (g.windowSize[d] > g.operandType.getDimSize(d))
      return invalid("update window dimension ")
             << u << " is larger than operand dimension " << d;
  }
  for (auto [u, i] : llvm::zip(g.scatterDims, g.indexBatchDims))
    if (g.updatesType.getDimSize(u) != g.indicesType.getDimSize(i))
      return invalid("updates dimension ")
             << u << " must match indices dimension " << i;
  g.combiner = &op.getUpdateComputation().front();
  if (g.combiner->getNumArguments() != 2 ||
      !isa<hlo::ReturnOp>(g.combiner->getTerminator()) ||
      g.combiner->getTerminator()->getNumOperands() != 1)
    return invalid("the update computation must take two scalars and "
                   "return one");
  return g;
}

/// The index in `type` of row-major position `linear`.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      RankedTensorType type) {
  SmallVector<Value> at(type.getRank());
  Value rest = linear;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    Value size = arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
    at[d] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  return at;
}

/// For the update element at `at`: sets `position` to the operand element
/// it combines into and returns whether its window fits in the operand.
static Value scatterTarget(OpBuilder &b, Location loc, hlo::ScatterOp op,
                           const ScatterGeometry &g, ArrayRef<Value> at,
                           SmallVector<Value> &position) {
  // Where its window starts in the operand, and whether it fits.
  int64_t operandRank = g.operandType.getRank(),
          indicesRank = g.indicesType.getRank();
  Type i64 = b.getI64Type();
  SmallVector<Value> start(operandRank);
  for (int64_t d = 0; d < operandRank; ++d)
    start[d] = arith::ConstantIntOp::create(b, loc, i64, 0);
  for (auto [k, d] : llvm::enumerate(g.toOperand)) {
    SmallVector<Value> where(indicesRank);
    for (auto [u, i] : llvm::zip(g.scatterDims, g.indexBatchDims))
      where[i] = at[u];
    if (g.vectorDim < indicesRank)
      where[g.vectorDim] = arith::ConstantIndexOp::create(b, loc, k);
    Value index = tensor::ExtractOp::create(b, loc, g.indices, where);
    start[d] = convertElements(b, loc, index, i64, wasUnsigned(op, 1));
  }
  Value fits = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  position.assign(operandRank, Value());
  for (int64_t d = 0; d < operandRank; ++d) {
    Value nonNegative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, start[d],
                              arith::ConstantIntOp::create(b, loc, i64, 0));
    Value inside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sle, start[d],
        arith::ConstantIntOp::create(
            b, loc, i64, g.operandType.getDimSize(d) - g.windowSize[d]));
    fits = arith::AndIOp::create(
        b, loc, fits, arith::AndIOp::create(b, loc, nonNegative, inside));
    position[d] =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), start[d]);
  }
  for (auto [u, d] : llvm::zip(g.windowDims, g.windowOperandDims))
    position[d] = arith::AddIOp::create(b, loc, position[d], at[u]);
  return fits;
}

/// scatter (`.at[idx].add(v)`, `.at[idx].set(v)`, embedding gradients): a
/// loop over the update elements; each one whose window fits in the
/// operand is combined into the result with the update computation
/// (windows that do not fit are skipped, as XLA and JAX's default
/// FILL_OR_DROP mode do).
FailureOr<Value> Importer::importScatter(hlo::ScatterOp op) {
  FailureOr<ScatterGeometry> g = analyzeScatter(op);
  if (failed(g))
    return failure();
  Location loc = op.getLoc();
  auto cIndex = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto loop = scf::ForOp::create(b, loc, cIndex(0),
                                 cIndex(g->updatesType.getNumElements()),
                                 cIndex(1), ValueRange{g->operand});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  if (!loop.getBody()->empty() && loop.getBody()->mightHaveTerminator())
    b.setInsertionPoint(loop.getBody()->getTerminator());
  Value acc = loop.getRegionIterArgs()[0];
  // The update's index, row-major.
  SmallVector<Value> at =
      delinearize(b, loc, loop.getInductionVar(), g->updatesType);
  SmallVector<Value> position;
  Value fits = scatterTarget(b, loc, op, *g, at, position);
  bool bodyFailed = false;
  auto branch = scf::IfOp::create(
      b, loc, fits,
      [&](OpBuilder &nb, Location nloc) {
        Value old = tensor::ExtractOp::create(nb, nloc, acc, position);
        Value update = tensor::ExtractOp::create(nb, nloc, g->updates, at);
        FailureOr<SmallVector<Value>> combinedValues =
            emitScalarRegion(nb, op, *g->combiner, {old, update});
        bodyFailed = failed(combinedValues);
        Value combined = bodyFailed ? old : (*combinedValues)[0];
        scf::YieldOp::create(
            nb, nloc,
            tensor::InsertOp::create(nb, nloc, combined, acc, position)
                .getResult());
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, acc);
      });
  if (bodyFailed) {
    loop->erase();
    return failure();
  }
  if (loop.getBody()->mightHaveTerminator())
    loop.getBody()->getTerminator()->erase();
  b.setInsertionPointToEnd(loop.getBody());
  scf::YieldOp::create(b, loc, branch.getResult(0));
  return loop.getResult(0);
}
