//===- RegionOps.cpp - Partitioning ops with regions ----------------------===//
//
// Structured control flow keeps one layout per carried tensor through
// its regions; a shard_map inside a global function is inlined with its
// inputs resharded to its in_specs; auto_axes and explicit_axes are
// inlined.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

Layout FunctionPartitioner::carryLayout(Value result, Value init) {
  auto type = cast<RankedTensorType>(result.getType());
  Layout layout =
      declaredSharding(result)
          ? desiredLayout(result)
          : (layouts.count(init) ? layouts[init]
                                 : Layout::replicated(type.getRank()));
  layout.unreduced.clear();
  return layout;
}

LogicalResult FunctionPartitioner::partitionFor(scf::ForOp op) {
  SmallVector<Layout> carry;
  SmallVector<Value> inits;
  for (auto [result, init] : llvm::zip(op.getResults(), op.getInitArgs())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      carry.push_back(Layout());
      inits.push_back(mapping.lookupOrDefault(init));
      continue;
    }
    Layout layout = carryLayout(result, init);
    carry.push_back(layout);
    inits.push_back(localIn(init, layout));
  }
  auto newFor = scf::ForOp::create(
      b, op.getLoc(), mapping.lookupOrDefault(op.getLowerBound()),
      mapping.lookupOrDefault(op.getUpperBound()),
      mapping.lookupOrDefault(op.getStep()), inits);
  Block *body = newFor.getBody();
  mapping.map(op.getInductionVar(), newFor.getInductionVar());
  for (auto [k, arg] : llvm::enumerate(op.getRegionIterArgs())) {
    if (isa<RankedTensorType>(arg.getType()))
      setLocal(arg, newFor.getRegionIterArgs()[k], carry[k]);
    else
      mapping.map(arg, newFor.getRegionIterArgs()[k]);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    if (!body->empty())
      body->getTerminator()->erase();
    b.setInsertionPointToEnd(body);
    if (failed(partitionBlock(*op.getBody())))
      return failure();
    SmallVector<Value> yields;
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    for (auto [k, value] : llvm::enumerate(yield.getOperands()))
      yields.push_back(isa<RankedTensorType>(value.getType())
                           ? localIn(value, carry[k])
                           : mapping.lookupOrDefault(value));
    scf::YieldOp::create(b, yield.getLoc(), yields);
  }
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    if (isa<RankedTensorType>(result.getType()))
      setLocal(result, newFor.getResult(k), carry[k]);
    else
      mapping.map(result, newFor.getResult(k));
  }
  return success();
}

/// Like a for: every carried tensor keeps one layout (its declared one, else
/// its init's) through both regions; what the condition forwards and the
/// body yields is resharded to it. The condition is a scalar, the same on
/// every device, so every device runs the same trips.
LogicalResult FunctionPartitioner::partitionWhile(scf::WhileOp op) {
  if (TypeRange(op.getBeforeArguments()) != op.getResultTypes() ||
      TypeRange(op.getAfterArguments()) != op.getResultTypes())
    return op.emitOpError("carries values whose types change between the "
                          "condition and the body; the partitioner needs "
                          "one type per carried value");
  SmallVector<Layout> carry;
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (auto [result, init] : llvm::zip(op.getResults(), op.getInits())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      carry.push_back(Layout());
      inits.push_back(mapping.lookupOrDefault(init));
      types.push_back(result.getType());
      continue;
    }
    Layout layout = carryLayout(result, init);
    carry.push_back(layout);
    inits.push_back(localIn(init, layout));
    types.push_back(inits.back().getType());
  }
  auto newWhile = scf::WhileOp::create(b, op.getLoc(), types, inits);
  auto fillRegion = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&to);
    for (auto [k, arg] : llvm::enumerate(from.front().getArguments())) {
      Value local = block->addArgument(types[k], arg.getLoc());
      if (isa<RankedTensorType>(arg.getType()))
        setLocal(arg, local, carry[k]);
      else
        mapping.map(arg, local);
    }
    if (failed(partitionBlock(from.front())))
      return failure();
    Operation *terminator = from.front().getTerminator();
    ValueRange carried = terminator->getOperands();
    if (auto condition = dyn_cast<scf::ConditionOp>(terminator))
      carried = condition.getArgs();
    SmallVector<Value> locals;
    for (auto [k, value] : llvm::enumerate(carried))
      locals.push_back(isa<RankedTensorType>(value.getType())
                           ? localIn(value, carry[k])
                           : mapping.lookupOrDefault(value));
    if (auto condition = dyn_cast<scf::ConditionOp>(terminator))
      scf::ConditionOp::create(
          b, condition.getLoc(),
          mapping.lookupOrDefault(condition.getCondition()), locals);
    else
      scf::YieldOp::create(b, terminator->getLoc(), locals);
    return success();
  };
  if (failed(fillRegion(op.getBefore(), newWhile.getBefore())) ||
      failed(fillRegion(op.getAfter(), newWhile.getAfter())))
    return failure();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    if (isa<RankedTensorType>(result.getType()))
      setLocal(result, newWhile.getResult(k), carry[k]);
    else
      mapping.map(result, newWhile.getResult(k));
  }
  return success();
}

