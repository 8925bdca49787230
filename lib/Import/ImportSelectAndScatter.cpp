//===- ImportSelectAndScatter.cpp - stablehlo.select_and_scatter ----------===//
//
// The max-pool gradient: for each source element, the window of the
// (padded) operand it belongs to selects one element, and the source
// element is combined into the result there. It becomes loops over the
// source (scf.for carrying the result tensor) around loops over the window
// that run the `select` region in row-major order, as XLA does: the first
// element of the window is the candidate, and each next element replaces
// it when `select(candidate, element)` is false. Padding is never
// selected; a window of padding only scatters nothing. The `scatter`
// region then combines the source element into the result, which starts
// as the init value everywhere.
//
// Those loops read the operand element by element, so a split operand is
// gathered at every read. When the scatter region is a sum (JAX's
// max-pool gradient) the same selection runs as linalg instead
// (selectedPositions, scatterSums), which the partitioner splits like a
// pooling: batch and channels stay split, windows read halos.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

namespace {

/// The window of a select_and_scatter, defaults filled in.
struct SelectWindow {
  SmallVector<int64_t> dims, strides, low, high;
};

/// Reads and checks the window attributes against the operand, the source
/// (one element per window) and the result (the operand's type).
FailureOr<SelectWindow> checkSelectAndScatter(hlo::SelectAndScatterOp op) {
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  auto sourceType = cast<RankedTensorType>(op.getSource().getType());
  auto initType = cast<RankedTensorType>(op.getInitValue().getType());
  int64_t rank = operandType.getRank();
  SelectWindow w;
  w.dims.assign(rank, 1);
  w.strides.assign(rank, 1);
  w.low.assign(rank, 0);
  w.high.assign(rank, 0);
  if (failed(readWindowEntries(op, op.getWindowDimensions(),
                               "window_dimensions", operandType, w.dims)) ||
      failed(readWindowEntries(op, op.getWindowStrides(), "window_strides",
                               operandType, w.strides)) ||
      failed(readWindowPadding(op, op.getPadding(), rank, w.low, w.high)))
    return failure();
  if (llvm::any_of(llvm::concat<const int64_t>(w.low, w.high),
                   [](int64_t v) { return v < 0; }))
    return op.emitError("negative padding of select_and_scatter is not "
                        "supported");
  Type element = operandType.getElementType();
  if (op.getType() != operandType || sourceType.getElementType() != element ||
      initType.getRank() != 0 || initType.getElementType() != element)
    return op.emitError("the result must have the operand's type ")
           << operandType << ", and the source and the 0-d init value its "
           << "element type";
  if (sourceType.getRank() != rank)
    return op.emitError("the source ")
           << sourceType << " must have the operand's rank";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t padded = operandType.getDimSize(d) + w.low[d] + w.high[d];
    int64_t windows =
        padded < w.dims[d] ? 0 : (padded - w.dims[d]) / w.strides[d] + 1;
    if (sourceType.getDimSize(d) != windows)
      return op.emitError("the source ")
             << sourceType << " needs one element per window: " << windows
             << " along dimension " << d;
  }
  for (Region *region : {&op.getSelect(), &op.getScatter()})
    if (region->front().getNumArguments() != 2)
      return op.emitError("the select and scatter regions take two scalars");
  return w;
}

/// `x + y` of two tensors of the same type.
Value emitAdd(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

/// Whether `block` returns the sum of its two arguments.
bool isSum(Block &block) {
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return false;
  auto add = dyn_cast<hlo::AddOp>(block.front());
  auto ret = dyn_cast<hlo::ReturnOp>(block.getTerminator());
  if (!add || !ret || ret.getResults().size() != 1 ||
      ret.getResults()[0] != add.getResult())
    return false;
  SmallVector<Value> args(block.getArguments());
  return llvm::is_contained(args, add.getLhs()) &&
         llvm::is_contained(args, add.getRhs()) && add.getLhs() != add.getRhs();
}

} // namespace

