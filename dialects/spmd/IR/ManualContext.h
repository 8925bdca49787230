//===- ManualContext.h - Where mesh axes are manual -------------*- C++ -*-===//
//
// Collectives may only name mesh axes that are manual where they appear: in
// the body of a `spmd.shard_map`, or in a device function outlined from one
// (a function carrying `spmd.mesh` and `spmd.manual_axes`).
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_SPMD_IR_MANUALCONTEXT_H
#define DIALECTS_SPMD_IR_MANUALCONTEXT_H

#include "dialects/trellis/IR/TrellisOps.h"

namespace mlir::spmd {

struct ManualContext {
  /// The mesh whose axes are manual.
  trellis::MeshOp mesh;
  /// The manual axes, in mesh order.
  SmallVector<StringAttr> manualAxes;
  /// The op that makes them manual (a shard_map or a device function).
  Operation *owner = nullptr;

  bool isManual(StringAttr axis) const {
    return llvm::is_contained(manualAxes, axis);
  }
  /// Product of the sizes of `axes`.
  int64_t getGroupSize(ArrayRef<StringAttr> axes) {
    return mesh.getAxesSize(axes);
  }
};

/// The manual context of `op`, or std::nullopt when `op` is not inside a
/// manual region (or the region's mesh cannot be found).
std::optional<ManualContext> getManualContext(Operation *op);

/// The axes a device function (one with `spmd.mesh` naming `mesh`) is
/// manual over: its `spmd.manual_axes`, or every axis of `mesh`, in the
/// order listed.
SmallVector<StringAttr> getDeviceFunctionManualAxes(Operation *func,
                                                    trellis::MeshOp mesh);

/// `axes` sorted into mesh order.
SmallVector<StringAttr> sortAxesInMeshOrder(ArrayRef<StringAttr> axes,
                                            trellis::MeshOp mesh);

} // namespace mlir::spmd

#endif // DIALECTS_SPMD_IR_MANUALCONTEXT_H