LogicalResult FunctionPartitioner::partitionIf(scf::IfOp op) {
  SmallVector<Layout> want;
  SmallVector<Type> types;
  for (OpResult result : op.getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      want.push_back(Layout());
      types.push_back(result.getType());
      continue;
    }
    Layout layout = desiredLayout(result);
    layout.unreduced.clear();
    want.push_back(layout);
    types.push_back(resharder.localType(type, layout));
  }
  auto newIf = scf::IfOp::create(
      b, op.getLoc(), types, mapping.lookupOrDefault(op.getCondition()),
      /*withElseRegion=*/!op.getElseRegion().empty());
  auto fillRegion = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    Block *block = &to.front();
    if (!block->empty())
      block->getTerminator()->erase();
    b.setInsertionPointToEnd(block);
    if (failed(partitionBlock(from.front())))
      return failure();
    auto yield = cast<scf::YieldOp>(from.front().getTerminator());
    SmallVector<Value> yields;
    for (auto [k, value] : llvm::enumerate(yield.getOperands()))
      yields.push_back(isa<RankedTensorType>(value.getType())
                           ? localIn(value, want[k])
                           : mapping.lookupOrDefault(value));
    scf::YieldOp::create(b, yield.getLoc(), yields);
    return success();
  };
  if (failed(fillRegion(op.getThenRegion(), newIf.getThenRegion())))
    return failure();
  if (!op.getElseRegion().empty() &&
      failed(fillRegion(op.getElseRegion(), newIf.getElseRegion())))
    return failure();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    if (isa<RankedTensorType>(result.getType()))
      setLocal(result, newIf.getResult(k), want[k]);
    else
      mapping.map(result, newIf.getResult(k));
  }
  return success();
}

/// `v`, rebuilt with the all_gathers in the chain that defines it that
/// gather over any of `axes` as all_gather_invariants (the same data
/// movement, typed invariant over the gathered axes). The originals stay:
/// the reshard cache and other users may hold them (unused ones are erased
/// with the other unused reshards).
static Value gatheredInvariant(Value v, ArrayRef<StringAttr> axes) {
  auto gather = v.getDefiningOp<spmd::AllGatherOp>();
  if (axes.empty() || !gather)
    return v;
  Value operand = gatheredInvariant(gather.getOperand(), axes);
  bool hit = llvm::any_of(gather.getAxes(), [&](Attribute a) {
    return llvm::is_contained(axes, cast<StringAttr>(a));
  });
  if (!hit && operand == gather.getOperand())
    return v;
  OpBuilder b(gather);
  b.setInsertionPointAfter(gather);
  OperationState state(gather.getLoc(),
                       hit ? spmd::AllGatherInvariantOp::getOperationName()
                           : spmd::AllGatherOp::getOperationName());
  state.addOperands(operand);
  state.addTypes(gather->getResultTypes());
  state.addAttributes(gather->getAttrs());
  return b.create(state)->getResult(0);
}