/// Which element of each window `select` picks, in linalg: a
/// linalg.generic over (windows, window positions) that reads the operand
/// padded with the init value at `window * stride + position`, with the
/// position loops reductions visited in row-major order (they are never
/// split: the payload is no sum, maximum or minimum). It carries the
/// candidate's value and its flat position in the window (-1 before the
/// first element that is not padding; padding is told by the global
/// indices). Returns the flat positions, or failure if `select` cannot be
/// emitted.
static FailureOr<Value> selectedPositions(OpBuilder &b,
                                          hlo::SelectAndScatterOp op,
                                          const SelectWindow &w) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  auto sourceType = cast<RankedTensorType>(op.getSource().getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  SmallVector<int64_t> offsets;
  Value padded =
      dilateAndPad(b, loc, op.getOperand(), scalarOf(b, loc, op.getInitValue()),
                   llvm::to_vector(llvm::seq(rank)), w.low, w.high,
                   SmallVector<int64_t>(rank, 1), offsets);
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> read, position, windows;
  for (int64_t d = 0; d < rank; ++d) {
    read.push_back(b.getAffineDimExpr(d) * w.strides[d] +
                   b.getAffineDimExpr(rank + d));
    position.push_back(b.getAffineDimExpr(rank + d));
    windows.push_back(b.getAffineDimExpr(d));
  }
  AffineMap perWindow = AffineMap::get(2 * rank, 0, windows, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(2 * rank, 0, read, ctx),
                                 AffineMap::get(2 * rank, 0, position, ctx),
                                 perWindow, perWindow};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(rank, utils::IteratorType::reduction);
  auto fill = [&](Type elementType, Value value) {
    auto t = RankedTensorType::get(sourceType.getShape(), elementType);
    return linalg::FillOp::create(b, loc, value, emptyOf(b, loc, t))
        .getResult(0);
  };
  Type i64 = b.getI64Type();
  Value none = arith::ConstantIntOp::create(b, loc, i64, -1);
  Value shape = tensor::EmptyOp::create(b, loc, w.dims, element);
  bool regionFailed = false;
  Block &select = op.getSelect().front();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{sourceType.clone(i64), sourceType},
      ValueRange{padded, shape},
      ValueRange{fill(i64, none),
                 fill(element, constantOf(b, loc, element, 0))},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value value = args[0], at = args[2], candidate = args[3];
        // Where the element is in the operand, and in the window (flat).
        Value valid = arith::ConstantIntOp::create(nb, nloc, nb.getI1Type(), 1);
        Value flat = arith::ConstantIndexOp::create(nb, nloc, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value o = linalg::IndexOp::create(nb, nloc, d);
          Value k = linalg::IndexOp::create(nb, nloc, rank + d);
          auto index = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(nb, nloc, v);
          };
          Value p = arith::AddIOp::create(
              nb, nloc, arith::MulIOp::create(nb, nloc, o, index(w.strides[d])),
              k);
          Value lowOk = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::sge, p, index(w.low[d]));
          Value highOk =
              arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, p,
                                    index(w.low[d] + type.getDimSize(d)));
          valid = arith::AndIOp::create(
              nb, nloc, valid, arith::AndIOp::create(nb, nloc, lowOk, highOk));
          flat = arith::AddIOp::create(
              nb, nloc, arith::MulIOp::create(nb, nloc, flat, index(w.dims[d])),
              k);
        }
        FailureOr<SmallVector<Value>> keep =
            emitScalarRegion(nb, op, select, {candidate, value});
        if (succeeded(keep) && !(*keep)[0].getType().isInteger(1)) {
          op.emitError("the select region must return a boolean");
          keep = failure();
        }
        regionFailed |= failed(keep);
        Value seen = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sgt,
                                           at, none);
        Value kept = arith::AndIOp::create(nb, nloc, seen,
                                           failed(keep) ? seen : (*keep)[0]);
        Value take = arith::AndIOp::create(
            nb, nloc, valid,
            arith::XOrIOp::create(
                nb, nloc, kept,
                arith::ConstantIntOp::create(nb, nloc, nb.getI1Type(), 1)));
        Value flatI64 = arith::IndexCastOp::create(nb, nloc, i64, flat);
        linalg::YieldOp::create(
            nb, nloc,
            ValueRange{
                arith::SelectOp::create(nb, nloc, take, flatI64, at),
                arith::SelectOp::create(nb, nloc, take, value, candidate)});
      });
  if (regionFailed) {
    generic->erase();
    return failure();
  }
  return generic->getResult(0);
}

