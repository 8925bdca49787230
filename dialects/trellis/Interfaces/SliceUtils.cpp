//===- SliceUtils.cpp - Bounds of static tensor slices --------------------===//

#include "dialects/trellis/Interfaces/SliceUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace {
/// The tensor a slicing op slices: the source of an extract, the
/// destination of an insert; null for any other op.
RankedTensorType slicedType(Operation *op) {
  return TypeSwitch<Operation *, RankedTensorType>(op)
      .Case([](tensor::ExtractSliceOp slice) { return slice.getSourceType(); })
      .Case<tensor::InsertSliceOp, tensor::ParallelInsertSliceOp>(
          [](auto insert) { return insert.getDestType(); })
      .Default([](Operation *) { return RankedTensorType(); });
}

/// Whether indices offset, offset + stride, ..., offset + (size - 1) *
/// stride all lie in [0, extent).
bool inBounds(int64_t offset, int64_t size, int64_t stride, int64_t extent) {
  if (size == 0)
    return true;
  if (size < 0 || offset < 0 || offset >= extent)
    return false;
  int64_t span, last;
  if (llvm::MulOverflow(size - 1, stride, span) ||
      llvm::AddOverflow(offset, span, last))
    return false;
  return last >= 0 && last < extent;
}
} // namespace

std::optional<int64_t> mlir::trellis::staticSliceOutOfBounds(Operation *op) {
  RankedTensorType type = slicedType(op);
  if (!type)
    return std::nullopt;
  auto iface = cast<OffsetSizeAndStrideOpInterface>(op);
  SmallVector<OpFoldResult> offsets = iface.getMixedOffsets(),
                            sizes = iface.getMixedSizes(),
                            strides = iface.getMixedStrides();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[d]),
                           size = getConstantIntValue(sizes[d]),
                           stride = getConstantIntValue(strides[d]);
    if (!offset || !size || !stride || type.isDynamicDim(d))
      continue;
    if (!inBounds(*offset, *size, *stride, type.getDimSize(d)))
      return d;
  }
  return std::nullopt;
}

LogicalResult mlir::trellis::verifyStaticSliceBounds(Operation *root) {
  bool failed = false;
  root->walk([&](Operation *op) {
    std::optional<int64_t> d = staticSliceOutOfBounds(op);
    if (!d)
      return;
    // The numbers checked: constants, whether written inline or as
    // constant operands.
    auto iface = cast<OffsetSizeAndStrideOpInterface>(op);
    auto at = [&](SmallVector<OpFoldResult> values) {
      return *getConstantIntValue(values[*d]);
    };
    op->emitError() << "dimension " << *d << " of the slice (offset "
                    << at(iface.getMixedOffsets()) << ", size "
                    << at(iface.getMixedSizes()) << ", stride "
                    << at(iface.getMixedStrides())
                    << ") reaches outside the tensor it slices";
    failed = true;
  });
  return failure(failed);
}
