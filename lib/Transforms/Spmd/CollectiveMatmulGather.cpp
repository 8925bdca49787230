//===- CollectiveMatmulGather.cpp - all_gather -> matmul as a ring --------===//
//
// The all_gather side of spmd-collective-matmul: instead of gathering an
// operand, each device multiplies the chunk it holds while passing it on
// to its ring neighbour, one direction (the seed's loop) or, with
// `bidirectional`, half of each chunk each way.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/CollectiveMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace mlir::spmd::collective_matmul {

Value Emitter::emitGather() {
  auto gather = cast<AllGatherOp>(m.collective);
  Value chunk = gather.getOperand();
  int64_t s = chunkSize();
  bool bidir = bidirectional && chunkRows() % 2 == 0;
  bool contracting = m.pattern == Pattern::GatherLhsContracting ||
                     m.pattern == Pattern::GatherRhsContracting;

  // The loop runs to n - 1 (seed 000's `axis_size - 1`); unrolled, the
  // steps use constants.
  Value last = unroll ? index(n - 1)
                      : Value(arith::SubIOp::create(b, loc, axisSize, c1));
  if (bidir)
    return emitGatherHalves(chunk, last);
  Value lastIndex = last;
  {
    // The seed's loop: n - 1 steps that send the chunk on, then the last.
    auto body = [&](Value i, ValueRange carried, bool send) {
      Value acc = carried[0], piece = carried[1];
      Value next;
      // Like the seed, a placement offset is computed after the send
      // unless the init block needs it first.
      Value own;
      if (contracting || !fillValue)
        own = owner(i, 0, /*left=*/true);
      acc = computePiece(acc, piece, i, own, 0, s, [&] {
        if (send)
          next = ppermute(piece, /*left=*/true);
      });
      return SmallVector<Value>{acc, next};
    };
    SmallVector<Value> carried =
        loop(0, n - 1, c0, last, {init, chunk},
             [&](Value i, ValueRange c) { return body(i, c, true); });
    mark(n - 1);
    return body(lastIndex, carried, false)[0];
  }

  return {};
}

Value Emitter::emitGatherHalves(Value chunk, Value last) {
  int64_t s = chunkSize();
  Value lastIndex = last;
  // Bidirectional: the chunk is split into two halves of rows (each
  // contiguous, so it is sent as is); the first half travels left, the
  // second right. Rows are the gathered dimension for lhs rows and rhs
  // contracting; for lhs contracting they split the result's rows, for
  // rhs columns the contracting dimension.
  int64_t h = chunkRows() / 2;
  Value first = slice(chunk, 0, b.getIndexAttr(0), h);
  Value second = slice(chunk, 0, b.getIndexAttr(h), h);
  auto sendHalves = [&](Value a, Value bb, bool send, Value &nextA,
                        Value &nextB) {
    if (send) {
      nextA = ppermute(a, /*left=*/true);
      nextB = ppermute(bb, /*left=*/false);
    }
  };

  if (m.pattern == Pattern::GatherLhsContracting) {
    // acc[:h] += a @ rhs[rows of a's owner]; acc[h:] likewise for b.
    int64_t cols = resultType.getDimSize(1);
    Value top = initBlock2D(b.getIndexAttr(0), h, b.getIndexAttr(0), cols);
    Value bottom = initBlock2D(b.getIndexAttr(h), h, b.getIndexAttr(0), cols);
    auto body = [&](Value i, ValueRange carried, bool send) {
      Value accTop = carried[0], accBottom = carried[1];
      Value a = carried[2], bb = carried[3], nextA, nextB;
      Value offA = offset(owner(i, 0, /*left=*/true), s);
      Value offB = offset(owner(i, 0, /*left=*/false), s);
      accTop = matmul(a, slice(rhs, 0, offA, s), accTop);
      accBottom = matmul(bb, slice(rhs, 0, offB, s), accBottom);
      sendHalves(a, bb, send, nextA, nextB);
      return SmallVector<Value>{accTop, accBottom, nextA, nextB};
    };
    SmallVector<Value> carried =
        loop(0, n - 1, c0, last, {top, bottom, first, second},
             [&](Value i, ValueRange c) { return body(i, c, true); });
    mark(n - 1);
    SmallVector<Value> done = body(lastIndex, carried, false);
    return stackRows(done[0], done[1], resultType);
  }

  if (m.pattern == Pattern::GatherRhsCols) {
    // acc[:, cols of a's owner] += lhs[:, :h] @ a; likewise for b.
    int64_t rows = resultType.getDimSize(0);
    Value lhsLeft = slice(lhs, 1, b.getIndexAttr(0), h);
    Value lhsRight = slice(lhs, 1, b.getIndexAttr(h), h);
    auto accumulate = [&](Value acc, Value l, Value piece, Value own) {
      Value off = offset(own, s);
      Value blk = block(acc, b.getIndexAttr(0), rows, off, s);
      blk = matmul(l, piece, blk);
      return insert(blk, acc, 1, off);
    };
    auto body = [&](Value i, ValueRange carried, bool send) {
      Value acc = carried[0], a = carried[1], bb = carried[2], nextA, nextB;
      acc = accumulate(acc, lhsLeft, a, owner(i, 0, /*left=*/true));
      acc = accumulate(acc, lhsRight, bb, owner(i, 0, /*left=*/false));
      sendHalves(a, bb, send, nextA, nextB);
      return SmallVector<Value>{acc, nextA, nextB};
    };
    SmallVector<Value> carried =
        loop(0, n - 1, c0, last, {init, first, second},
             [&](Value i, ValueRange c) { return body(i, c, true); });
    mark(n - 1);
    return body(lastIndex, carried, false)[0];
  }

  // Rows are the gathered dimension: each half is placed (lhs rows) or
  // meets its rows of the other operand (rhs contracting) at
  // owner * s + {0, h}.
  auto body = [&](Value i, ValueRange carried, bool send) {
    Value acc = carried[0], a = carried[1], bb = carried[2];
    Value nextA, nextB;
    Value ownA = owner(i, 0, /*left=*/true);
    Value ownB = owner(i, 0, /*left=*/false);
    acc = computePiece(acc, a, i, ownA, 0, h, [] {});
    acc = computePiece(acc, bb, i, ownB, h, h,
                       [&] { sendHalves(a, bb, send, nextA, nextB); });
    return SmallVector<Value>{acc, nextA, nextB};
  };
  SmallVector<Value> carried =
      loop(0, n - 1, c0, last, {init, first, second},
           [&](Value i, ValueRange c) { return body(i, c, true); });
  mark(n - 1);
  return body(lastIndex, carried, false)[0];
}