/// select_and_scatter whose scatter region is a sum, in linalg: the
/// selected positions, then each window's source element placed at its
/// position in a (windows, window positions) tensor of zeros, and for
/// each window position p the windows' slice at p added into the padded
/// result at `p + stride * window` (a strided tensor.insert_slice). The
/// result is the init value plus the sum, without the padding.
static FailureOr<Value> scatterSums(OpBuilder &b, hlo::SelectAndScatterOp op,
                                    const SelectWindow &w) {
  FailureOr<Value> selected = selectedPositions(b, op, w);
  if (failed(selected))
    return failure();
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getType());
  auto sourceType = cast<RankedTensorType>(op.getSource().getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> spread(sourceType.getShape());
  spread.append(w.dims);
  SmallVector<AffineExpr> windows;
  for (int64_t d = 0; d < rank; ++d)
    windows.push_back(b.getAffineDimExpr(d));
  AffineMap perWindow = AffineMap::get(2 * rank, 0, windows, ctx);
  Value zero = constantOf(b, loc, element, 0);
  auto spreadType = RankedTensorType::get(spread, element);
  auto placed = linalg::GenericOp::create(
      b, loc, spreadType, ValueRange{*selected, op.getSource()},
      ValueRange{emptyOf(b, loc, spreadType)},
      SmallVector<AffineMap>{perWindow, perWindow,
                             b.getMultiDimIdentityMap(2 * rank)},
      SmallVector<utils::IteratorType>(2 * rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value flat = arith::ConstantIndexOp::create(nb, nloc, 0);
        for (int64_t d = 0; d < rank; ++d)
          flat = arith::AddIOp::create(
              nb, nloc,
              arith::MulIOp::create(
                  nb, nloc, flat,
                  arith::ConstantIndexOp::create(nb, nloc, w.dims[d])),
              linalg::IndexOp::create(nb, nloc, rank + d));
        Value here = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::eq, args[0],
            arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), flat));
        linalg::YieldOp::create(
            nb, nloc,
            arith::SelectOp::create(nb, nloc, here, args[1], zero).getResult());
      });
  SmallVector<int64_t> paddedShape;
  for (int64_t d = 0; d < rank; ++d)
    paddedShape.push_back(type.getDimSize(d) + w.low[d] + w.high[d]);
  auto paddedType = RankedTensorType::get(paddedShape, element);
  Value zeros =
      linalg::FillOp::create(b, loc, zero, emptyOf(b, loc, paddedType))
          .getResult(0);
  Value sum;
  SmallVector<int64_t> ones(rank, 1), positionSizes(rank, 1);
  SmallVector<int64_t> sliceSizes(sourceType.getShape());
  sliceSizes.append(positionSizes);
  SmallVector<int64_t> sliceStrides(2 * rank, 1);
  for (int64_t flat = 0, count = computeProduct(w.dims); flat < count; ++flat) {
    SmallVector<int64_t> position = delinearize(flat, computeStrides(w.dims));
    SmallVector<int64_t> sliceOffsets(rank, 0);
    sliceOffsets.append(position);
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, sourceType, placed->getResult(0), ValueRange(), ValueRange(),
        ValueRange(), sliceOffsets, sliceSizes, sliceStrides);
    Value shifted = tensor::InsertSliceOp::create(
        b, loc, slice, zeros, ValueRange(), ValueRange(), ValueRange(),
        position, sourceType.getShape(), w.strides);
    sum = sum ? emitAdd(b, loc, sum, shifted) : shifted;
  }
  Value whole = tensor::ExtractSliceOp::create(b, loc, type, sum, ValueRange(),
                                               ValueRange(), ValueRange(),
                                               w.low, type.getShape(), ones);
  Value init =
      linalg::FillOp::create(b, loc, scalarOf(b, loc, op.getInitValue()),
                             emptyOf(b, loc, type))
          .getResult(0);
  return emitAdd(b, loc, init, whole);
}

