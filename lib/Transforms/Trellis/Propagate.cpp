//===- Propagate.cpp - Sharding propagation over auto axes ----------------===//
//
// Each tensor value has, per dimension, a list of mesh axes and whether the
// list may still grow (open) or not (closed). Ops relate dimensions through
// their sharding rules: all dimensions holding one factor should be split
// the same way. Propagation repeatedly picks, for each factor, the axes its
// dimensions should share and extends every open dimension that is a prefix
// of them, until nothing changes. Control flow ties values together
// (a loop carry, its init, yield and result) so they share one state.
//
//===----------------------------------------------------------------------===//

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

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISPROPAGATE
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {

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

/// Ops that only pass dimensions through (elementwise, reshapes): they
/// propagate first, so shardings flow along chains of them before ops that
/// combine dimensions pick among candidates.
bool isPassThrough(Operation *op, const ShardingRule &rule) {
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, ShardingConstraintOp>(
          op))
    return true;
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    if (rule.factorKinds[f] != FactorKind::Parallel)
      return false;
  // Every tensor holds every factor, in the same order.
  for (ArrayRef<ValueFactors> values : {ArrayRef<ValueFactors>(rule.operands),
                                        ArrayRef<ValueFactors>(rule.results)})
    for (const ValueFactors &value : values) {
      if (value.empty())
        continue;
      if (static_cast<int64_t>(value.size()) != rule.numFactors())
        return false;
      for (auto [d, factors] : llvm::enumerate(value))
        if (factors.size() != 1 || factors[0] != static_cast<int64_t>(d))
          return false;
    }
  return true;
}

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

void Propagator::seed(Value v, ShardingAttr sharding, bool user, bool fixed,
                      const Twine &source, bool byPriority) {
  ValueState *st = state(v);
  if (!st || !sharding)
    return;
  int id = -1;
  bool seeded = false;
  for (auto [d, dim] : llvm::enumerate(st->dims)) {
    if (d >= sharding.getDims().size())
      break;
    DimShardingAttr given = sharding.getDims()[d];
    // In priority rounds, a dimension is seeded in its priority's round
    // (one without a priority in the last).
    if (byPriority && priorityRound && given.getPriority() != *priorityRound)
      continue;
    dim.axes.assign(given.getAxes().begin(), given.getAxes().end());
    dim.closed = given.getClosed() || fixed;
    int64_t extent = cast<RankedTensorType>(v.getType()).getDimSize(d);
    if (!ShapedType::isDynamic(extent) &&
        extent % mesh.getAxesSize(dim.axes) != 0)
      unevenExtents.insert(
          {extent, llvm::map_to_vector(dim.axes, [](StringAttr axis) {
             return axis.getValue();
           })});
    if (id < 0)
      id = sourceId(source);
    dim.origin = {id, 0, nullptr};
    seeded = true;
  }
  if (!seeded)
    return;
  st->user |= user;
  st->fixed |= fixed;
}

void Propagator::collect(Region &region) {
  for (Block &block : region) {
    for (BlockArgument arg : block.getArguments())
      values.push_back(arg);
    for (Operation &op : block) {
      for (Value result : op.getResults())
        values.push_back(result);
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
        for (auto [init, arg, yielded, result] :
             llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                       yield.getOperands(), forOp.getResults())) {
          ties.unionSets(init, arg);
          ties.unionSets(init, yielded);
          ties.unionSets(init, result);
        }
      }
      if (isa<AutoAxesOp, ExplicitAxesOp>(op))
        axisRegions.push_back(&op);
      if (auto barrier = dyn_cast<PropagationBarrierOp>(op))
        barriers.push_back(barrier);
      if (auto group = dyn_cast<ShardingGroupOp>(op))
        groups[group.getGroupId()].push_back(group);
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        for (auto [k, result] : llvm::enumerate(ifOp.getResults())) {
          ties.unionSets(result, ifOp.thenYield().getOperand(k));
          if (!ifOp.getElseRegion().empty())
            ties.unionSets(result, ifOp.elseYield().getOperand(k));
        }
      }
      FailureOr<ShardingRule> rule = getShardingRule(&op);
      if (succeeded(rule) && rule->operands.size() == op.getNumOperands() &&
          rule->results.size() == op.getNumResults())
        ruleOps.emplace_back(&op, std::move(*rule));
      // Fully-manual regions are per-device code, and structured ops'
      // payloads are scalars: propagation stays outside both. A partially
      // manual body still has automatic axes to propagate.
      if (auto map = dyn_cast<spmd::ShardMapOp>(op);
          map && map.getAllManualAxes().size() == mesh.getNumAxes())
        continue;
      if (isa<linalg::LinalgOp>(op))
        continue;
      for (Region &nested : op.getRegions())
        collect(nested);
    }
  }
}