int64_t Emitter::chunkRows() {
  return cast<RankedTensorType>(
             cast<AllGatherOp>(m.collective).getOperand().getType())
      .getDimSize(0);
}

int64_t Emitter::chunkSize() {
  auto gather = cast<AllGatherOp>(m.collective);
  return cast<RankedTensorType>(gather.getOperand().getType())
      .getDimSize(gather.getDim());
}

Value Emitter::computePiece(Value acc, Value piece, Value i, Value own,
                            int64_t extra, int64_t size,
                            llvm::function_ref<void()> hook) {
  bool contracting = m.pattern == Pattern::GatherLhsContracting ||
                     m.pattern == Pattern::GatherRhsContracting;
  if (contracting)
    return computeContracting(acc, piece, own, extra, size, hook);
  return computeNonContracting(acc, piece, i, own, extra, size, hook);
}

Value Emitter::computeContracting(Value acc, Value piece, Value own,
                                  int64_t extra, int64_t size,
                                  llvm::function_ref<void()> hook) {
  bool gathersLhs = m.pattern == Pattern::GatherLhsContracting;
  Value off = offset(own, chunkSize(), extra);
  Value other =
      gathersLhs ? slice(rhs, 0, off, size) : slice(lhs, 1, off, size);
  Value result =
      gathersLhs ? matmul(piece, other, acc) : matmul(other, piece, acc);
  hook();
  return result;
}

Value Emitter::computeNonContracting(Value acc, Value piece, Value i, Value own,
                                     int64_t extra, int64_t size,
                                     llvm::function_ref<void()> hook) {
  bool gathersLhs = m.pattern == Pattern::GatherLhsRows;
  int64_t resultDim = gathersLhs ? 0 : 1;
  int64_t s = chunkSize();
  Value off;
  Value c = initBlock(resultDim, size, [&]() -> OpFoldResult {
    off = offset(own, s, extra);
    return off;
  });
  Value other = gathersLhs ? rhs : lhs;
  Value update = gathersLhs ? matmul(piece, other, c) : matmul(other, piece, c);
  hook();
  if (!own)
    own = owner(i, 0, /*left=*/true);
  if (!off)
    off = offset(own, s, extra);
  return insert(update, acc, resultDim, off);
}

} // namespace mlir::spmd::collective_matmul
