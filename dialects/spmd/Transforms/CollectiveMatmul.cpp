//===- CollectiveMatmul.cpp - all_gather/psum_scatter into ppermute loops -===//
//
// The collective matmul of seeds 000 and 003: instead of gathering a whole
// operand before a matmul (or reduce-scattering its whole result after it),
// loop over the devices of the group, multiplying one chunk while the next
// travels to the ring neighbour by ppermute.
//
// Conventions used throughout (n devices in the group, `idx` this device's
// index in it, `s` the per-device chunk along the communicated dimension):
//
//  * all_gather, unidirectional: the chunk circulates to the left (device j
//    sends to j - 1), so at step i a device holds the chunk of device
//    (idx + i) mod n (the seed's `update_index`).
//  * all_gather, bidirectional: the first half of every chunk circulates to
//    the left as above, the second half to the right, so at step i the
//    second half comes from device (idx - i) mod n.
//  * psum_scatter, unidirectional: an accumulator circulates to the right
//    (device j sends to j + 1); at step i it holds partial sums of output
//    chunk (idx - i - 1) mod n, to which this device adds its own partial
//    product. After n - 1 transfers device idx holds chunk idx summed over
//    the group. It goes the other way round from the all_gather ring so
//    that an all_gather and a psum_scatter in flight at the same time (the
//    row blocks of a microbatched chain) use opposite directions of each
//    link instead of queueing on the same one.
//  * psum_scatter, bidirectional: the first half of every output chunk
//    travels left, holding chunk (idx + i + 1) mod n at step i; the second
//    half travels right as in the unidirectional ring.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/spmd/Transforms/ArithBuilders.h"
#include "dialects/spmd/Transforms/Passes.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <limits>

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCOLLECTIVEMATMUL
#include "dialects/spmd/Transforms/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// What a match communicates and how the matmul uses it.
enum class Pattern {
  GatherLhsRows,        ///< all_gather of the lhs along dim 0
  GatherLhsContracting, ///< all_gather of the lhs along dim 1
  GatherRhsCols,        ///< all_gather of the rhs along dim 1
  GatherRhsContracting, ///< all_gather of the rhs along dim 0
  ScatterRows,          ///< psum_scatter of the result along dim 0
  ScatterCols,          ///< psum_scatter of the result along dim 1
};

struct Match {
  Pattern pattern;
  linalg::MatmulOp matmul;
  Operation *collective; ///< the all_gather or the psum_scatter
  ArrayAttr axes;
  int64_t groupSize = 0;
};

bool isStatic2D(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 2 && tensor.hasStaticShape();
}

int64_t byteSize(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.getNumElements() *
         trellis::elementBytes(tensor.getElementType());
}

/// A plain 2-D matmul on static shapes with one element type throughout.
bool isPlainMatmul(linalg::MatmulOp matmul) {
  if (matmul.hasUserDefinedMaps() || matmul.getInputs().size() != 2 ||
      matmul.getOutputs().size() != 1 || matmul->getNumResults() != 1)
    return false;
  Type lhs = matmul.getInputs()[0].getType();
  Type rhs = matmul.getInputs()[1].getType();
  Type out = matmul.getOutputs()[0].getType();
  if (!isStatic2D(lhs) || !isStatic2D(rhs) || !isStatic2D(out))
    return false;
  Type element = getElementTypeOrSelf(out);
  if (getElementTypeOrSelf(lhs) != element ||
      getElementTypeOrSelf(rhs) != element)
    return false;
  return isa<FloatType>(element) ||
         (isa<IntegerType>(element) && element.getIntOrFloatBitWidth() > 1);
}

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

