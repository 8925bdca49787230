//===- VarianceAnalysis.h - Which axes each value varies over ---*- C++ -*-===//
//
// The analysis half of spmd-check-variance: for every value in a manual
// region, the set of manual mesh axes it may vary over, computed with MLIR's
// sparse forward data-flow framework (seed 001's rules for collectives, the
// union of operands for everything else, and control dependence through
// every RegionBranchOpInterface op). VarianceInference.cpp rewrites the IR
// from the result.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_TRANSFORMS_SPMD_VARIANCEANALYSIS_H
#define TRELLIS_LIB_TRANSFORMS_SPMD_VARIANCEANALYSIS_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/TrellisOps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::spmd {

/// A set of mesh axes, bit k for the mesh's k-th axis (so iteration order
/// is mesh order). Meshes of more than 64 axes are rejected before.
using AxisMask = uint64_t;

/// Conversions between axis names and masks of one mesh.
class AxisMasks {
public:
  explicit AxisMasks(trellis::MeshOp mesh) : mesh(mesh) {}

  AxisMask maskOf(ArrayRef<StringAttr> axes) const;
  AxisMask maskOf(ArrayAttr axes) const;
  SmallVector<StringAttr> axesOf(AxisMask mask) const;
  /// Every axis of the mesh.
  AxisMask all() const {
    unsigned n = mesh.getNumAxes();
    return n >= 64 ? ~AxisMask(0) : (AxisMask(1) << n) - 1;
  }
  /// `{"a", "b"}` and `["a", "b"]`, for messages.
  std::string format(AxisMask mask) const;
  std::string formatList(AxisMask mask) const;
  /// The variance of an axis query's result: its rule applied to its axes.
  AxisMask queryMask(CollectiveOpInterface query) const;

private:
  mutable trellis::MeshOp mesh;
};

/// `op` when it is a collective typed from its operand (every collective
/// with a variance rule except the axis queries), else null.
CollectiveOpInterface typedCollective(Operation *op);

/// `op` when it is an axis query (a collective without operands, whose
/// result's variance its rule gives from its axes alone), else null.
CollectiveOpInterface axisQuery(Operation *op);

/// Seed 001's rule for collective `op` given operand variance `in`. Sets
/// `lift` to the variance the operand must be lifted to (auto pvary) and
/// returns the result variance; fails with `reason` when no lift helps.
FailureOr<AxisMask> typeCollective(const AxisMasks &masks, Operation *op,
                                   AxisMask in, AxisMask &lift,
                                   std::string &reason);

/// Runs the analysis over `root` (a shard_map or a device function).
/// `manual` is the mask of the axes manual in `root`'s body; `entry` gives
/// the variance of `root`'s body arguments and of the values `root` reads
/// from outside. Returns the variance of every value defined in `root`'s
/// regions (block arguments and results, at any depth).
DenseMap<Value, AxisMask>
analyzeVariance(Operation *root, const AxisMasks &masks, AxisMask manual,
                const DenseMap<Value, AxisMask> &entry);

} // namespace mlir::spmd

#endif // TRELLIS_LIB_TRANSFORMS_SPMD_VARIANCEANALYSIS_H
