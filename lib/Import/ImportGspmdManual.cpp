//===- ImportGspmdManual.cpp - GSPMD manual regions as shard_maps ---------===//
//
// Before Shardy, JAX lowered a `shard_map` to a manual region that no op
// delimits:
//
//   %s = custom_call @Sharding(%x) {mhlo.sharding = "{devices=[2,4]<=[8]}"}
//   %l = custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = "{manual}"}
//   %r = call @shmap_body(%l)             // per-device code, collectives
//   %m = custom_call @Sharding(%r) {mhlo.sharding = "{manual}"}
//   %y = custom_call @SPMDShardToFullShape(%m) {mhlo.sharding = "..."}
//
// Every op that depends on a @SPMDFullToShardShape result, up to the
// @SPMDShardToFullShape ops that read it, is per-device code. The outliner
// groups those ops into connected components and moves each into one
// spmd.shard_map (in_specs from the @Sharding before each entry, out_specs
// from each exit's own sharding), inlining the calls it makes so that the
// collectives inside them are imported within the shard_map. It runs before
// any op is imported: the body is still StableHLO.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Importer.h"

#include "dialects/spmd/IR/SpmdOps.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

static constexpr StringLiteral kMhloSharding = "mhlo.sharding";
static constexpr StringLiteral kFullToShard = "SPMDFullToShardShape";
static constexpr StringLiteral kShardToFull = "SPMDShardToFullShape";

bool mlir::trellis::import::isGspmdManualText(StringRef text) {
  return text.trim() == "{manual}";
}

static bool isCustomCall(Operation *op, StringRef target) {
  auto call = dyn_cast_or_null<hlo::CustomCallOp>(op);
  return call && call.getCallTargetName() == target;
}

/// One manual region: its entries, the ops between, its exits.
struct mlir::trellis::import::ManualRegion {
  SmallVector<hlo::CustomCallOp> entries;
  SmallVector<Operation *> ops; // block order
  SmallVector<hlo::CustomCallOp> exits;
};

/// The op of `block` that holds `op` (itself or an ancestor), or null.
static Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Groups the manual ops of `block` into regions: an op joins the region of
/// every entry it depends on.
static FailureOr<SmallVector<ManualRegion>>
findManualRegions(Block &block, ArrayRef<hlo::CustomCallOp> entries) {
  llvm::EquivalenceClasses<Operation *> classes;
  llvm::SetVector<Operation *> manual; // entries and body ops
  SmallVector<hlo::CustomCallOp> exits;
  llvm::SmallPtrSet<Operation *, 8> exitSet;
  SmallVector<Operation *> work;
  for (hlo::CustomCallOp entry : entries) {
    classes.insert(entry);
    manual.insert(entry);
    work.push_back(entry);
  }
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Operation *user : op->getUsers()) {
      Operation *owner = ancestorIn(&block, user);
      if (!owner)
        return user->emitError("a per-device value of a GSPMD manual region "
                               "is used outside its block");
      if (owner->hasTrait<OpTrait::IsTerminator>())
        return owner->emitError("returns a per-device value of a GSPMD manual "
                                "region without @SPMDShardToFullShape");
      if (isCustomCall(owner, kFullToShard))
        return owner->emitError("@SPMDFullToShardShape of a value that is "
                                "already per-device (nested manual regions "
                                "are not supported)");
      classes.unionSets(op, owner);
      if (isCustomCall(owner, kShardToFull)) {
        if (exitSet.insert(owner).second)
          exits.push_back(cast<hlo::CustomCallOp>(owner));
        continue;
      }
      if (manual.insert(owner))
        work.push_back(owner);
    }
  }
  // Regions in the order of their first op.
  SmallVector<ManualRegion> regions;
  llvm::DenseMap<Operation *, size_t> regionOf;
  auto regionFor = [&](Operation *op) -> ManualRegion & {
    Operation *leader = classes.getLeaderValue(op);
    auto [it, inserted] = regionOf.try_emplace(leader, regions.size());
    if (inserted)
      regions.emplace_back();
    return regions[it->second];
  };
  for (Operation &op : block) {
    if (isCustomCall(&op, kShardToFull) && exitSet.contains(&op))
      regionFor(&op).exits.push_back(cast<hlo::CustomCallOp>(op));
    else if (isCustomCall(&op, kFullToShard) && manual.contains(&op))
      regionFor(&op).entries.push_back(cast<hlo::CustomCallOp>(op));
    else if (manual.contains(&op))
      regionFor(&op).ops.push_back(&op);
  }
  return regions;
}