/// A shard_map over every mesh axis inside a global function: its inputs
/// are resharded to its in_specs, its body is inlined (its collectives are
/// already per device), and its results have the layout of its out_specs.
LogicalResult FunctionPartitioner::partitionShardMap(spmd::ShardMapOp op) {
  if (op.getMeshAttr().getValue() != mesh.getSymName())
    return op.emitOpError("uses mesh ")
           << op.getMeshAttr() << ", but the function is partitioned over @"
           << mesh.getSymName();
  SmallVector<StringAttr> manual = op.getAllManualAxes();
  const bool partial = manual.size() != mesh.getNumAxes();
  // An outer dimension is split by the spec's (manual) axes, then by the
  // body value's free axes.
  auto composed = [&](trellis::SpecAttr spec, const Layout &inner) {
    Layout layout = Layout::replicated(inner.dims.size());
    for (int64_t d = 0, e = inner.dims.size(); d < e; ++d) {
      ArrayRef<StringAttr> axes = spec.getAxes(d);
      layout.dims[d].assign(axes.begin(), axes.end());
      llvm::append_range(layout.dims[d], inner.dims[d]);
    }
    return layout;
  };
  Block &body = op.getBodyBlock();
  for (auto [k, input] : llvm::enumerate(op.getInputs())) {
    BlockArgument arg = body.getArgument(k);
    auto argType = cast<RankedTensorType>(arg.getType());
    Layout inner =
        partial ? desiredLayout(arg) : Layout::replicated(argType.getRank());
    inner.unreduced.clear();
    if (!resharder.divides(argType, inner))
      inner = Layout::replicated(argType.getRank());
    auto spec = cast<trellis::SpecAttr>(op.getInSpecs()[k]);
    Layout outer = composed(spec, inner);
    Value local = localIn(input, outer);
    // The body sees the input invariant over the manual axes its spec does
    // not map; the gathers that made it whole over them say so in their
    // type (all_gather_invariant), so that an op in the body that needs an
    // invariant operand (a pscatter, as a transposed all_gather_invariant
    // has) still checks after inlining.
    SmallVector<StringAttr> mapped = spec.getAllAxes();
    SmallVector<StringAttr> unmapped;
    for (StringAttr axis : manual)
      if (!llvm::is_contained(mapped, axis))
        unmapped.push_back(axis);
    local = gatheredInvariant(local, unmapped);
    setLocal(arg, local, inner);
  }
  if (!partial) {
    // A fully-manual body is already per device.
    for (Operation &inner : body.without_terminator())
      b.clone(inner, mapping);
  } else if (failed(partitionBlock(body))) {
    // A partially-manual body partitions its free axes; its collectives over
    // manual axes run on whole (free-axis replicated) blocks.
    return failure();
  }
  Operation *yield = body.getTerminator();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    Value value = yield->getOperand(k);
    auto type = cast<RankedTensorType>(value.getType());
    Layout inner = Layout::replicated(type.getRank());
    Value local = mapping.lookupOrDefault(value);
    if (partial) {
      auto it = layouts.find(value);
      if (it != layouts.end())
        inner = it->second;
      inner.unreduced.clear();
      local = localIn(value, inner);
    }
    setLocal(result, local,
             composed(cast<trellis::SpecAttr>(op.getOutSpecs()[k]), inner));
  }
  return success();
}

/// auto_axes and explicit_axes only change which axes types may mention:
/// after partitioning every axis is manual, so the body is inlined. Inputs
/// take the layouts the body's arguments declare; results keep the layouts
/// of the values yielded (consumers reshard them as they need).
LogicalResult FunctionPartitioner::partitionAxisRegion(Operation *op) {
  Block &body = op->getRegion(0).front();
  for (auto [input, arg] : llvm::zip(op->getOperands(), body.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type) {
      mapping.map(arg, mapping.lookupOrDefault(input));
      continue;
    }
    Layout layout = desiredLayout(arg);
    setLocal(arg, localIn(input, layout), layout);
  }
  if (failed(partitionBlock(body)))
    return failure();
  Operation *yield = body.getTerminator();
  for (auto [result, value] :
       llvm::zip(op->getResults(), yield->getOperands())) {
    if (!isa<RankedTensorType>(result.getType())) {
      mapping.map(result, mapping.lookupOrDefault(value));
      continue;
    }
    auto it = layouts.find(value);
    Layout layout =
        it != layouts.end()
            ? it->second
            : Layout::replicated(
                  cast<RankedTensorType>(value.getType()).getRank());
    setLocal(result, mapping.lookupOrDefault(value), layout);
  }
  return success();
}
