//===- CollectiveMatmulEmitter.cpp - The steps of a collective matmul -----===//
//
// The pieces spmd-collective-matmul's loops are built from, shared by the
// all_gather and the psum_scatter side: ring positions and offsets, slices
// and blocks of the operands and of the init, the ppermute to a ring
// neighbour, and the loop itself (an scf.for, or unrolled).
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/CollectiveMatmul.h"

#include "lib/Transforms/Spmd/ArithBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace mlir::spmd::collective_matmul {

namespace {

/// Pairs of a shift by one around a ring of n: left (j -> j - 1) or right
/// (j -> j + 1).
DenseI64ArrayAttr shiftPairs(Builder &b, int64_t n, bool left) {
  SmallVector<int64_t> flat;
  for (int64_t j = 0; j < n; ++j) {
    flat.push_back(j);
    flat.push_back(left ? (j - 1 + n) % n : (j + 1) % n);
  }
  return b.getDenseI64ArrayAttr(flat);
}

/// The offsets, sizes and strides of a 2-D block of `shape` that starts at
/// `off` along `dim` and at 0 along the other dimension.
struct Box {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
Box boxAlong(OpBuilder &b, ArrayRef<int64_t> shape, int64_t dim,
             OpFoldResult off) {
  Box box{SmallVector<OpFoldResult>(2, b.getIndexAttr(0)),
          {b.getIndexAttr(shape[0]), b.getIndexAttr(shape[1])},
          SmallVector<OpFoldResult>(2, b.getIndexAttr(1))};
  box.offsets[dim] = off;
  return box;
}

} // namespace

RankedTensorType withShape(Type like, ArrayRef<int64_t> shape) {
  auto t = cast<RankedTensorType>(like);
  return RankedTensorType::get(shape, t.getElementType(), t.getEncoding());
}

Value sliceAlong(OpBuilder &b, Location loc, Value source, int64_t dim,
                 OpFoldResult off, int64_t size) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  Box box = boxAlong(b, shape, dim, off);
  return tensor::ExtractSliceOp::create(b, loc, withShape(type, shape), source,
                                        box.offsets, box.sizes, box.strides);
}

/// A 2-D `piece` inserted into `into` at `off` along `dim`.
Value insertAlong(OpBuilder &b, Location loc, Value piece, Value into,
                  int64_t dim, OpFoldResult off) {
  Box box =
      boxAlong(b, cast<RankedTensorType>(piece.getType()).getShape(), dim, off);
  return tensor::InsertSliceOp::create(b, loc, piece, into, box.offsets,
                                       box.sizes, box.strides);
}

Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                  Value init) {
  return linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                  ValueRange{lhs, rhs}, ValueRange{init})
      .getResult(0);
}

Value Emitter::emit() {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(m.matmul);
  n = m.groupSize;
  mark(0);
  axisSize = AxisSizeOp::create(b, loc, b.getIndexType(), m.axes);
  axisIndex = AxisIndexOp::create(b, loc, b.getIndexType(), m.axes);
  c0 = arith::ConstantIndexOp::create(b, loc, 0);
  c1 = arith::ConstantIndexOp::create(b, loc, 1);
  lastConstant = c1.getDefiningOp();
  constants[0] = c0;
  constants[1] = c1;
  lhs = m.matmul.getInputs()[0];
  rhs = m.matmul.getInputs()[1];
  init = m.matmul.getOutputs()[0];
  resultType = cast<RankedTensorType>(m.matmul.getResultTypes()[0]);
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    fillValue = fill.getInputs()[0];
  switch (m.pattern) {
  case Pattern::GatherLhsRows:
  case Pattern::GatherLhsContracting:
  case Pattern::GatherRhsCols:
  case Pattern::GatherRhsContracting:
    return emitGather();
  case Pattern::ScatterRows:
  case Pattern::ScatterCols:
    return emitScatter();
  }
  return {};
}

void Emitter::mark(int64_t step, int64_t half) {
  currentStep = step;
  if (!onStep)
    return;
  bool scatters = isa<PsumScatterOp>(m.collective);
  onStep(2 * ((scatters ? n - 1 : 0) + step) + half);
}

