//===- Collectives.h - Replica groups back to mesh axes ---------*- C++ -*-===//

#ifndef TRELLIS_LIB_IMPORT_COLLECTIVES_H
#define TRELLIS_LIB_IMPORT_COLLECTIVES_H

#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::trellis {

/// Decodes `groups` (a [G, S] list of partition ids, i.e. row-major mesh
/// positions) into the mesh axes each group spans, ordered so that the
/// i-th member of every group is the i-th device of the group in row-major
/// order over those axes (Trellis's group order). Emits an error at `op`
/// and fails when the groups are not all the groups of a set of axes, or
/// when an axis is not in `allowed`.
FailureOr<SmallVector<StringAttr>>
decodeReplicaGroups(Operation *op, MeshOp mesh, ArrayRef<StringAttr> allowed,
                    DenseIntElementsAttr groups);

/// Decodes `pairs` (an [N, 2] list of source and target partition ids) into
/// the axes they move along (mesh order) and (source, target) pairs of
/// group indices that are the same in every group. Emits an error at `op`
/// and fails otherwise.
FailureOr<std::pair<SmallVector<StringAttr>, SmallVector<int64_t>>>
decodeSourceTargetPairs(Operation *op, MeshOp mesh,
                        ArrayRef<StringAttr> allowed,
                        DenseIntElementsAttr pairs);

} // namespace mlir::trellis

#endif // TRELLIS_LIB_IMPORT_COLLECTIVES_H