bool Propagator::extend(Value v, int64_t d, ArrayRef<StringAttr> axes,
                        const Origin &from, Operation *via) {
  ValueState *st = state(v);
  if (!st || st->fixed || d >= static_cast<int64_t>(st->dims.size()))
    return false;
  DimState &dim = st->dims[d];
  if (dim.closed || !isAxisPrefix(dim.axes, axes) ||
      dim.axes.size() == axes.size())
    return false;
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<StringAttr> next(dim.axes);
  for (StringAttr axis : axes.drop_front(dim.axes.size())) {
    if (st->uses(axis, mesh) ||
        llvm::any_of(next,
                     [&](StringAttr a) {
                       return mesh.axesOverlap(a.getValue(), axis.getValue());
                     }) ||
        getAxisTypeOf(v, mesh, axis.getValue()) != AxisType::Auto)
      break;
    next.push_back(axis);
    int64_t extent = type.getDimSize(d);
    int64_t parts = mesh.getAxesSize(next);
    auto windowed = [&] {
      return llvm::any_of(windowReads, [&](auto read) {
        auto [size, source, stride] = read;
        return size == extent && windowFits(source, extent, stride, parts);
      });
    };
    if (ShapedType::isDynamic(extent) ||
        (extent % parts != 0 && !splitUnevenly(extent, next) && !windowed())) {
      next.pop_back();
      break;
    }
  }
  if (next.size() == dim.axes.size())
    return false;
  dim.axes = next;
  dim.origin = {from.source, from.hops + 1, via};
  return true;
}