RankedTensorType withShape(Type like, ArrayRef<int64_t> shape) {
  auto t = cast<RankedTensorType>(like);
  return RankedTensorType::get(shape, t.getElementType(), t.getEncoding());
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

/// `source[off : off + size]` along `dim` of a 2-D tensor.
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

/// Emits the loop of one match. All values are built at the matmul.
class Emitter {
public:
  Emitter(Match match, bool bidirectional, bool unroll)
      : m(match), b(match.matmul), loc(match.matmul.getLoc()),
        bidirectional(bidirectional), unroll(unroll) {}

  /// Unrolled only: called with a key whenever the emitted code moves on to
  /// another step, before the ops of that step are built. Keys count half
  /// steps: 2 * step for a step's transfer and matmul, 2 * step + 1 for the
  /// add of a received partial sum; the steps of a psum_scatter follow those
  /// of an all_gather (its step 0 is the all_gather's last, n - 1).
  std::function<void(int64_t)> onStep;

  /// Sees every op the emitter builds, except index constants.
  void setListener(OpBuilder::Listener *listener) { b.setListener(listener); }

  /// Builds the replacement and returns the value that replaces the
  /// collective's result (all_gather: the matmul's result).
  Value emit() {
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

private:
  Match m;
  OpBuilder b;
  Location loc;
  bool bidirectional, unroll;
  int64_t n = 0;
  Value axisSize, axisIndex, c0, c1;
  Operation *lastConstant = nullptr;
  llvm::DenseMap<int64_t, Value> constants;
  Value lhs, rhs, init, fillValue;
  RankedTensorType resultType;
  int64_t currentStep = 0;

  /// Moves on to `step` (`half`: the second half of it), for `onStep`.
  void mark(int64_t step, int64_t half = 0) {
    currentStep = step;
    if (!onStep)
      return;
    bool scatters = isa<PsumScatterOp>(m.collective);
    onStep(2 * ((scatters ? n - 1 : 0) + step) + half);
  }

  /// An index constant, created once before everything else the emitter
  /// builds (so loops use constants defined outside them).
  Value index(int64_t v) {
    Value &c = constants[v];
    if (!c) {
      OpBuilder cb(lastConstant->getContext());
      cb.setInsertionPointAfter(lastConstant);
      c = arith::ConstantIndexOp::create(cb, loc, v);
      lastConstant = c.getDefiningOp();
    }
    return c;
  }

  /// (idx + i + k) mod n, or (idx + n - i - k) mod n going right.
  Value owner(Value i, int64_t k, bool left) {
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

  /// owner * chunk (+ extra).
  Value offset(Value owner, int64_t chunk, int64_t extra = 0) {
    Value off = arith::MulIOp::create(b, loc, owner, index(chunk));
    if (extra)
      off = arith::AddIOp::create(b, loc, off, index(extra));
    return off;
  }

  Value slice(Value source, int64_t dim, OpFoldResult off, int64_t size) {
    return sliceAlong(b, loc, source, dim, off, size);
  }

  /// The block of a 2-D `source` at (rowOff, colOff) of the given sizes.
  Value block(Value source, OpFoldResult rowOff, int64_t rows,
              OpFoldResult colOff, int64_t cols) {
    auto type = cast<RankedTensorType>(source.getType());
    SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(
        b, loc, withShape(type, {rows, cols}), source,
        SmallVector<OpFoldResult>{rowOff, colOff},
        SmallVector<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
        strides);
  }

  /// The matmul's init restricted to a block: a fill of the same value, or
  /// a slice of the init.
  Value initBlock2D(OpFoldResult rowOff, int64_t rows, OpFoldResult colOff,
                    int64_t cols) {
    if (fillValue) {
      Value empty = tensor::EmptyOp::create(
          b, loc, SmallVector<int64_t>{rows, cols}, resultType.getElementType(),
          resultType.getEncoding());
      return linalg::FillOp::create(b, loc, fillValue, empty).getResult(0);
    }
    return block(init, rowOff, rows, colOff, cols);
  }

  /// `top` over `bottom`, a tensor of `type`.
  Value stackRows(Value top, Value bottom, RankedTensorType type) {
    Value empty = tensor::EmptyOp::create(
        b, loc, type.getShape(), type.getElementType(), type.getEncoding());
    int64_t h = cast<RankedTensorType>(top.getType()).getDimSize(0);
    Value joined = insert(top, empty, 0, b.getIndexAttr(0));
    return insert(bottom, joined, 0, b.getIndexAttr(h));
  }

  Value insert(Value piece, Value into, int64_t dim, OpFoldResult off) {
    return insertAlong(b, loc, piece, into, dim, off);
  }

  /// The matmul's init restricted to a block of the result: a fill of the
  /// same value when the init is a fill, otherwise a slice of it. `off` is
  /// only evaluated (built) for the slice.
  Value initBlock(int64_t dim, int64_t size,
                  llvm::function_ref<OpFoldResult()> off) {
    SmallVector<int64_t> shape(resultType.getShape());
    shape[dim] = size;
    RankedTensorType type = withShape(resultType, shape);
    if (fillValue) {
      Value empty = tensor::EmptyOp::create(
          b, loc, shape, type.getElementType(), type.getEncoding());
      return linalg::FillOp::create(b, loc, fillValue, empty).getResult(0);
    }
    return slice(init, dim, off(), size);
  }

  Value matmul(Value a, Value bb, Value c) {
    return buildMatmul(b, loc, a, bb, c);
  }

  Value ppermute(Value v, bool left) {
    return PpermuteOp::create(b, loc, v.getType(), v, m.axes,
                              shiftPairs(b, n, left));
  }

  Value add(Value x, Value y) { return buildAdd(b, loc, x, y); }

  /// Runs `body(i, carried) -> next carried` for i in [lo, hi): as an
  /// scf.for, or unrolled.
  SmallVector<Value>
  loop(int64_t lo, int64_t hi, Value loVal, Value hiVal,
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
      blockBody->getTerminator()->erase();
    b.setInsertionPointToEnd(blockBody);
    SmallVector<Value> next =
        body(forOp.getInductionVar(), blockBody->getArguments().drop_front());
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(forOp.getResults());
  }

  //===--------------------------------------------------------------------===//
  // all_gather -> matmul
  //===--------------------------------------------------------------------===//

  Value emitGather() {
    auto gather = cast<AllGatherOp>(m.collective);
    Value chunk = gather.getOperand();
    int64_t s = chunkSize();
    bool bidir = bidirectional && chunkRows() % 2 == 0;
    bool contracting = m.pattern == Pattern::GatherLhsContracting ||
                       m.pattern == Pattern::GatherRhsContracting;

    // One piece of a chunk (the whole chunk or a half): multiply it, call
    // `hook` (which sends pieces on), and place or accumulate the product.
    auto compute = [&](Value acc, Value piece, Value i, Value own,
                       int64_t extra, int64_t size,
                       llvm::function_ref<void()> hook) {
      if (contracting)
        return computeContracting(acc, piece, own, extra, size, hook);
      return computeNonContracting(acc, piece, i, own, extra, size, hook);
    };

    // The loop runs to n - 1 (seed 000's `axis_size - 1`); unrolled, the
    // steps use constants.
    Value last = unroll ? index(n - 1)
                        : Value(arith::SubIOp::create(b, loc, axisSize, c1));
    Value lastIndex = last;
    if (!bidir) {
      // The seed's loop: n - 1 steps that send the chunk on, then the last.
      auto body = [&](Value i, ValueRange carried, bool send) {
        Value acc = carried[0], piece = carried[1];
        Value next;
        // Like the seed, a placement offset is computed after the send
        // unless the init block needs it first.
        Value own;
        if (contracting || !fillValue)
          own = owner(i, 0, /*left=*/true);
        acc = compute(acc, piece, i, own, 0, s, [&] {
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
      acc = compute(acc, a, i, ownA, 0, h, [] {});
      acc = compute(acc, bb, i, ownB, h, h,
                    [&] { sendHalves(a, bb, send, nextA, nextB); });
      return SmallVector<Value>{acc, nextA, nextB};
    };
    SmallVector<Value> carried =
        loop(0, n - 1, c0, last, {init, first, second},
             [&](Value i, ValueRange c) { return body(i, c, true); });
    mark(n - 1);
    return body(lastIndex, carried, false)[0];
  }

  /// Rows of the gathered operand's per-device chunk.
  int64_t chunkRows() {
    return cast<RankedTensorType>(
               cast<AllGatherOp>(m.collective).getOperand().getType())
        .getDimSize(0);
  }

  /// The gathered operand's per-device size along the gathered dimension.
  int64_t chunkSize() {
    auto gather = cast<AllGatherOp>(m.collective);
    return cast<RankedTensorType>(gather.getOperand().getType())
        .getDimSize(gather.getDim());
  }

  /// A contracting chunk piece: the matching rows (columns) of the other
  /// operand, a matmul accumulating into `acc`, then `hook`.
  Value computeContracting(Value acc, Value piece, Value own, int64_t extra,
                           int64_t size, llvm::function_ref<void()> hook) {
    bool gathersLhs = m.pattern == Pattern::GatherLhsContracting;
    Value off = offset(own, chunkSize(), extra);
    Value other =
        gathersLhs ? slice(rhs, 0, off, size) : slice(lhs, 1, off, size);
    Value result =
        gathersLhs ? matmul(piece, other, acc) : matmul(other, piece, acc);
    hook();
    return result;
  }

  /// A non-contracting chunk piece: init block, matmul, `hook` (the
  /// send), then the placement. `own` is the owner when already computed
  /// (null: computed after the hook, the seed's order; unidirectional
  /// only).
  Value computeNonContracting(Value acc, Value piece, Value i, Value own,
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
    Value update =
        gathersLhs ? matmul(piece, other, c) : matmul(other, piece, c);
    hook();
    if (!own)
      own = owner(i, 0, /*left=*/true);
    if (!off)
      off = offset(own, s, extra);
    return insert(update, acc, resultDim, off);
  }

  //===--------------------------------------------------------------------===//
  // matmul -> psum_scatter
  //===--------------------------------------------------------------------===//

  Value emitScatter() {
    auto scatter = cast<PsumScatterOp>(m.collective);
    int64_t dim = scatter.getDim();
    auto outType = cast<RankedTensorType>(scatter.getType());
    int64_t s = outType.getDimSize(dim);
    // Halves split the rows of each output chunk.
    bool bidir = bidirectional && outType.getDimSize(0) % 2 == 0;

    // This device's partial product for `size` rows/columns of the result
    // starting at owner * s + extra.
    auto partial = [&](Value owner, int64_t extra, int64_t size) {
      Value off = offset(owner, s, extra);
      Value c = initBlock(dim, size, [&]() -> OpFoldResult { return off; });
      if (dim == 0)
        return matmul(slice(lhs, 0, off, size), rhs, c);
      return matmul(lhs, slice(rhs, 1, off, size), c);
    };

    if (!bidir) {
      // Step 0 starts the accumulator of chunk (idx - 1) mod n; each later
      // step receives the accumulator from the left and adds its partial.
      // (Opposite to the all_gather ring, see the file comment.)
      Value acc = partial(owner(c0, 1, /*left=*/false), 0, s);
      SmallVector<Value> result =
          loop(1, n, c1, axisSize, {acc}, [&](Value i, ValueRange carried) {
            Value received = ppermute(carried[0], /*left=*/false);
            Value p = partial(owner(i, 1, false), 0, s);
            mark(currentStep, 1);
            return SmallVector<Value>{add(received, p)};
          });
      return result[0];
    }

    if (dim == 0) {
      // Halves of each output chunk's rows travel in opposite directions.
      int64_t h = s / 2;
      Value accA = partial(owner(c0, 1, /*left=*/true), 0, h);
      Value accB = partial(owner(c0, 1, /*left=*/false), h, h);
      SmallVector<Value> result = loop(
          1, n, c1, axisSize, {accA, accB}, [&](Value i, ValueRange carried) {
            Value receivedA = ppermute(carried[0], /*left=*/true);
            Value receivedB = ppermute(carried[1], /*left=*/false);
            Value pA = partial(owner(i, 1, true), 0, h);
            Value pB = partial(owner(i, 1, false), h, h);
            mark(currentStep, 1);
            return SmallVector<Value>{add(receivedA, pA), add(receivedB, pB)};
          });
      return stackRows(result[0], result[1], outType);
    }
    // Scattered columns: the halves are the top and bottom rows of each
    // output chunk (contiguous), from the matching rows of the lhs.
    int64_t h = outType.getDimSize(0) / 2;
    Value lhsTop = slice(lhs, 0, b.getIndexAttr(0), h);
    Value lhsBottom = slice(lhs, 0, b.getIndexAttr(h), h);
    auto partialRows = [&](Value owner, Value l, int64_t rowOff) {
      Value off = offset(owner, s);
      Value c = initBlock2D(b.getIndexAttr(rowOff), h, off, s);
      return matmul(l, slice(rhs, 1, off, s), c);
    };
    Value accA = partialRows(owner(c0, 1, /*left=*/true), lhsTop, 0);
    Value accB = partialRows(owner(c0, 1, /*left=*/false), lhsBottom, h);
    SmallVector<Value> result = loop(
        1, n, c1, axisSize, {accA, accB}, [&](Value i, ValueRange carried) {
          Value receivedA = ppermute(carried[0], /*left=*/true);
          Value receivedB = ppermute(carried[1], /*left=*/false);
          Value pA = partialRows(owner(i, 1, true), lhsTop, 0);
          Value pB = partialRows(owner(i, 1, false), lhsBottom, h);
          mark(currentStep, 1);
          return SmallVector<Value>{add(receivedA, pA), add(receivedB, pB)};
        });
    return stackRows(result[0], result[1], outType);
  }
};

//===----------------------------------------------------------------------===//
// Microbatching: seed 003's FFN chain split into row blocks
//===----------------------------------------------------------------------===//

/// all_gather (lhs, contracting dimension) -> matmul -> elementwise
/// generics -> matmul (as lhs) -> psum_scatter (columns), in one block and
/// one group, each value used once. Every op maps rows to the same rows.
struct Chain {
  AllGatherOp gather;
  linalg::MatmulOp up;
  SmallVector<linalg::GenericOp> middle; ///< in program order
  linalg::MatmulOp down;
  PsumScatterOp scatter;
};

/// An elementwise generic on static 2-D tensors with one input: identity
/// maps, parallel loops, no linalg.index, and no tensor from outside read in
/// its body (a row block would see the whole tensor, or the block in its
/// place).
bool isRowwiseElementwise(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic->getNumResults() != 1 ||
      !isStatic2D(generic->getResult(0).getType()) ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  if (!llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(generic.getRegion(), captured);
  if (llvm::any_of(captured,
                   [](Value v) { return isa<ShapedType>(v.getType()); }))
    return false;
  return !generic.getRegion()
              .walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

std::optional<Chain> matchChain(PsumScatterOp scatter) {
  Chain chain;
  chain.scatter = scatter;
  Block *block = scatter->getBlock();
  if (!scatter.getTiled() || scatter.getDim() != 1 ||
      !isStatic2D(scatter.getType()) || scatter.getGroupSize() <= 1 ||
      !getManualContext(scatter))
    return std::nullopt;
  chain.down = scatter.getOperand().getDefiningOp<linalg::MatmulOp>();
  if (!chain.down || !isPlainMatmul(chain.down) ||
      chain.down->getBlock() != block || !chain.down->getResult(0).hasOneUse())
    return std::nullopt;
  Value value = chain.down.getInputs()[0];
  while (auto generic = value.getDefiningOp<linalg::GenericOp>()) {
    if (!value.hasOneUse() || generic->getBlock() != block ||
        !isRowwiseElementwise(generic))
      return std::nullopt;
    chain.middle.insert(chain.middle.begin(), generic);
    value = generic.getDpsInputOperand(0)->get();
  }
  chain.up = value.getDefiningOp<linalg::MatmulOp>();
  if (!chain.up || !value.hasOneUse() || !isPlainMatmul(chain.up) ||
      chain.up->getBlock() != block)
    return std::nullopt;
  chain.gather = chain.up.getInputs()[0].getDefiningOp<AllGatherOp>();
  if (!chain.gather || !chain.gather.getTiled() || chain.gather.getDim() != 1 ||
      !chain.gather->hasOneUse() || chain.gather->getBlock() != block ||
      !isStatic2D(chain.gather.getOperand().getType()) ||
      chain.gather.getAxes() != scatter.getAxes())
    return std::nullopt;
  return chain;
}

/// Splits a chain into `k` blocks of rows, each a chain of its own on a
/// row slice of the gathered operand, built before the chain's second
/// matmul; their psum_scatter results are stacked into the chain's result.
/// Returns each block's two matmuls. Every op built is tagged by `tagger`
/// as the caller sets it (`setKey(block, local key)`).
class ChainSplitter {
public:
  ChainSplitter(Chain &chain, OpBuilder &b,
                llvm::function_ref<void(int64_t, int64_t)> setKey)
      : chain(chain), b(b), loc(chain.up.getLoc()), setKey(setKey) {}

  SmallVector<std::pair<linalg::MatmulOp, linalg::MatmulOp>>
  split(int64_t k, int64_t middleKey) {
    auto result = cast<RankedTensorType>(chain.scatter.getType());
    int64_t rows = result.getDimSize(0) / k;
    SmallVector<std::pair<linalg::MatmulOp, linalg::MatmulOp>> blocks;
    SmallVector<Value> pieces;
    for (int64_t blk = 0; blk < k; ++blk) {
      setKey(blk, 0);
      OpFoldResult off = b.getIndexAttr(blk * rows);
      Value x = rowSlice(chain.gather.getOperand(), off, rows);
      if (!first)
        first = x.getDefiningOp();
      IRMapping map;
      map.map(chain.gather.getOperand(), x);
      Value gathered = cloneWithRows(chain.gather, map, rows);
      Value up = buildMatmul(b, loc, gathered, chain.up.getInputs()[1],
                             rowInit(chain.up.getOutputs()[0], off, rows));
      setKey(blk, middleKey);
      Value value = up;
      for (linalg::GenericOp generic : chain.middle) {
        map.map(generic.getDpsInputOperand(0)->get(), value);
        map.map(generic.getDpsInitOperand(0)->get(),
                rowInit(generic.getDpsInitOperand(0)->get(), off, rows));
        value = cloneWithRows(generic, map, rows);
      }
      Value down = buildMatmul(b, loc, value, chain.down.getInputs()[1],
                               rowInit(chain.down.getOutputs()[0], off, rows));
      map.map(chain.down->getResult(0), down);
      pieces.push_back(cloneWithRows(chain.scatter, map, rows));
      blocks.push_back({up.getDefiningOp<linalg::MatmulOp>(),
                        down.getDefiningOp<linalg::MatmulOp>()});
    }
    setKey(k, std::numeric_limits<int64_t>::max() / 2);
    Value stacked =
        tensor::EmptyOp::create(b, loc, result.getShape(),
                                result.getElementType(), result.getEncoding());
    for (auto [blk, piece] : llvm::enumerate(pieces))
      stacked = insertAlong(b, loc, piece, stacked, 0,
                            b.getIndexAttr(static_cast<int64_t>(blk) * rows));
    last = stacked.getDefiningOp();
    chain.scatter.getResult().replaceAllUsesWith(stacked);
    chain.scatter->erase();
    chain.down->erase();
    for (linalg::GenericOp generic : llvm::reverse(chain.middle))
      generic->erase();
    chain.up->erase();
    chain.gather->erase();
    return blocks;
  }

  /// The first and the last op built (the range the blocks' ops stay in).
  Operation *first = nullptr, *last = nullptr;

private:
  Chain &chain;
  OpBuilder &b;
  Location loc;
  llvm::function_ref<void(int64_t, int64_t)> setKey;

  static RankedTensorType withRows(Type type, int64_t rows) {
    return withShape(type, {rows, cast<RankedTensorType>(type).getDimSize(1)});
  }

  Value rowSlice(Value source, OpFoldResult off, int64_t rows) {
    return sliceAlong(b, loc, source, 0, off, rows);
  }

  /// The rows of an init: a new empty tensor or fill for those, else a
  /// slice.
  Value rowInit(Value init, OpFoldResult off, int64_t rows) {
    RankedTensorType type = withRows(init.getType(), rows);
    if (init.getDefiningOp<tensor::EmptyOp>() ||
        init.getDefiningOp<linalg::FillOp>()) {
      Value empty = tensor::EmptyOp::create(
          b, loc, type.getShape(), type.getElementType(), type.getEncoding());
      if (auto fill = init.getDefiningOp<linalg::FillOp>())
        return linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
            .getResult(0);
      return empty;
    }
    return rowSlice(init, off, rows);
  }

  Value cloneWithRows(Operation *op, IRMapping &map, int64_t rows) {
    Operation *clone = b.clone(*op, map);
    Value result = clone->getResult(0);
    result.setType(withRows(result.getType(), rows));
    return result;
  }
};

/// Records, for every op built, the key and block it was built for.
struct StepTagger : OpBuilder::Listener {
  struct Tag {
    int64_t key, block;
  };
  llvm::DenseMap<Operation *, Tag> tags;
  Tag current{0, 0};
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    tags[op] = current;
  }
};

/// Reorders the ops of `block` from `first` to `last` (inclusive) by key,
/// then by block, later blocks first (so a block's all-gather step comes
/// before the earlier block's step of the same key), then by their order.
/// An op's key is at least that of every op of the range it uses, so the
/// order stays a valid one; untagged ops (constants) go first.
void reorderByKey(Operation *first, Operation *last, StepTagger &tagger) {
  struct Entry {
    Operation *op;
    int64_t key, block;
    size_t order;
  };
  SmallVector<Entry> entries;
  llvm::DenseMap<Operation *, size_t> position;
  Operation *anchor = last->getNextNode();
  for (Operation *op = first; op != anchor; op = op->getNextNode()) {
    Entry entry{op, -1, -1, entries.size()};
    if (auto it = tagger.tags.find(op); it != tagger.tags.end()) {
      entry.key = it->second.key;
      entry.block = it->second.block;
    }
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def)
          continue;
        auto it = position.find(def);
        if (it == position.end())
          continue;
        const Entry &from = entries[it->second];
        if (from.key > entry.key) {
          entry.key = from.key;
          entry.block = from.block;
        }
      }
    });
    position[op] = entries.size();
    entries.push_back(entry);
  }
  llvm::sort(entries, [](const Entry &a, const Entry &b) {
    if (a.key != b.key)
      return a.key < b.key;
    if (a.block != b.block)
      return a.block > b.block;
    return a.order < b.order;
  });
  for (const Entry &entry : entries)
    entry.op->moveBefore(anchor);
}

struct CollectiveMatmulPass
    : spmd::impl::SpmdCollectiveMatmulBase<CollectiveMatmulPass> {
  using SpmdCollectiveMatmulBase::SpmdCollectiveMatmulBase;

  /// The match rooted at `matmul`, if any (size threshold aside).
  std::optional<Match> matchAt(linalg::MatmulOp matmul) {
    if (!isPlainMatmul(matmul) || !getManualContext(matmul))
      return std::nullopt;
    // all_gather -> matmul: the gathered value feeds only this matmul.
    for (int operand = 0; operand < 2; ++operand) {
      auto gather = matmul.getInputs()[operand].getDefiningOp<AllGatherOp>();
      if (!gather || !gather.getTiled() || !gather->hasOneUse() ||
          gather->getBlock() != matmul->getBlock() ||
          !isStatic2D(gather.getOperand().getType()))
        continue;
      int64_t n = gather.getGroupSize();
      if (n <= 1)
        continue;
      int64_t dim = gather.getDim();
      Pattern pattern = operand == 0
                            ? (dim == 0 ? Pattern::GatherLhsRows
                                        : Pattern::GatherLhsContracting)
                            : (dim == 1 ? Pattern::GatherRhsCols
                                        : Pattern::GatherRhsContracting);
      return Match{pattern, matmul, gather, gather.getAxes(), n};
    }
    // matmul -> psum_scatter: the product only feeds the scatter.
    Value result = matmul->getResult(0);
    if (!result.hasOneUse())
      return std::nullopt;
    auto scatter = dyn_cast<PsumScatterOp>(*result.getUsers().begin());
    if (!scatter || !scatter.getTiled() ||
        scatter->getBlock() != matmul->getBlock() ||
        !isStatic2D(scatter.getType()))
      return std::nullopt;
    int64_t n = scatter.getGroupSize();
    if (n <= 1)
      return std::nullopt;
    return Match{scatter.getDim() == 0 ? Pattern::ScatterRows
                                       : Pattern::ScatterCols,
                 matmul, scatter, scatter.getAxes(), n};
  }

  /// Replaces the match's collective and matmul by the emitted loop.
  void rewrite(Match &match, bool unrollSteps, StepTagger *tagger = nullptr,
               std::function<void(int64_t)> onStep = nullptr) {
    Emitter emitter(match, bidirectional, unrollSteps);
    if (tagger)
      emitter.setListener(tagger);
    emitter.onStep = std::move(onStep);
    Value replacement = emitter.emit();
    if (tagger) {
      // The tags must not outlive the ops: a later op at the same address
      // would inherit one.
      tagger->tags.erase(match.matmul);
      tagger->tags.erase(match.collective);
    }
    if (isa<AllGatherOp>(match.collective)) {
      match.matmul->getResult(0).replaceAllUsesWith(replacement);
      match.matmul->erase();
      match.collective->erase();
    } else {
      match.collective->getResult(0).replaceAllUsesWith(replacement);
      match.collective->erase();
      match.matmul->erase();
    }
  }

  /// Splits `chain` into `microbatches` row blocks, rewrites each block's
  /// two matmuls unrolled and interleaves the blocks' steps.
  void microbatch(Chain &chain) {
    int64_t n = chain.scatter.getGroupSize();
    int64_t k = microbatches;
    // Block b + 1's all-gather step i runs with block b's step n - 2 + i
    // (keys count half steps): two all-gather steps of the next block are
    // on their way before a block's middle.
    int64_t skew = 2 * std::max<int64_t>(1, n - 2);
    StepTagger tagger;
    auto setKey = [&](int64_t blk, int64_t local) {
      tagger.current = {blk * skew + local, blk};
    };
    OpBuilder b(chain.down);
    b.setListener(&tagger);
    ChainSplitter splitter(chain, b, setKey);
    auto blocks = splitter.split(k, /*middleKey=*/2 * (n - 1));
    for (auto [blk, matmuls] : llvm::enumerate(blocks)) {
      int64_t index = static_cast<int64_t>(blk);
      for (linalg::MatmulOp matmul : {matmuls.first, matmuls.second}) {
        std::optional<Match> match = matchAt(matmul);
        assert(match && "a split chain's matmuls match");
        rewrite(*match, /*unrollSteps=*/true, &tagger,
                [&, index](int64_t local) { setKey(index, local); });
      }
    }
    reorderByKey(splitter.first, splitter.last, tagger);
  }

  void runOnOperation() override {
    if (microbatches < 1) {
      getOperation()->emitError()
          << "spmd-collective-matmul: microbatches must be at least 1, got "
          << static_cast<int64_t>(microbatches);
      return signalPassFailure();
    }
    if (microbatches > 1) {
      SmallVector<PsumScatterOp> scatters;
      getOperation()->walk(
          [&](PsumScatterOp scatter) { scatters.push_back(scatter); });
      for (PsumScatterOp scatter : scatters) {
        std::optional<Chain> chain = matchChain(scatter);
        int64_t rows = cast<RankedTensorType>(scatter.getType()).getDimSize(0);
        if (!chain || rows < microbatches || rows % microbatches != 0)
          continue;
        if (!force &&
            (byteSize(chain->gather.getType()) < thresholdBytes ||
             byteSize(chain->down->getResultTypes()[0]) < thresholdBytes))
          continue;
        microbatch(*chain);
      }
    }
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation()->walk(
        [&](linalg::MatmulOp matmul) { matmuls.push_back(matmul); });
    for (linalg::MatmulOp matmul : matmuls) {
      std::optional<Match> match = matchAt(matmul);
      if (!match)
        continue;
      bool gathers = isa<AllGatherOp>(match->collective);
      int64_t bytes = gathers ? byteSize(match->collective->getResultTypes()[0])
                              : byteSize(matmul->getResultTypes()[0]);
      if (!force && bytes < thresholdBytes)
        continue;
      rewrite(*match, unroll);
    }
  }
};

} // namespace
