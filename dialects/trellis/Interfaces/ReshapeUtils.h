//===- ReshapeUtils.h - Questions about tensor reshapes ---------*- C++ -*-===//
//
// Checks on tensor.expand_shape and tensor.collapse_shape that passes must
// ask before indexing shapes by a reassociation.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_INTERFACES_RESHAPEUTILS_H
#define DIALECTS_TRELLIS_INTERFACES_RESHAPEUTILS_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

namespace mlir::trellis {

/// Whether `groups` lists the dimensions of a tensor of rank `expandedRank`
/// once each, in order, in groups that are not empty; no groups at all
/// (a reshape to or from rank 0) are well formed for any rank. The tensor
/// dialect's verifier checks the indices modulo 2^32, so
/// `[[4294967296, 1], [2]]` reaches passes as if it were `[[0, 1], [2]]`;
/// a pass that indexes a shape by a reassociation asks this first and
/// leaves the op alone otherwise.
bool isWellFormedReassociation(ArrayRef<ReassociationIndices> groups,
                               int64_t expandedRank);

/// isWellFormedReassociation for a tensor.expand_shape or
/// tensor.collapse_shape; false for any other op.
bool hasWellFormedReassociation(Operation *op);

} // namespace mlir::trellis

#endif // DIALECTS_TRELLIS_INTERFACES_RESHAPEUTILS_H