LogicalResult
mlir::trellis::import::inlineCalls(Operation *root, ModuleOp module,
                                   llvm::SetVector<func::FuncOp> &inlined,
                                   StringRef where) {
  for (int depth = 0;; ++depth) {
    SmallVector<func::CallOp> calls;
    root->walk([&](func::CallOp call) { calls.push_back(call); });
    if (calls.empty())
      return success();
    if (depth == 64)
      return calls.front().emitError("calls nested more than 64 deep in ")
             << where;
    for (func::CallOp call : calls) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (!callee || callee.isExternal())
        return call.emitError("calls ")
               << call.getCalleeAttr() << ", which has no body to inline";
      OpBuilder b(call);
      call->replaceAllUsesWith(cloneBody(b, callee, call.getOperands()));
      call.erase();
      inlined.insert(callee);
    }
  }
}

/// The spec of `text` (a tiled or replicated GSPMD string) on `type`.
FailureOr<Attribute> Importer::gspmdSpec(Location loc, StringRef text,
                                         Type type) {
  FailureOr<ShardingAttr> sharding = gspmdSharding(loc, text, type);
  if (failed(sharding))
    return failure();
  if (!*sharding) // no mesh: every dimension whole
    return Attribute(SpecAttr::get(b.getContext(), {}));
  return Attribute(SpecAttr::get(b.getContext(), sharding->getDims()));
}

/// Checks that `local` is `global` cut by `spec`.
LogicalResult Importer::checkLocalShape(Operation *op, Attribute spec,
                                        Type global, Type local) {
  auto globalType = dyn_cast<RankedTensorType>(global);
  auto localType = dyn_cast<RankedTensorType>(local);
  if (!globalType || !localType)
    return op->emitError("needs ranked tensors");
  SmallVector<int64_t> expected(globalType.getShape());
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(module, gspmdMesh);
  for (auto [d, dim] : llvm::enumerate(cast<SpecAttr>(spec).getDims()))
    expected[d] /= mesh.getAxesSize(dim.getAxes());
  if (localType.getShape() != ArrayRef<int64_t>(expected) ||
      localType.getElementType() != globalType.getElementType())
    return op->emitError("per-device type ")
           << local << " is not a block of " << global << " under its sharding";
  return success();
}

