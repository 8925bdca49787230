//===- PropagateRegions.cpp - Propagation across ops with regions ---------===//
//
// How axes cross a partially-manual shard_map's boundary, an auto_axes or
// explicit_axes region, and a propagation barrier.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Trellis/Propagator.h"

namespace mlir::trellis::propagation {

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

} // namespace mlir::trellis::propagation
