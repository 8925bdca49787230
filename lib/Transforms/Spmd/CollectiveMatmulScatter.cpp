//===- CollectiveMatmulScatter.cpp - matmul -> psum_scatter as a ring -----===//
//
// The psum_scatter side of spmd-collective-matmul: instead of scattering
// the summed product, an accumulator per output chunk travels around the
// ring, each device adding its partial product of that chunk.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/CollectiveMatmul.h"

using namespace mlir;

namespace mlir::spmd::collective_matmul {

Value Emitter::emitScatter() {
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
  SmallVector<Value> result =
      loop(1, n, c1, axisSize, {accA, accB}, [&](Value i, ValueRange carried) {
        Value receivedA = ppermute(carried[0], /*left=*/true);
        Value receivedB = ppermute(carried[1], /*left=*/false);
        Value pA = partialRows(owner(i, 1, true), lhsTop, 0);
        Value pB = partialRows(owner(i, 1, false), lhsBottom, h);
        mark(currentStep, 1);
        return SmallVector<Value>{add(receivedA, pA), add(receivedB, pB)};
      });
  return stackRows(result[0], result[1], outType);
}

} // namespace mlir::spmd::collective_matmul
