//===- LocalValues.cpp - Local blocks of global values --------------------===//
//
// Every global value has a local block and the Layout that block has.
// These methods read the sharding a value is meant to have, move blocks
// between layouts (through the Resharder, once per block and layouts),
// rebuild fresh destinations in any layout, and clone ops on local
// operands.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "llvm/Support/Path.h"

#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

ShardingAttr partition::declaredSharding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast<func::FuncOp>(owner))
      if (auto attr = func.getArgAttrOfType<ShardingAttr>(
              arg.getArgNumber(), TrellisDialect::kShardingAttrName))
        return attr;
    if (auto forOp = dyn_cast<scf::ForOp>(owner))
      if (arg.getArgNumber() > 0)
        return declaredSharding(forOp.getResult(arg.getArgNumber() - 1));
    if (auto args = owner->getAttrOfType<ArrayAttr>(
            TrellisDialect::kArgShardingsAttrName))
      if (arg.getArgNumber() < args.size())
        if (auto s = dyn_cast<ShardingAttr>(args[arg.getArgNumber()]))
          return s;
    return getShardingEncoding(value.getType());
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  if (Attribute attr = op->getAttr(TrellisDialect::kShardingAttrName)) {
    if (auto sharding = dyn_cast<ShardingAttr>(attr))
      return sharding;
    if (auto array = dyn_cast<ArrayAttr>(attr))
      if (result.getResultNumber() < array.size())
        return dyn_cast<ShardingAttr>(array[result.getResultNumber()]);
  }
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
    return constraint.getSharding();
  return getShardingEncoding(value.getType());
}

Type partition::plain(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
  return type;
}

bool partition::isEmptyOrFillOfEmpty(Value value) {
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(op))
    return true;
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op))
    return isEmptyOrFillOfEmpty(fill.getOutputs()[0]);
  return false;
}

Value FunctionPartitioner::localIn(Value global, const Layout &layout) {
  if (Value fresh = materializeFresh(global, layout))
    return fresh;
  Value local = mapping.lookup(global);
  auto type = cast<RankedTensorType>(global.getType());
  auto it = layouts.find(global);
  Layout from =
      it == layouts.end() ? Layout::replicated(type.getRank()) : it->second;
  if (from == layout)
    return local;
  // An argument split unevenly was also passed whole in those dimensions:
  // other layouts are cut from that.
  if (auto boundary = boundaryBlocks.find(global);
      boundary != boundaryBlocks.end()) {
    std::tie(local, from) = boundary->second;
    if (from == layout)
      return local;
  }
  // One reshard per (block, layouts): collectives have side effects, so CSE
  // would not merge repeated ones. A block made in an enclosing region is
  // visible here; one made inside a loop or branch body is not visible after
  // it.
  // The key names the source layout too: one block can stand for several
  // global values in different layouts (a shard_map yielding one value
  // under two out_specs), and their reshards differ.
  auto key = std::make_pair(local.getAsOpaquePointer(),
                            from.str() + " -> " + layout.str());
  auto cached = reshardCache.find(key);
  if (cached != reshardCache.end() &&
      cached->second.getParentRegion()->isAncestor(
          b.getInsertionBlock()->getParent()))
    return cached->second;
  Block *block = b.getInsertionBlock();
  Operation *before = b.getInsertionPoint() == block->begin()
                          ? nullptr
                          : &*std::prev(b.getInsertionPoint());
  Value result = resharder.reshard(global.getLoc(), local, type, from, layout);
  reshardCache[key] = result;
  if (reshardLog) {
    Block::iterator first =
        before ? std::next(before->getIterator()) : block->begin();
    logReshard(global, from, layout,
               llvm::make_range(first, b.getInsertionPoint()));
  }
  return result;
}

Value FunctionPartitioner::materializeFresh(Value global,
                                            const Layout &layout) {
  if (!isEmptyOrFillOfEmpty(global) || !layout.unreduced.empty())
    return {};
  auto type = cast<RankedTensorType>(global.getType());
  RankedTensorType local = resharder.localType(type, layout);
  if (global.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, global.getLoc(), local.getShape(),
                                   local.getElementType());
  auto fill = global.getDefiningOp<linalg::FillOp>();
  Value init = materializeFresh(fill.getOutputs()[0], layout);
  return linalg::FillOp::create(b, global.getLoc(),
                                mapping.lookupOrDefault(fill.getInputs()[0]),
                                init)
      .getResult(0);
}

