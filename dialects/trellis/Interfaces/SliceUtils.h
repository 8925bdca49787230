//===- SliceUtils.h - Bounds of static tensor slices ------------*- C++ -*-===//
//
// The tensor dialect's verifiers compute a static slice's last index,
// offset + (size - 1) * stride, in wrapping 64-bit arithmetic, so
// `tensor.extract_slice %x[40] [4] [9223372036854775807]` of 64 elements
// verifies and reads outside %x when run. Passes that index by a slice's
// numbers, and the executor before it compiles a program, ask these
// first.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_INTERFACES_SLICEUTILS_H
#define DIALECTS_TRELLIS_INTERFACES_SLICEUTILS_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::trellis {

/// The first dimension along which `op` (tensor.extract_slice,
/// insert_slice or parallel_insert_slice) reaches outside the tensor it
/// slices, computed without wrapping; none when every dimension whose
/// offset, size, stride and extent are static stays inside (dynamic ones
/// are the program's to keep in bounds), or for any other op.
std::optional<int64_t> staticSliceOutOfBounds(Operation *op);

/// Emits an error at every slice under `root` (included) that
/// staticSliceOutOfBounds finds outside its tensor; fails if there is one.
LogicalResult verifyStaticSliceBounds(Operation *root);

} // namespace mlir::trellis

#endif // DIALECTS_TRELLIS_INTERFACES_SLICEUTILS_H