bool Propagator::propagate(Operation *op, const ShardingRule &rule) {
  struct Candidate {
    SmallVector<StringAttr> axes;
    bool user;
    int64_t elements;
    Origin origin;
  };
  bool changed = false;
  // Dimensions that hold several factors (a reshape's merged dimension)
  // split their axes over them, major to minor, splitting an axis into
  // sub-axes where it straddles two factors (splitAxesOverFactors). Those
  // whose axes do not fit that way hand them all to their major factor.
  struct Compound {
    Value value;
    int64_t dim;
    SmallVector<int64_t> factors; ///< the factors of size > 1
    /// Per factor, the axes the dimension's current ones give it.
    std::optional<SmallVector<SmallVector<StringAttr>>> split;
  };
  SmallVector<Compound> compounds;
  auto findCompounds = [&](ValueRange vals, ArrayRef<ValueFactors> factors) {
    for (auto [v, dims] : llvm::zip(vals, factors)) {
      ValueState *st = state(v);
      if (!isa<RankedTensorType>(v.getType()) || !st)
        continue;
      for (auto [d, dimFactors] : llvm::enumerate(dims)) {
        Compound c{v, static_cast<int64_t>(d), {}, std::nullopt};
        for (int64_t f : dimFactors)
          if (rule.factorSizes[f] != 1)
            c.factors.push_back(f);
        if (c.factors.size() < 2 || d >= st->dims.size())
          continue;
        c.split = splitAxesOverFactors(
            mesh,
            llvm::map_to_vector(c.factors,
                                [&](int64_t f) { return rule.factorSizes[f]; }),
            st->dims[d].axes, /*splitAxes=*/true);
        if (c.split && !mayUseSubAxes(*c.split))
          c.split = std::nullopt;
        compounds.push_back(std::move(c));
      }
    }
  };
  findCompounds(op->getOperands(), rule.operands);
  findCompounds(op->getResults(), rule.results);
  auto isSplitCompound = [&](Value v, int64_t d) {
    return llvm::any_of(compounds, [&](const Compound &c) {
      return c.value == v && c.dim == d && c.split;
    });
  };
  // The axes chosen for each factor.
  SmallVector<SmallVector<StringAttr>> chosenOf(rule.numFactors());
  SmallVector<Origin> originOf(rule.numFactors());
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    if (rule.needsReplication(f))
      continue;
    // Every (value, dimension) whose major factor is f.
    SmallVector<std::pair<Value, int64_t>> holders;
    auto gather = [&](ValueRange vals, ArrayRef<ValueFactors> factors) {
      for (auto [v, dims] : llvm::zip(vals, factors)) {
        if (!isa<RankedTensorType>(v.getType()))
          continue;
        for (auto [d, dimFactors] : llvm::enumerate(dims))
          if (rule.majorFactor(dimFactors) == f &&
              !isSplitCompound(v, static_cast<int64_t>(d)))
            holders.push_back({v, static_cast<int64_t>(d)});
      }
    };
    gather(op->getOperands(), rule.operands);
    gather(op->getResults(), rule.results);
    // A window of f is best read from a source split like f (the
    // partitioner then exchanges halos): one whose dimension is f's size
    // times the window's stride.
    for (const WindowDim &window : rule.windows) {
      int64_t low = 0;
      Value operand = op->getOperand(window.operand);
      Value source = windowSource(operand, window.dim, low);
      auto type = cast<RankedTensorType>(source.getType());
      if (window.factor != f || ShapedType::isDynamic(rule.factorSizes[f]))
        continue;
      if (type.getDimSize(window.dim) == rule.factorSizes[f] * window.stride ||
          (source == operand &&
           windowSplits(type.getDimSize(window.dim), rule.factorSizes[f],
                        window.stride)))
        holders.push_back({source, window.dim});
    }
    SmallVector<Candidate> candidates;
    for (auto [v, d] : holders) {
      ValueState *st = state(v);
      if (st && d < static_cast<int64_t>(st->dims.size()) &&
          !st->dims[d].axes.empty())
        candidates.push_back(
            {st->dims[d].axes, st->user, st->elements, st->dims[d].origin});
    }
    for (const Compound &c : compounds) {
      if (!c.split)
        continue;
      for (auto [k, g] : llvm::enumerate(c.factors)) {
        const SmallVector<StringAttr> &axes = (*c.split)[k];
        if (g != f || axes.empty())
          continue;
        ValueState *st = state(c.value);
        candidates.push_back(
            {axes, st->user, st->elements, st->dims[c.dim].origin});
      }
    }
    if (candidates.empty())
      continue;
    // The longest candidate, if every other is a prefix of it.
    const Candidate *longest = &candidates[0];
    for (const Candidate &c : candidates)
      if (c.axes.size() > longest->axes.size())
        longest = &c;
    bool compatible = llvm::all_of(candidates, [&](const Candidate &c) {
      return isAxisPrefix(c.axes, longest->axes);
    });
    SmallVector<StringAttr> chosen;
    Origin origin = longest->origin;
    if (compatible) {
      chosen = longest->axes;
    } else if (conservative) {
      chosen = candidates[0].axes;
      for (const Candidate &c : candidates) {
        size_t n = 0;
        while (n < chosen.size() && n < c.axes.size() && chosen[n] == c.axes[n])
          ++n;
        chosen.resize(n);
      }
    } else {
      // User shardings first, then the larger tensor, then program order.
      const Candidate *best = &candidates[0];
      for (const Candidate &c : candidates)
        if (std::make_pair(c.user, c.elements) >
            std::make_pair(best->user, best->elements))
          best = &c;
      chosen = best->axes;
      origin = best->origin;
    }
    if (chosen.empty())
      continue;
    chosenOf[f] = chosen;
    originOf[f] = origin;
    for (auto [v, d] : holders)
      changed |= extend(v, d, chosen, origin, op);
  }
  // A compound dimension takes its factors' axes, major to minor, as far as
  // each factor before is split wholly, with the parts of an axis merged.
  for (const Compound &c : compounds) {
    if (!c.split)
      continue;
    SmallVector<StringAttr> axes;
    Origin origin;
    for (int64_t f : c.factors) {
      if (chosenOf[f].empty())
        break;
      llvm::append_range(axes, chosenOf[f]);
      if (origin.source < 0)
        origin = originOf[f];
      if (mesh.getAxesSize(chosenOf[f]) != rule.factorSizes[f])
        break;
    }
    if (!axes.empty())
      changed |= extend(c.value, c.dim, mergeSubAxes(mesh, axes), origin, op);
  }
  return changed;
}

