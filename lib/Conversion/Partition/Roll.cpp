//===- Roll.cpp - Rotations of a split dimension by ppermute --------------===//
//
// `jnp.roll(x, s, axis=d)` prints as a concatenation of two slices of x
// along d: x[N - s:] then x[:N - s]. Partitioned op by op, both slices need
// d whole, so x is gathered. When the result is wanted split along d over
// the axes the device blocks of x can be split over, each device's block
// of the result is the end of one block of x followed by the start of the
// next: the devices pass those pieces along the ring (one ppermute, or two
// when the shift is not a whole number of blocks) and keep the rest.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

namespace {

/// x and the shift when `concat` is x[N - s:] ++ x[:N - s] along its
/// dimension (static, unit strides, the other dimensions whole).
std::optional<std::pair<Value, int64_t>> matchRoll(tensor::ConcatOp concat) {
  if (concat.getInputs().size() != 2)
    return std::nullopt;
  int64_t dim = concat.getDim();
  auto head = concat.getInputs()[0].getDefiningOp<tensor::ExtractSliceOp>();
  auto tail = concat.getInputs()[1].getDefiningOp<tensor::ExtractSliceOp>();
  if (!head || !tail || head.getSource() != tail.getSource())
    return std::nullopt;
  Value source = head.getSource();
  auto type = cast<RankedTensorType>(source.getType());
  if (!type.hasStaticShape() || concat.getType() != type)
    return std::nullopt;
  const int64_t n = type.getDimSize(dim);
  auto wholeBut = [&](tensor::ExtractSliceOp slice, int64_t offset,
                      int64_t size) {
    if (slice.getType().getRank() != type.getRank() || !slice.hasUnitStride() ||
        slice.getOffsets().size() || slice.getSizes().size() ||
        slice.getStrides().size())
      return false;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t o = slice.getStaticOffsets()[d], s = slice.getStaticSizes()[d];
      if (d == dim ? (o != offset || s != size)
                   : (o != 0 || s != type.getDimSize(d)))
        return false;
    }
    return true;
  };
  int64_t shift = head.getType().getDimSize(dim);
  if (shift <= 0 || shift >= n || !wholeBut(head, n - shift, shift) ||
      !wholeBut(tail, 0, n - shift))
    return std::nullopt;
  return std::make_pair(source, shift);
}

} // namespace

FailureOr<bool> FunctionPartitioner::partitionRoll(tensor::ConcatOp concat) {
  std::optional<std::pair<Value, int64_t>> roll = matchRoll(concat);
  if (!roll)
    return false;
  auto [source, shift] = *roll;
  const int64_t dim = concat.getDim();
  Layout want = desiredLayout(concat.getResult());
  ArrayRef<StringAttr> axes = want.dims[dim];
  auto type = cast<RankedTensorType>(source.getType());
  if (axes.empty() || !want.unreduced.empty() || !resharder.divides(type, want))
    return false;
  const int64_t devices = mesh.getAxesSize(axes);
  const int64_t block = type.getDimSize(dim) / devices;
  // Block i of the result: the last r elements of block i - k - 1 of x,
  // then the first block - r of block i - k.
  const int64_t k = shift / block, r = shift % block;
  Location loc = concat.getLoc();
  Value local = localIn(source, want);
  auto rotate = [&](Value piece, int64_t by) -> Value {
    by %= devices;
    if (by == 0)
      return piece;
    SmallVector<int64_t> pairs;
    for (int64_t i = 0; i < devices; ++i)
      pairs.append({i, (i + by) % devices});
    return resharder.permute(loc, piece, axes, pairs);
  };
  auto slice = [&](int64_t offset, int64_t length) {
    return resharder.sliceAlong(loc, local, dim, b.getIndexAttr(offset),
                                length);
  };
  Value result;
  if (r == 0) {
    result = rotate(local, k);
  } else {
    Value end = rotate(slice(block - r, r), k + 1);
    Value start = rotate(slice(0, block - r), k);
    result = tensor::ConcatOp::create(b, loc, dim, ValueRange{end, start});
  }
  setLocal(concat.getResult(), result, want);
  return true;
}
