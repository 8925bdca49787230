//===- VarianceInference.h - Device-variance types (seed 001) ---*- C++ -*-===//
//
// Infers, for every value in a manual region, the manual mesh axes it may
// vary over, annotates ranked tensor types with `#spmd.vary<[...]>`, inserts
// `spmd.pvary` where operands disagree, and checks unmapped out_specs.
// Used by `spmd-check-variance` and by `spmd-transpose` (which types its
// input and re-types its output with it).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_TRANSFORMS_SPMD_VARIANCEINFERENCE_H
#define TRELLIS_TRANSFORMS_SPMD_VARIANCEINFERENCE_H

#include "dialects/spmd/IR/SpmdOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::spmd {

struct VarianceOptions {
  /// Insert `spmd.pvary` where an operand is invariant over axes the op
  /// needs it to vary over. When false, each such place is an error (the
  /// seed's explicit mode).
  bool insertPvary = true;
};

/// Types the body of `op`, a shard_map that is not inside another manual
/// region. Emits located errors and fails on ill-typed bodies.
LogicalResult inferVariance(ShardMapOp op, const VarianceOptions &options);

/// Types the body of a device function (one carrying `spmd.mesh`). Its
/// arguments vary over the axes of their `#spmd.vary` encoding, or over every
/// manual axis when they have none; its result types are updated.
LogicalResult inferVariance(FunctionOpInterface func,
                            const VarianceOptions &options);

/// Types every device function and every outermost shard_map under `root`.
LogicalResult inferVarianceIn(Operation *root, const VarianceOptions &options);

/// `type` with its `#spmd.vary` encoding replaced by `axes` (a ranked
/// tensor without another encoding); other types are returned unchanged.
Type withVariance(Type type, ArrayRef<StringAttr> axes);

} // namespace mlir::spmd

#endif // TRELLIS_TRANSFORMS_SPMD_VARIANCEINFERENCE_H