void FunctionPartitioner::withCapturedWhole(Operation *op,
                                            function_ref<void()> build) {
  // A gather written as tensor.extract in a linalg.generic body reads the
  // whole (replicated) tensor, never the local block.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  SmallVector<std::pair<Value, Value>> saved;
  for (Value value : captured) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !mapping.contains(value))
      continue;
    saved.emplace_back(value, mapping.lookup(value));
    mapping.map(value, localIn(value, Layout::replicated(type.getRank())));
  }
  build();
  for (auto [value, local] : saved)
    mapping.map(value, local);
}

Operation *FunctionPartitioner::cloneOn(Operation *op, ValueRange operands) {
  Operation *clone = nullptr;
  withCapturedWhole(op, [&] {
    clone = cloneOnLocal(b, op, operands, op->getResultTypes(), mapping);
  });
  return clone;
}

/// The `trellis.sharding_origin` propagation wrote for `value`, if any.
static std::string originText(Value value) {
  StringAttr origin;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      origin = func.getArgAttrOfType<StringAttr>(
          arg.getArgNumber(), TrellisDialect::kShardingOriginAttrName);
  } else {
    auto result = cast<OpResult>(value);
    Attribute attr =
        result.getOwner()->getAttr(TrellisDialect::kShardingOriginAttrName);
    if (auto array = dyn_cast_or_null<ArrayAttr>(attr))
      attr = array[result.getResultNumber()];
    origin = dyn_cast_or_null<StringAttr>(attr);
  }
  return origin ? origin.str() : std::string();
}

void FunctionPartitioner::logReshard(
    Value global, const Layout &from, const Layout &to,
    llvm::iterator_range<Block::iterator> created) {
  ReshardEntry entry;
  if (auto arg = dyn_cast<BlockArgument>(global)) {
    entry.value = isa<func::FuncOp>(arg.getOwner()->getParentOp())
                      ? "argument #" + std::to_string(arg.getArgNumber())
                      : "a region argument";
  } else {
    Operation *def = global.getDefiningOp();
    entry.value = def->getName().getStringRef().str() + " at " +
                  formatShortLocation(def->getLoc());
    if (def->getNumResults() > 1)
      entry.value += " (result #" +
                     std::to_string(cast<OpResult>(global).getResultNumber()) +
                     ")";
  }
  entry.consumer = consumer
                       ? consumer->getName().getStringRef().str() + " at " +
                             formatShortLocation(consumer->getLoc())
                       : "result #" + std::to_string(returning);
  entry.from = from.str();
  entry.to = to.str();
  entry.has = originText(global);
  if (consumer && consumer->getNumResults() > 0)
    entry.wanted = originText(consumer->getResult(0));
  if (!consumer && returning >= 0)
    entry.wanted =
        func.getResultAttr(returning, TrellisDialect::kShardingAttrName)
            ? "the sharding of result #" + std::to_string(returning)
            : "a replicated result #" + std::to_string(returning);
  for (Operation &op : created)
    entry.ops.push_back(&op);
  reshardLog->push_back(std::move(entry));
}

void FunctionPartitioner::finishReshardLog() {
  if (!reshardLog)
    return;
  std::vector<ReshardEntry> kept;
  for (ReshardEntry &entry : *reshardLog) {
    // Reshards the partitioner erased unread did not happen.
    if (!entry.ops.empty() && llvm::none_of(entry.ops, [&](Operation *op) {
          return resharder.holds(op);
        }))
      continue;
    for (Operation *op : entry.ops)
      if (resharder.holds(op))
        if (auto collective = dyn_cast<spmd::CollectiveOpInterface>(op)) {
          entry.bytes += collective.getBytesSentPerDevice();
          entry.collectives.push_back(op->getName().getStringRef().str());
        }
    entry.ops.clear();
    kept.push_back(std::move(entry));
  }
  *reshardLog = std::move(kept);
}
