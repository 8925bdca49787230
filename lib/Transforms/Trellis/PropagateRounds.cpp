//===- PropagateRounds.cpp - Seeds and priority rounds --------------------===//
//
// trellis-propagate's driver: the ops and ties it collects, the shardings
// that seed it (types, shard_map boundaries, the user's, by priority), and
// the rounds, one per priority, each propagated to a fixed point.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Trellis/Propagator.h"

namespace mlir::trellis::propagation {

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

} // namespace mlir::trellis::propagation
