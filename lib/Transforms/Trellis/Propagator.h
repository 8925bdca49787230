//===- Propagator.h - trellis-propagate's state ----------------*- C++ -*-===//
//
// Private to trellis-propagate (Propagate.cpp, which says what the pass
// does): the per-value state and the Propagator, whose work is split by
// job: seeding and the priority rounds (PropagateRounds.cpp), sharding
// rules to a fixed point (PropagateRules.cpp), the ops with regions,
// shard_maps, axis regions and barriers (PropagateRegions.cpp), and what
// it writes back (Propagate.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_TRANSFORMS_TRELLIS_PROPAGATOR_H
#define TRELLIS_LIB_TRANSFORMS_TRELLIS_PROPAGATOR_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <set>

namespace mlir::trellis::propagation {

/// Where a dimension's axes came from, for `explain`: a source (an index
/// into Propagator::sources), how many ops they crossed, and the last.
struct Origin {
  int source = -1;
  int64_t hops = 0;
  Operation *via = nullptr;
};

struct DimState {
  SmallVector<StringAttr> axes;
  bool closed = false;
  Origin origin;
};

struct ValueState {
  SmallVector<DimState> dims;
  bool user = false;  ///< the user gave this sharding
  bool fixed = false; ///< nothing may change it
  int64_t elements = 0;
  /// Whether a dimension is split over `axis` or a part of it that
  /// shares devices with it (SubAxes.h).
  bool uses(StringAttr axis, MeshOp mesh) const {
    for (const DimState &d : dims)
      for (StringAttr used : d.axes)
        if (mesh.axesOverlap(used.getValue(), axis.getValue()))
          return true;
    return false;
  }
};

class Propagator {
public:
  Propagator(func::FuncOp func, MeshOp mesh, bool conservative, bool explain)
      : func(func), mesh(mesh), conservative(conservative), explain(explain) {}

  LogicalResult run();

private:
  Value leader(Value v) { return ties.getOrInsertLeaderValue(v); }
  /// `explain`: the origin of each dimension of `v`, in words.
  StringAttr originOf(Value v);
  ValueState *state(Value v) {
    auto it = states.find(leader(v));
    return it == states.end() ? nullptr : &it->second;
  }
  /// Seeds `v` from `sharding` (`source` names it for `explain`). A
  /// user attribute (`byPriority`) seeds in priority rounds only the
  /// dimensions of the round's priority; types and specs seed whole.
  void seed(Value v, ShardingAttr sharding, bool user, bool fixed,
            const Twine &source, bool byPriority = false);
  /// The index of `text` in `sources`.
  int sourceId(const Twine &text) {
    sources.push_back(text.str());
    return static_cast<int>(sources.size()) - 1;
  }
  /// `explain`: a dimension's origin in words.
  std::string describe(const DimState &dim);
  /// Seeds the user's shardings (of this priority round) and, in the first
  /// round, types and shard_map boundaries.
  void seedSources(bool firstRound);
  /// The user's priorities, ascending, then -1 (none) for the last round;
  /// empty when no sharding has a priority.
  SmallVector<int64_t> priorityRounds();
  /// Propagates to a fixed point.
  LogicalResult fixedPoint();
  void collect(Region &region);
  bool propagate(Operation *op, const ShardingRule &rule);
  bool propagateBoundary(spmd::ShardMapOp map);
  bool propagateAxisRegion(Operation *op);
  bool propagateBarrier(PropagationBarrierOp barrier);
  /// Appends `axes` past `dim`'s current ones where they fit; `from` (the
  /// dimension they came from, across `via`) becomes its origin.
  bool extend(Value v, int64_t dim, ArrayRef<StringAttr> axes,
              const Origin &from, Operation *via);
  ShardingAttr shardingOf(Value v);
  void writeBack();