SmallVector<int64_t> Propagator::priorityRounds() {
  std::set<int64_t> priorities;
  auto note = [&](ShardingAttr sharding) {
    if (sharding)
      for (DimShardingAttr dim : sharding.getDims())
        if (dim.hasPriority())
          priorities.insert(dim.getPriority());
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    note(func.getArgAttrOfType<ShardingAttr>(
        i, TrellisDialect::kShardingAttrName));
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    note(func.getResultAttrOfType<ShardingAttr>(
        i, TrellisDialect::kShardingAttrName));
  func.walk([&](ShardingConstraintOp op) { note(op.getSharding()); });
  if (priorities.empty())
    return {};
  SmallVector<int64_t> rounds(priorities.begin(), priorities.end());
  rounds.push_back(-1);
  return rounds;
}

void Propagator::seedSources(bool firstRound) {
  // Sources: explicit types, then the user's shardings.
  // A type speaks only of explicit axes, which propagation never adds, so
  // its dimensions stay open to auto axes.
  for (Value v : values)
    if (ShardingAttr typed = getShardingEncoding(v.getType());
        typed && firstRound) {
      seed(v, typed, /*user=*/true, /*fixed=*/false, "an explicit type");
      if (ValueState *st = state(v))
        for (DimState &dim : st->dims)
          dim.closed = false;
    }
  for (BlockArgument arg : func.getArguments())
    seed(arg,
         func.getArgAttrOfType<ShardingAttr>(arg.getArgNumber(),
                                             TrellisDialect::kShardingAttrName),
         /*user=*/true, /*fixed=*/false,
         "argument #" + Twine(arg.getArgNumber()), /*byPriority=*/true);
  // A result's sharding seeds the value returned unless the user already
  // laid that value out (an argument returned as is): the partitioner then
  // reshards it at the return.
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [j, value] : llvm::enumerate(ret.getOperands()))
    if (ValueState *st = state(value); st && !st->user)
      seed(value,
           func.getResultAttrOfType<ShardingAttr>(
               j, TrellisDialect::kShardingAttrName),
           /*user=*/true, /*fixed=*/false, "result #" + Twine(j),
           /*byPriority=*/true);
  func.walk([&](Operation *op) {
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
      seed(constraint.getResult(), constraint.getSharding(), true, false,
           "the constraint at " + formatShortLocation(constraint.getLoc()),
           /*byPriority=*/true);
    if (!firstRound)
      return WalkResult::advance();
    if (auto map = dyn_cast<spmd::ShardMapOp>(op);
        map && map.getAllManualAxes().size() < mesh.getNumAxes()) {
      // A partially-manual body partitions its free axes like the rest of
      // the function; its boundary relates outer and body dimensions.
      partialMaps.push_back(map);
      return WalkResult::advance();
    }
    if (auto map = dyn_cast<spmd::ShardMapOp>(op)) {
      // Results are laid out by out_specs; inputs would like in_specs.
      for (auto [k, result] : llvm::enumerate(map.getResults())) {
        auto spec = cast<SpecAttr>(map.getOutSpecs()[k]);
        auto type = cast<RankedTensorType>(result.getType());
        SmallVector<DimShardingAttr> dims;
        for (int64_t d = 0; d < type.getRank(); ++d)
          dims.push_back(
              DimShardingAttr::get(op->getContext(), spec.getAxes(d)));
        seed(result,
             ShardingAttr::get(op->getContext(),
                               FlatSymbolRefAttr::get(mesh.getSymNameAttr()),
                               dims),
             true, true,
             "the out_specs of the shard_map at " +
                 formatShortLocation(op->getLoc()));
      }
      for (auto [k, input] : llvm::enumerate(map.getInputs())) {
        ValueState *st = state(input);
        if (!st || st->user)
          continue;
        auto spec = cast<SpecAttr>(map.getInSpecs()[k]);
        // A value fed to several shard_maps takes each spec's axes only
        // where they are free: an axis on two dimensions is no sharding
        // (it was proposed, and the program partitioned wrongly).
        for (auto [d, dim] : llvm::enumerate(st->dims)) {
          ArrayRef<StringAttr> axes = spec.getAxes(d);
          if (dim.axes.empty() && !dim.closed &&
              llvm::none_of(axes,
                            [&](StringAttr a) { return st->uses(a, mesh); })) {
            dim.axes.assign(axes.begin(), axes.end());
            dim.origin = {sourceId("the in_specs of the shard_map at " +
                                   formatShortLocation(op->getLoc())),
                          0, nullptr};
          }
        }
      }
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
}

LogicalResult Propagator::fixedPoint() {
  // Pass-through ops first, then all ops; forward then backward, to a fixed
  // point. Every change goes through `extend`, which appends at least one
  // axis to a dimension, and a value holds each mesh axis at most once: a
  // round that changes something adds an axis, so there are at most
  // (values x mesh axes) such rounds. Past that bound the reasoning above
  // is wrong; stop with an error rather than write a half-propagated
  // result.
  int64_t maxRounds = 1;
  for (auto &entry : states)
    maxRounds += mesh.getNumAxes() * (entry.second.dims.empty() ? 0 : 1);
  for (bool passThroughOnly : {true, false}) {
    bool changed = true;
    for (int64_t round = 0; changed; ++round) {
      if (round > maxRounds)
        return func.emitOpError("internal error: sharding propagation did "
                                "not converge within ")
               << maxRounds << " rounds";
      changed = false;
      for (auto &[op, rule] : ruleOps)
        if (!passThroughOnly || isPassThrough(op, rule))
          changed |= propagate(op, rule);
      for (spmd::ShardMapOp map : partialMaps)
        changed |= propagateBoundary(map);
      for (Operation *region : axisRegions)
        changed |= propagateAxisRegion(region);
      for (PropagationBarrierOp barrier : barriers)
        changed |= propagateBarrier(barrier);
      for (auto &[op, rule] : llvm::reverse(ruleOps))
        if (!passThroughOnly || isPassThrough(op, rule))
          changed |= propagate(op, rule);
    }
  }
  return success();
}

LogicalResult Propagator::run() {
  collect(func.getBody());
  // Sub-axes the partitioner can realise (RefineMeshes.cpp): none of an
  // axis that manual code or an axis-type region anywhere in the module
  // names, none at all beside another mesh, and only cuts of an axis that
  // nest with the cuts the module's shardings already make.
  if (auto module = func->getParentOfType<ModuleOp>()) {
    auto meshes = module.getOps<MeshOp>();
    noSubAxes = std::distance(meshes.begin(), meshes.end()) > 1;
    auto nameAxes = [&](Attribute attr) {
      attr.walk([&](StringAttr name) {
        if (mesh.getAxisIndex(name.getValue()))
          unsplittable.insert(name.getValue());
      });
    };
    module.walk([&](Operation *op) {
      if (isa<AxisTypeRegionInterface>(op) ||
          isa_and_nonnull<spmd::SpmdDialect>(op->getDialect())) {
        nameAxes(op->getAttrDictionary());
      } else {
        for (NamedAttribute attr : op->getDiscardableAttrs())
          if (attr.getName().getValue().starts_with("spmd."))
            nameAxes(attr.getValue());
      }
      auto noteCuts = [&](DimShardingAttr dim) {
        (void)nestsCuts({llvm::to_vector(dim.getAxes())});
      };
      op->getAttrDictionary().walk(noteCuts);
      for (Type type : op->getResultTypes())
        type.walk(noteCuts);
    });
  }
  for (auto &[op, rule] : ruleOps)
    for (const WindowDim &window : rule.windows) {
      int64_t low = 0;
      Value operand = op->getOperand(window.operand);
      auto type = cast<RankedTensorType>(operand.getType());
      if (windowSource(operand, window.dim, low) == operand &&
          !type.isDynamicDim(window.dim))
        windowReads.push_back({rule.factorSizes[window.factor],
                               type.getDimSize(window.dim), window.stride});
    }
  // A sharding group's values share one state: one sharding.
  for (auto &[id, members] : groups)
    for (ShardingGroupOp member : members) {
      Value first = members.front().getInput();
      if (member.getInput().getType().getShape() !=
          cast<RankedTensorType>(first.getType()).getShape()) {
        InFlightDiagnostic diag = member.emitOpError();
        diag << "puts a value of type " << member.getInput().getType()
             << " in sharding group " << id << " with one of type "
             << first.getType() << "; the values of a group must have one "
             << "shape";
        diag.attachNote(members.front().getLoc()) << "the group's first value";
        return diag;
      }
      ties.unionSets(first, member.getInput());
    }
  for (Value v : values) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      continue;
    Value l = leader(v);
    if (states.count(l))
      continue;
    ValueState st;
    st.dims.resize(type.getRank());
    st.elements = type.hasStaticShape() ? type.getNumElements() : 0;
    states[l] = st;
  }
  SmallVector<int64_t> rounds = priorityRounds();
  if (rounds.empty()) {
    seedSources(/*firstRound=*/true);
    if (failed(fixedPoint()))
      return failure();
  }
  // Priorities: one propagation per round, p0 first; a later round only
  // appends axes to what earlier ones decided.
  for (int64_t round : rounds) {
    priorityRound = round;
    seedSources(/*firstRound=*/round == rounds.front());
    if (failed(fixedPoint()))
      return failure();
  }
  writeBack();
  return success();
}

/// Across a partially-manual shard_map, an outer dimension is split by its
/// spec's manual axes first and then by the body's free axes: inputs pass
/// their free axes into the body, and results take out_specs followed by
/// the free axes of the values yielded (and the reverse of both).
bool Propagator::propagateBoundary(spmd::ShardMapOp map) {
  SmallVector<StringAttr> manual = map.getAllManualAxes();
  auto free = [&](ArrayRef<StringAttr> axes) {
    SmallVector<StringAttr> out;
    for (StringAttr a : axes)
      if (!llvm::is_contained(manual, a))
        out.push_back(a);
    return out;
  };
  auto relate = [&](Value outer, Value inner, SpecAttr spec) {
    bool changed = false;
    ValueState *o = state(outer), *i = state(inner);
    if (!o || !i)
      return false;
    for (int64_t d = 0, e = std::min(o->dims.size(), i->dims.size()); d < e;
         ++d) {
      ArrayRef<StringAttr> specAxes = spec.getAxes(d);
      // Outer -> inner: the outer axes after the spec's, minus manual ones.
      ArrayRef<StringAttr> outerAxes = state(outer)->dims[d].axes;
      Origin outerOrigin = state(outer)->dims[d].origin;
      if (isAxisPrefix(specAxes, outerAxes))
        changed |= extend(inner, d, free(outerAxes.drop_front(specAxes.size())),
                          outerOrigin, map);
      // Inner -> outer: the spec's axes, then the body's.
      SmallVector<StringAttr> composed(specAxes);
      llvm::append_range(composed, state(inner)->dims[d].axes);
      changed |= extend(outer, d, composed, state(inner)->dims[d].origin, map);
    }
    return changed;
  };
  bool changed = false;
  Block &body = map.getBodyBlock();
  for (auto [k, input] : llvm::enumerate(map.getInputs()))
    changed |=
        relate(input, body.getArgument(k), cast<SpecAttr>(map.getInSpecs()[k]));
  Operation *yield = body.getTerminator();
  for (auto [k, result] : llvm::enumerate(map.getResults()))
    changed |= relate(result, yield->getOperand(k),
                      cast<SpecAttr>(map.getOutSpecs()[k]));
  return changed;
}

/// auto_axes and explicit_axes change which axes types may name, not the
/// arrays: an input and the body's argument, a yielded value and the
/// result, are the same array, split the same way. Each side takes the
/// other's axes where they are automatic on it (`extend` checks), so an
/// axis made automatic inside keeps the data where it was instead of the
/// body's type replicating it.
bool Propagator::propagateAxisRegion(Operation *op) {
  auto relate = [&](Value outer, Value inner) {
    ValueState *o = state(outer), *i = state(inner);
    if (!o || !i)
      return false;
    bool changed = false;
    for (int64_t d = 0, e = std::min(o->dims.size(), i->dims.size()); d < e;
         ++d) {
      SmallVector<StringAttr> outerAxes(state(outer)->dims[d].axes);
      changed |= extend(inner, d, outerAxes, state(outer)->dims[d].origin, op);
      SmallVector<StringAttr> innerAxes(state(inner)->dims[d].axes);
      changed |= extend(outer, d, innerAxes, state(inner)->dims[d].origin, op);
    }
    return changed;
  };
  bool changed = false;
  Block &body = op->getRegion(0).front();
  for (auto [input, arg] : llvm::zip(op->getOperands(), body.getArguments()))
    changed |= relate(input, arg);
  for (auto [result, yielded] :
       llvm::zip(op->getResults(), body.getTerminator()->getOperands()))
    changed |= relate(result, yielded);
  return changed;
}

/// Across a barrier, each dimension's axes pass only the way it allows.
bool Propagator::propagateBarrier(PropagationBarrierOp barrier) {
  Value from = barrier.getInput(), to = barrier.getResult();
  if (barrier.allowsBackward())
    std::swap(from, to);
  else if (!barrier.allowsForward())
    return false;
  ValueState *source = state(from);
  if (!source || state(to) == source)
    return false;
  bool changed = false;
  for (int64_t d = 0, e = source->dims.size(); d < e; ++d) {
    SmallVector<StringAttr> axes(state(from)->dims[d].axes);
    Origin origin = state(from)->dims[d].origin;
    changed |= extend(to, d, axes, origin, barrier);
  }
  return changed;
}

std::string Propagator::describe(const DimState &dim) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (dim.axes.empty()) {
    os << "whole";
    return text;
  }
  os << "over ";
  llvm::interleave(
      dim.axes, os, [&](StringAttr a) { os << a.getValue(); }, ",");
  os << ": ";
  if (dim.origin.source < 0) {
    os << "unknown";
    return text;
  }
  os << sources[dim.origin.source];
  if (dim.origin.hops == 0)
    os << " (given)";
  else
    os << " through " << dim.origin.hops
       << (dim.origin.hops == 1 ? " op" : " ops")
       << " (last: " << dim.origin.via->getName() << " at "
       << formatShortLocation(dim.origin.via->getLoc()) << ")";
  return text;
}

StringAttr Propagator::originOf(Value v) {
  ValueState *st = state(v);
  if (!st)
    return {};
  std::string text;
  for (auto [d, dim] : llvm::enumerate(st->dims))
    text += (d ? "; dim " : "dim ") + std::to_string(d) + " " + describe(dim);
  return StringAttr::get(v.getContext(), text);
}

ShardingAttr Propagator::shardingOf(Value v) {
  ValueState *st = state(v);
  if (!st)
    return {};
  SmallVector<DimShardingAttr> dims;
  for (const DimState &dim : st->dims)
    dims.push_back(DimShardingAttr::get(v.getContext(), dim.axes));
  return ShardingAttr::get(v.getContext(),
                           FlatSymbolRefAttr::get(mesh.getSymNameAttr()), dims);
}

void Propagator::writeBack() {
  // The user's argument and result shardings stay as given; the others
  // are what propagation found.
  if (explain) {
    for (BlockArgument arg : func.getArguments())
      if (StringAttr origin = originOf(arg))
        func.setArgAttr(arg.getArgNumber(),
                        TrellisDialect::kShardingOriginAttrName, origin);
    func.walk([&](Operation *op) {
      SmallVector<Attribute> origins;
      for (Value result : op->getResults())
        if (StringAttr origin = originOf(result))
          origins.push_back(origin);
      if (origins.empty() || origins.size() != op->getNumResults() ||
          op->getParentOfType<linalg::LinalgOp>())
        return;
      op->setAttr(TrellisDialect::kShardingOriginAttrName,
                  origins.size() == 1
                      ? origins[0]
                      : ArrayAttr::get(op->getContext(), origins));
    });
  }
  for (BlockArgument arg : func.getArguments())
    if (!func.getArgAttr(arg.getArgNumber(), TrellisDialect::kShardingAttrName))
      if (ShardingAttr s = shardingOf(arg))
        func.setArgAttr(arg.getArgNumber(), TrellisDialect::kShardingAttrName,
                        s);
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [j, value] : llvm::enumerate(ret.getOperands()))
    if (!func.getResultAttr(j, TrellisDialect::kShardingAttrName))
      if (ShardingAttr s = shardingOf(value))
        func.setResultAttr(j, TrellisDialect::kShardingAttrName, s);
  SmallVector<Operation *> argOwners(partialMaps.begin(), partialMaps.end());
  llvm::append_range(argOwners, axisRegions);
  for (Operation *owner : argOwners) {
    Block &body = owner->getRegion(0).front();
    SmallVector<Attribute> args;
    for (BlockArgument arg : body.getArguments())
      if (ShardingAttr s = shardingOf(arg))
        args.push_back(s);
    if (args.size() == body.getNumArguments())
      owner->setAttr(TrellisDialect::kArgShardingsAttrName,
                     ArrayAttr::get(owner->getContext(), args));
  }
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto map = dyn_cast<spmd::ShardMapOp>(op);
        map && !llvm::is_contained(partialMaps, map))
      return WalkResult::skip();
    if (isa<ShardingConstraintOp>(op) || op->getNumResults() == 0 ||
        op->getParentOfType<linalg::LinalgOp>())
      return WalkResult::advance();
    SmallVector<Attribute> shardings;
    bool any = false;
    for (Value result : op->getResults()) {
      ShardingAttr s = shardingOf(result);
      any |= static_cast<bool>(s);
      shardings.push_back(s ? Attribute(s)
                            : Attribute(UnitAttr::get(op->getContext())));
    }
    if (!any || llvm::any_of(shardings, llvm::IsaPred<UnitAttr>))
      return WalkResult::advance();
    if (shardings.size() == 1)
      op->setAttr(TrellisDialect::kShardingAttrName, shardings[0]);
    else
      op->setAttr(TrellisDialect::kShardingAttrName,
                  ArrayAttr::get(op->getContext(), shardings));
    return WalkResult::advance();
  });
}

struct PropagatePass
    : mlir::trellis::impl::TrellisPropagateBase<PropagatePass> {
  using TrellisPropagateBase::TrellisPropagateBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getBody().hasOneBlock() ||
          func->hasAttr(spmd::SpmdDialect::kMeshAttrName))
        continue;
      FailureOr<MeshOp> mesh = findFunctionMesh(func);
      if (failed(mesh))
        return signalPassFailure();
      if (!*mesh)
        continue;
      if (failed(Propagator(func, *mesh, conservative, explain).run()))
        return signalPassFailure();
    }
  }
};

} // namespace
