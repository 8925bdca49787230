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
//===----------------------------------------------------------------------===//

#include "lib/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
  auto read = [&](std::optional<ArrayRef<int64_t>> values, StringRef name,
                  SmallVector<int64_t> &into) -> LogicalResult {
    if (!values)
      return success();
    if (static_cast<int64_t>(values->size()) != rank ||
        llvm::any_of(*values, [](int64_t v) { return v < 1; }))
      return op.emitError()
             << name << " [" << *values
             << "] need one positive entry per dimension of " << operandType;
    into.assign(values->begin(), values->end());
    return success();
  };
  if (failed(read(op.getWindowDimensions(), "window_dimensions", w.dims)) ||
      failed(read(op.getWindowStrides(), "window_strides", w.strides)))
    return failure();
  if (std::optional<DenseIntElementsAttr> padding = op.getPadding()) {
    SmallVector<int64_t> flat = llvm::to_vector(padding->getValues<int64_t>());
    if (static_cast<int64_t>(flat.size()) != 2 * rank)
      return op.emitError("padding needs a [low, high] pair per dimension");
    for (int64_t d = 0; d < rank; ++d) {
      w.low[d] = flat[2 * d];
      w.high[d] = flat[2 * d + 1];
      if (w.low[d] < 0 || w.high[d] < 0)
        return op.emitError("negative padding of select_and_scatter is not "
                            "supported");
    }
  }
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

} // namespace

FailureOr<Value> Importer::importSelectAndScatter(hlo::SelectAndScatterOp op) {
  FailureOr<SelectWindow> window = checkSelectAndScatter(op);
  if (failed(window))
    return failure();
  const SelectWindow &w = *window;
  auto type = cast<RankedTensorType>(op.getType());
  int64_t rank = type.getRank();
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