FailureOr<Value> Importer::importSelectAndScatter(hlo::SelectAndScatterOp op) {
  FailureOr<SelectWindow> window = checkSelectAndScatter(op);
  if (failed(window))
    return failure();
  const SelectWindow &w = *window;
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
  if (isSum(op.getScatter().front()) && type.getNumElements() > 0 &&
      op.getSource().getType().getNumElements() > 0)
    return scatterSums(b, op, w);
  Location loc = op.getLoc();
  auto index = [&](OpBuilder &nb, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, loc, v);
  };
  Value init = scalarOf(b, loc, op.getInitValue());
  Value result =
      linalg::FillOp::create(b, loc, init, emptyOf(b, loc, type)).getResult(0);
  SmallVector<Value> zeros(rank, index(b, 0)), ones(rank, index(b, 1)),
      sourceSizes, windowSizes;
  for (int64_t d = 0; d < rank; ++d) {
    sourceSizes.push_back(index(b, op.getSource().getType().getDimSize(d)));
    windowSizes.push_back(index(b, w.dims[d]));
  }
  Block &select = op.getSelect().front(), &scatter = op.getScatter().front();
  bool regionFailed = false;
  Type element = type.getElementType();
  Value isFalse = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  Value isTrue = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);

  // One window: the selected position, its value and whether any element
  // (not padding) was seen, carried through the window's loops.
  auto selectIn = [&](OpBuilder &nb, ValueRange source) {
    SmallVector<Value> start(zeros);
    start.append({init, isFalse});
    return scf::buildLoopNest(
               nb, loc, zeros, windowSizes, ones, start,
               [&](OpBuilder &ib, Location, ValueRange offsets,
                   ValueRange carried) -> scf::ValueVector {
                 SmallVector<Value> position;
                 Value valid = isTrue;
                 for (int64_t d = 0; d < rank; ++d) {
                   Value at = arith::AddIOp::create(
                       ib, loc,
                       arith::MulIOp::create(ib, loc, source[d],
                                             index(ib, w.strides[d])),
                       offsets[d]);
                   at = arith::SubIOp::create(ib, loc, at, index(ib, w.low[d]));
                   Value inside = arith::AndIOp::create(
                       ib, loc,
                       arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::sge,
                                             at, index(ib, 0)),
                       arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::slt,
                                             at,
                                             index(ib, type.getDimSize(d))));
                   valid = arith::AndIOp::create(ib, loc, valid, inside);
                   position.push_back(at);
                 }
                 auto branch = scf::IfOp::create(
                     ib, loc, valid,
                     [&](OpBuilder &tb, Location) {
                       Value candidate = carried[rank];
                       Value seen = carried[rank + 1];
                       Value value = tensor::ExtractOp::create(
                           tb, loc, op.getOperand(), position);
                       FailureOr<SmallVector<Value>> keep =
                           emitScalarRegion(tb, op, select, {candidate, value});
                       if (succeeded(keep) &&
                           !(*keep)[0].getType().isInteger(1)) {
                         op.emitError("the select region must return a "
                                      "boolean");
                         keep = failure();
                       }
                       regionFailed |= failed(keep);
                       // Take the element unless select keeps the candidate.
                       Value kept = failed(keep)
                                        ? isFalse
                                        : arith::AndIOp::create(tb, loc, seen,
                                                                (*keep)[0])
                                              .getResult();
                       SmallVector<Value> next;
                       for (int64_t d = 0; d < rank; ++d)
                         next.push_back(arith::SelectOp::create(
                             tb, loc, kept, carried[d], position[d]));
                       next.push_back(arith::SelectOp::create(
                           tb, loc, kept, candidate, value));
                       next.push_back(isTrue);
                       scf::YieldOp::create(tb, loc, next);
                     },
                     [&](OpBuilder &eb, Location) {
                       scf::YieldOp::create(eb, loc, carried);
                     });
                 return scf::ValueVector(branch.getResults());
               })
        .results;
  };

  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, zeros, sourceSizes, ones, ValueRange{result},
      [&](OpBuilder &nb, Location, ValueRange source,
          ValueRange carried) -> scf::ValueVector {
        scf::ValueVector chosen = selectIn(nb, source);
        SmallVector<Value> position(chosen.begin(), chosen.begin() + rank);
        auto branch = scf::IfOp::create(
            nb, loc, chosen[rank + 1],
            [&](OpBuilder &tb, Location) {
              Value old =
                  tensor::ExtractOp::create(tb, loc, carried[0], position);
              Value update =
                  tensor::ExtractOp::create(tb, loc, op.getSource(), source);
              FailureOr<SmallVector<Value>> combined =
                  emitScalarRegion(tb, op, scatter, {old, update});
              regionFailed |= failed(combined);
              Value value = failed(combined) ? old : (*combined)[0];
              if (value.getType() != element) {
                regionFailed = true;
                op.emitError("the scatter region must return the operand's "
                             "element type");
                value = old;
              }
              scf::YieldOp::create(
                  tb, loc,
                  tensor::InsertOp::create(tb, loc, value, carried[0], position)
                      .getResult());
            },
            [&](OpBuilder &eb, Location) {
              scf::YieldOp::create(eb, loc, carried[0]);
            });
        return {branch.getResult(0)};
      });
  if (regionFailed) {
    if (!nest.loops.empty())
      nest.loops.front()->erase();
    return failure();
  }
  return nest.results[0];
}
