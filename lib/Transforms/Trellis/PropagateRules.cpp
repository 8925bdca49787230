//===- PropagateRules.cpp - Sharding rules to a fixed point ---------------===//
//
// How trellis-propagate moves axes across an op: the factors of its
// sharding rule pick the axes their dimensions share, `extend` appends them
// where they fit, and fixedPoint repeats this (pass-through ops first) until
// nothing changes.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Trellis/Propagator.h"

namespace mlir::trellis::propagation {

namespace {

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

} // namespace

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

} // namespace mlir::trellis::propagation