Value Emitter::index(int64_t v) {
  Value &c = constants[v];
  if (!c) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(lastConstant);
    // Untagged: constants go first when microbatched steps are reordered.
    if (tagger)
      tagger->suspended = true;
    c = arith::ConstantIndexOp::create(b, loc, v);
    if (tagger)
      tagger->suspended = false;
    lastConstant = c.getDefiningOp();
  }
  return c;
}

Value Emitter::owner(Value i, int64_t k, bool left) {
  Value sum;
  if (left) {
    sum = arith::AddIOp::create(b, loc, axisIndex, i);
    if (k)
      sum = arith::AddIOp::create(b, loc, sum, index(k));
  } else {
    sum = arith::AddIOp::create(b, loc, axisIndex, index(n - k));
    sum = arith::SubIOp::create(b, loc, sum, i);
  }
  return arith::RemUIOp::create(b, loc, sum, axisSize);
}

Value Emitter::offset(Value owner, int64_t chunk, int64_t extra) {
  Value off = arith::MulIOp::create(b, loc, owner, index(chunk));
  if (extra)
    off = arith::AddIOp::create(b, loc, off, index(extra));
  return off;
}

Value Emitter::slice(Value source, int64_t dim, OpFoldResult off,
                     int64_t size) {
  return sliceAlong(b, loc, source, dim, off, size);
}

Value Emitter::block(Value source, OpFoldResult rowOff, int64_t rows,
                     OpFoldResult colOff, int64_t cols) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, withShape(type, {rows, cols}), source,
      SmallVector<OpFoldResult>{rowOff, colOff},
      SmallVector<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
      strides);
}

Value Emitter::initBlock2D(OpFoldResult rowOff, int64_t rows,
                           OpFoldResult colOff, int64_t cols) {
  if (fillValue) {
    Value empty = tensor::EmptyOp::create(
        b, loc, SmallVector<int64_t>{rows, cols}, resultType.getElementType(),
        resultType.getEncoding());
    return linalg::FillOp::create(b, loc, fillValue, empty).getResult(0);
  }
  return block(init, rowOff, rows, colOff, cols);
}

Value Emitter::stackRows(Value top, Value bottom, RankedTensorType type) {
  Value empty = tensor::EmptyOp::create(
      b, loc, type.getShape(), type.getElementType(), type.getEncoding());
  int64_t h = cast<RankedTensorType>(top.getType()).getDimSize(0);
  Value joined = insert(top, empty, 0, b.getIndexAttr(0));
  return insert(bottom, joined, 0, b.getIndexAttr(h));
}

Value Emitter::insert(Value piece, Value into, int64_t dim, OpFoldResult off) {
  return insertAlong(b, loc, piece, into, dim, off);
}

Value Emitter::initBlock(int64_t dim, int64_t size,
                         llvm::function_ref<OpFoldResult()> off) {
  SmallVector<int64_t> shape(resultType.getShape());
  shape[dim] = size;
  RankedTensorType type = withShape(resultType, shape);
  if (fillValue) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType(),
                                          type.getEncoding());
    return linalg::FillOp::create(b, loc, fillValue, empty).getResult(0);
  }
  return slice(init, dim, off(), size);
}

Value Emitter::matmul(Value a, Value bb, Value c) {
  return buildMatmul(b, loc, a, bb, c);
}

Value Emitter::ppermute(Value v, bool left) {
  return PpermuteOp::create(b, loc, v.getType(), v, m.axes,
                            shiftPairs(b, n, left));
}

Value Emitter::add(Value x, Value y) { return buildAdd(b, loc, x, y); }

SmallVector<Value>
Emitter::loop(int64_t lo, int64_t hi, Value loVal, Value hiVal,
              SmallVector<Value> carried,
              llvm::function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  if (unroll) {
    for (int64_t i = lo; i < hi; ++i) {
      mark(i);
      carried = body(index(i), carried);
    }
    return carried;
  }
  auto forOp = scf::ForOp::create(b, loc, loVal, hiVal, c1, carried);
  OpBuilder::InsertionGuard guard(b);
  Block *blockBody = forOp.getBody();
  if (!blockBody->empty())
    b.eraseOp(blockBody->getTerminator());
  b.setInsertionPointToEnd(blockBody);
  SmallVector<Value> next =
      body(forOp.getInductionVar(), blockBody->getArguments().drop_front());
  scf::YieldOp::create(b, loc, next);
  return SmallVector<Value>(forOp.getResults());
}

} // namespace mlir::spmd::collective_matmul