  func::FuncOp func;
  MeshOp mesh;
  bool conservative;
  /// Write `trellis.sharding_origin` beside every sharding.
  bool explain;
  /// The sources dimensions' origins name ("argument #0", ...).
  std::vector<std::string> sources;
  llvm::EquivalenceClasses<Value> ties;
  /// The priority whose user shardings seed now (-1: those without one);
  /// none when no sharding has a priority (one round seeds everything).
  std::optional<int64_t> priorityRound;
  DenseMap<Value, ValueState> states;
  /// Ops with rules, in program order.
  std::vector<std::pair<Operation *, ShardingRule>> ruleOps;
  /// Partially-manual shard_maps, whose bodies are propagated too.
  SmallVector<spmd::ShardMapOp> partialMaps;
  /// auto_axes and explicit_axes ops: the same arrays on both sides.
  SmallVector<Operation *> axisRegions;
  /// Propagation barriers: one way, or no way.
  SmallVector<PropagationBarrierOp> barriers;
  /// Sharding groups by id, in program order: values that share one
  /// sharding (tied once their shapes are checked).
  std::map<int64_t, SmallVector<ShardingGroupOp>> groups;
  SmallVector<Value> values;
  /// Mesh axes that must not be split into sub-axes, or none may be.
  llvm::StringSet<> unsplittable;
  bool noSubAxes = false;
  /// Per mesh axis, the pre-sizes at which sub-axes in use start or end.
  DenseMap<unsigned, std::set<int64_t>> cuts;
  /// Whether the sub-axes in `axes` cut their axes where the cuts made so
  /// far nest with (each of two divides the other); records them if so.
  bool nestsCuts(ArrayRef<SmallVector<StringAttr>> axes) {
    SmallVector<std::pair<unsigned, int64_t>> made;
    for (const SmallVector<StringAttr> &list : axes)
      for (StringAttr axis : list) {
        std::optional<AxisPart> part = mesh.resolveAxis(axis.getValue());
        if (!part || mesh.getAxisIndex(axis.getValue()))
          continue;
        made.push_back({part->index, part->preSize});
        made.push_back({part->index, part->preSize * part->size});
      }
    for (auto [index, cut] : made)
      for (int64_t other : cuts[index])
        if (cut % other != 0 && other % cut != 0)
          return false;
    for (auto [index, cut] : made)
      cuts[index].insert(cut);
    return true;
  }
  /// Whether the split of a dimension's axes over factors `axes` may use
  /// the sub-axes it holds.
  bool mayUseSubAxes(ArrayRef<SmallVector<StringAttr>> axes) {
    for (const SmallVector<StringAttr> &list : axes)
      for (StringAttr axis : list)
        if (std::optional<SubAxisName> sub = parseSubAxisName(axis.getValue()))
          if (!mesh.getAxisIndex(axis.getValue()) &&
              (noSubAxes || unsplittable.contains(sub->axis)))
            return false;
    return nestsCuts(axes);
  }
  /// Extents the user split unevenly (the size and the axes): propagation
  /// splits another dimension of that size over those axes too, and no
  /// other dimension unevenly (padding costs a mask per reduction).
  std::set<std::pair<int64_t, SmallVector<StringRef>>> unevenExtents;
  /// Whether a window of a factor of size `extent` and `stride` into an
  /// unpadded dimension of `source` elements can be split unevenly into
  /// `parts` (each device's window then starts in its own block of the
  /// source: a shifted slice x[1:] of 16 elements in 4 parts).
  static bool windowFits(int64_t source, int64_t extent, int64_t stride,
                         int64_t parts) {
    return parts > 1 && source % parts == 0 &&
           source / parts ==
               stride * static_cast<int64_t>(llvm::divideCeil(extent, parts));
  }
  /// Whether some split of the mesh's devices fits such a window.
  bool windowSplits(int64_t source, int64_t extent, int64_t stride) {
    for (int64_t parts = 2; parts <= mesh.getNumDevices(); ++parts)
      if (windowFits(source, extent, stride, parts))
        return true;
    return false;
  }
  /// Windows of the function's ops into unpadded dimensions: (factor
  /// size, source size, stride).
  SmallVector<std::tuple<int64_t, int64_t, int64_t>> windowReads;
  /// Whether the user split `extent` unevenly over `axes` or more.
  bool splitUnevenly(int64_t extent, ArrayRef<StringAttr> axes) const {
    return llvm::any_of(unevenExtents, [&](const auto &split) {
      return split.first == extent && split.second.size() >= axes.size() &&
             llvm::all_of(llvm::zip(axes, split.second), [](auto pair) {
               return std::get<0>(pair).getValue() == std::get<1>(pair);
             });
    });
  }
};

} // namespace mlir::trellis::propagation

#endif // TRELLIS_LIB_TRANSFORMS_TRELLIS_PROPAGATOR_H