LogicalResult Importer::outlineRegion(ManualRegion &region,
                                      llvm::SetVector<func::FuncOp> &inlined) {
  Location loc = region.entries.front().getLoc();
  if (region.exits.empty())
    return region.entries.front().emitError(
        "GSPMD manual region has no @SPMDShardToFullShape: its values never "
        "leave it");
  SmallVector<Attribute> inSpecs, outSpecs;
  SmallVector<Value> inputs;
  for (hlo::CustomCallOp entry : region.entries) {
    if (entry->getNumOperands() != 1 || entry->getNumResults() != 1)
      return entry.emitError("@SPMDFullToShardShape takes one tensor");
    Value input = entry->getOperand(0);
    auto sharding = dyn_cast_or_null<hlo::CustomCallOp>(input.getDefiningOp());
    auto text = sharding && sharding.getCallTargetName() == "Sharding"
                    ? sharding->getAttrOfType<StringAttr>(kMhloSharding)
                    : StringAttr();
    if (!text)
      return entry.emitError("the operand of @SPMDFullToShardShape must be a "
                             "@Sharding custom call giving its sharding");
    FailureOr<Attribute> spec =
        gspmdSpec(sharding.getLoc(), text.getValue(), input.getType());
    if (failed(spec) || failed(checkLocalShape(entry, *spec, input.getType(),
                                               entry->getResult(0).getType())))
      return failure();
    inSpecs.push_back(*spec);
    inputs.push_back(input);
  }
  SmallVector<Type> resultTypes;
  for (hlo::CustomCallOp exit : region.exits) {
    auto text = exit->getAttrOfType<StringAttr>(kMhloSharding);
    if (exit->getNumOperands() != 1 || exit->getNumResults() != 1 || !text)
      return exit.emitError("@SPMDShardToFullShape takes one tensor and an "
                            "mhlo.sharding string");
    Type global = exit->getResult(0).getType();
    FailureOr<Attribute> spec =
        gspmdSpec(exit.getLoc(), text.getValue(), global);
    if (failed(spec) || failed(checkLocalShape(exit, *spec, global,
                                               exit->getOperand(0).getType())))
      return failure();
    outSpecs.push_back(*spec);
    resultTypes.push_back(global);
  }
  // The shard_map goes after the region's last op; nothing before it may
  // read an exit.
  Operation *last = region.ops.empty() ? region.entries.back().getOperation()
                                       : region.ops.back();
  for (hlo::CustomCallOp entry : region.entries)
    if (last->isBeforeInBlock(entry))
      last = entry;
  for (hlo::CustomCallOp exit : region.exits)
    for (Operation *user : exit->getUsers()) {
      Operation *owner = ancestorIn(exit->getBlock(), user);
      if (owner && !last->isBeforeInBlock(owner))
        return user->emitError("reads the result of a GSPMD manual region "
                               "before the region's last op; the region "
                               "cannot be made one shard_map");
    }
  b.setInsertionPointAfter(last);
  auto map = spmd::ShardMapOp::create(
      b, loc, resultTypes, gspmdMesh, b.getArrayAttr(inSpecs),
      b.getArrayAttr(outSpecs), ArrayAttr(), b.getBoolAttr(true), inputs);
  Block *body = b.createBlock(&map.getBody());
  for (hlo::CustomCallOp entry : region.entries) {
    BlockArgument arg =
        body->addArgument(entry->getResult(0).getType(), entry.getLoc());
    entry->getResult(0).replaceAllUsesWith(arg);
  }
  for (Operation *op : region.ops)
    op->moveBefore(body, body->end());
  SmallVector<Value> yields;
  for (hlo::CustomCallOp exit : region.exits)
    yields.push_back(exit->getOperand(0));
  b.setInsertionPointToEnd(body);
  spmd::YieldOp::create(b, loc, yields);
  for (auto [exit, result] : llvm::zip(region.exits, map->getResults())) {
    exit->getResult(0).replaceAllUsesWith(result);
    exit.erase();
  }
  for (hlo::CustomCallOp entry : region.entries)
    entry.erase();
  if (failed(inlineCalls(map, module, inlined, "a GSPMD manual region")))
    return failure();
  // Constants the body reads from outside are cloned in; any other value
  // from outside is not per-device.
  IRMapping cloned;
  WalkResult captured = map.getBody().walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      Operation *def = value.getDefiningOp();
      Region *defRegion = value.getParentRegion();
      if (map.getBody().isAncestor(defRegion))
        continue;
      if (!def || def->getNumOperands() != 0 || def->getNumRegions() != 0 ||
          !isa<hlo::ConstantOp, hlo::IotaOp>(def)) {
        op->emitError("reads a value computed outside its GSPMD manual "
                      "region; per-device code takes values only through "
                      "@SPMDFullToShardShape");
        return WalkResult::interrupt();
      }
      if (!cloned.contains(value)) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(body);
        b.clone(*def, cloned);
      }
      operand.set(cloned.lookup(value));
    }
    return WalkResult::advance();
  });
  return failure(captured.wasInterrupted());
}

LogicalResult Importer::outlineGspmdManualRegions() {
  // Blocks holding entries, in program order.
  llvm::SetVector<Block *> blocks;
  DenseMap<Block *, SmallVector<hlo::CustomCallOp>> entries;
  module.walk([&](hlo::CustomCallOp call) {
    if (call.getCallTargetName() != kFullToShard)
      return;
    blocks.insert(call->getBlock());
    entries[call->getBlock()].push_back(call);
  });
  WalkResult stray = module.walk([&](hlo::CustomCallOp call) {
    if (call.getCallTargetName() != kShardToFull ||
        blocks.contains(call->getBlock()))
      return WalkResult::advance();
    call.emitError("@SPMDShardToFullShape without a matching "
                   "@SPMDFullToShardShape in its block");
    return WalkResult::interrupt();
  });
  if (stray.wasInterrupted())
    return failure();
  if (blocks.empty())
    return success();
  if (!gspmdMesh)
    return entries[blocks.front()].front().emitError(
        "a GSPMD manual region needs a mesh: give mhlo.num_partitions or "
        "tiled mhlo.sharding strings");
  llvm::SetVector<func::FuncOp> inlined;
  for (Block *block : blocks) {
    FailureOr<SmallVector<ManualRegion>> regions =
        findManualRegions(*block, entries[block]);
    if (failed(regions))
      return failure();
    for (ManualRegion &region : *regions)
      if (failed(outlineRegion(region, inlined)))
        return failure();
  }
  // Bodies inlined everywhere they were called are dropped: imported on
  // their own, their collectives would be outside a shard_map.
  for (func::FuncOp func : inlined)
    if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();
  return success();
}
