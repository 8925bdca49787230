//===- Partition.cpp - Global view to one fully-manual shard_map ----------===//
//
// Each function with shardings becomes `spmd.shard_map` over all mesh axes.
// The body is built op by op: every global value has a local block and the
// Layout that block has; an op's sharding rule says which layout each
// operand must have for the op to run locally, the Resharder moves blocks
// there, and the op is re-emitted on local shapes.
//
// This file holds the pass, the function-level driver and the dispatch of
// each op by kind; FunctionPartitioner.h lists the files for the rest.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"
#include "trellis/Conversion/Passes.h"

#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/Interfaces/SliceUtils.h"
#include "trellis/Transforms/Spmd/Transpose.h"
#include "trellis/Transforms/Spmd/VarianceInference.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SaveAndRestore.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISPARTITION
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

/// Ops whose regions are cloned whole (not partitioned op by op) may hold
/// only code with global meaning on whole tensors: nothing of Trellis's own
/// dialects but position queries, and no sharded types.
static LogicalResult checkClonedWhole(Operation *op) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (inner == op)
      return WalkResult::advance();
    StringRef dialect = inner->getName().getDialectNamespace();
    bool sharded = llvm::any_of(inner->getResultTypes(), [](Type t) {
      return static_cast<bool>(getShardingEncoding(t));
    });
    // Position queries mean the same after partitioning (they can only
    // name manual axes of an enclosing shard_map).
    if (spmd::isAxisQuery(inner))
      return WalkResult::advance();
    if (dialect == "trellis" || dialect == "spmd" || sharded ||
        inner->hasAttr(TrellisDialect::kShardingAttrName)) {
      op->emitOpError("has regions the partitioner clones whole, so it "
                      "cannot partition ")
              .attachNote(inner->getLoc())
          << "'" << inner->getName() << "' here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult FunctionPartitioner::partitionBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(partitionOp(&op)))
      return failure();
  return success();
}

LogicalResult FunctionPartitioner::partitionOp(Operation *op) {
  llvm::SaveAndRestore<Operation *> reshardsFor(consumer, op);
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
    Layout to = desiredLayout(constraint.getResult());
    setLocal(constraint.getResult(), localIn(constraint.getInput(), to), to);
    return success();
  }
  if (auto barrier = dyn_cast<PropagationBarrierOp>(op)) {
    Layout to = desiredLayout(barrier.getResult());
    setLocal(barrier.getResult(), localIn(barrier.getInput(), to), to);
    return success();
  }
  // Groups only steered propagation.
  if (isa<ShardingGroupOp>(op))
    return success();
  if (auto reshard = dyn_cast<ReshardOp>(op)) {
    Layout to = desiredLayout(reshard.getResult());
    setLocal(reshard.getResult(), localIn(reshard.getInput(), to), to);
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return partitionFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return partitionIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return partitionWhile(whileOp);
  if (auto map = dyn_cast<spmd::ShardMapOp>(op))
    return partitionShardMap(map);
  if (isa<AutoAxesOp, ExplicitAxesOp>(op))
    return partitionAxisRegion(op);
  if (isa<CallOpInterface>(op) &&
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>))
    return op->emitOpError(
        "calls a function on tensors; the partitioner works within one "
        "function, so inline calls first (trellis-global-to-manual does; "
        "recursive and external callees cannot be partitioned)");
  bool hasTensors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  if (op->getNumRegions() && failed(checkClonedWhole(op)))
    return failure();
  if (!hasTensors) {
    cloneOn(op, llvm::map_to_vector(op->getOperands(), [&](Value v) {
              return mapping.lookupOrDefault(v);
            }));
    return success();
  }
  if (op->getNumRegions() && !isa<linalg::LinalgOp, tensor::PadOp>(op))
    return op->emitOpError("has regions the partitioner does not know how to "
                           "partition");
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    FailureOr<bool> rolled = partitionRoll(concat);
    if (failed(rolled))
      return failure();
    if (*rolled)
      return success();
    FailureOr<bool> routed = partitionSplitConcat(concat);
    if (failed(routed))
      return failure();
    if (*routed)
      return success();
  }
  FailureOr<ShardingRule> rule = getShardingRule(op);
  if (succeeded(rule) && rule->operands.size() == op->getNumOperands() &&
      rule->results.size() == op->getNumResults())
    return partitionRuleOp(op, *rule);
  return partitionFallback(op);
}

static SpecAttr specOf(MLIRContext *ctx, const Layout &layout) {
  SmallVector<DimShardingAttr> dims;
  for (const auto &axes : layout.dims)
    dims.push_back(DimShardingAttr::get(ctx, axes));
  return SpecAttr::get(ctx, dims);
}

/// Scalars (integers, floats, index) cross the shard_map as replicated 0-d
/// tensors: every device gets the same value.
static bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// `type` as the shard_map carries it: a scalar as a 0-d tensor.
static Type asTensor(Type type) {
  if (isa<RankedTensorType>(type))
    return type;
  return RankedTensorType::get({}, type);
}

FailureOr<SmallVector<Layout>>
FunctionPartitioner::argumentLayouts(Block &oldBody) {
  SmallVector<Layout> argLayouts;
  for (BlockArgument arg : oldBody.getArguments()) {
    if (isScalar(arg.getType())) {
      argLayouts.push_back(Layout::replicated(0));
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return func.emitOpError("argument #")
             << arg.getArgNumber()
             << " is neither a ranked tensor nor a scalar; the partitioner "
                "takes tensors, integers, floats and indices";
    // A dimension split unevenly crosses the shard_map whole (its specs
    // must divide); each device pads and slices its block inside.
    Layout layout = resharder.evenPart(type, desiredLayout(arg));
    if (!layout.unreduced.empty() || !resharder.divides(type, layout))
      return func.emitOpError("argument #")
             << arg.getArgNumber() << " cannot be laid out as " << layout.str();
    argLayouts.push_back(layout);
  }
  return argLayouts;
}

FailureOr<SmallVector<Layout>>
FunctionPartitioner::returnLayouts(func::ReturnOp ret) {
  SmallVector<Layout> resultLayouts;
  for (auto [j, value] : llvm::enumerate(ret.getOperands())) {
    if (isScalar(value.getType())) {
      resultLayouts.push_back(Layout::replicated(0));
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return ret.emitOpError("result #")
             << j
             << " is neither a ranked tensor nor a scalar; the partitioner "
                "takes tensors, integers, floats and indices";
    ShardingAttr declared = func.getResultAttrOfType<ShardingAttr>(
        j, TrellisDialect::kShardingAttrName);
    if (!declared)
      declared = getShardingEncoding(func.getResultTypes()[j]);
    if (!declared)
      declared = declaredSharding(value);
    Layout layout = resharder.evenPart(
        type, Layout::fromSharding(declared, type.getRank()));
    layout.unreduced.clear();
    if (!resharder.divides(type, layout))
      layout = Layout::replicated(type.getRank());
    resultLayouts.push_back(layout);
  }
  return resultLayouts;
}

spmd::ShardMapOp
FunctionPartitioner::createShardMap(Block *entry, Block &oldBody,
                                    ArrayRef<Layout> argLayouts,
                                    ArrayRef<Layout> resultLayouts) {
  MLIRContext *ctx = func.getContext();
  SmallVector<Attribute> inSpecs, outSpecs;
  for (const Layout &layout : argLayouts)
    inSpecs.push_back(specOf(ctx, layout));
  for (const Layout &layout : resultLayouts)
    outSpecs.push_back(specOf(ctx, layout));
  for (BlockArgument arg : oldBody.getArguments())
    entry->addArgument(arg.getType(), arg.getLoc());
  b.setInsertionPointToStart(entry);
  SmallVector<Value> inputs;
  for (BlockArgument arg : entry->getArguments())
    inputs.push_back(
        isScalar(arg.getType())
            ? tensor::FromElementsOp::create(
                  b, arg.getLoc(), asTensor(arg.getType()), ValueRange{arg})
                  .getResult()
            : Value(arg));
  SmallVector<Type> mapResultTypes =
      llvm::map_to_vector(func.getResultTypes(), asTensor);
  auto map = spmd::ShardMapOp::create(
      b, func.getLoc(), mapResultTypes,
      FlatSymbolRefAttr::get(mesh.getSymNameAttr()), b.getArrayAttr(inSpecs),
      b.getArrayAttr(outSpecs), /*manual_axes=*/ArrayAttr(),
      /*check_vma=*/b.getBoolAttr(false), inputs);
  Block *body = new Block();
  map.getBody().push_back(body);
  b.setInsertionPointToStart(body);
  for (auto [k, arg] : llvm::enumerate(oldBody.getArguments())) {
    if (isScalar(arg.getType())) {
      Value block = body->addArgument(asTensor(arg.getType()), arg.getLoc());
      mapping.map(
          arg, tensor::ExtractOp::create(b, arg.getLoc(), block, ValueRange())
                   .getResult());
      continue;
    }
    auto type = cast<RankedTensorType>(arg.getType());
    Value local = body->addArgument(resharder.localType(type, argLayouts[k]),
                                    arg.getLoc());
    setLocal(arg, local, argLayouts[k]);
    // An argument split unevenly is cut into its blocks at once (no
    // communication), so that ops compute on them; the whole one stays at
    // hand for readers that want it whole.
    Layout want = desiredLayout(arg);
    if (want != argLayouts[k]) {
      boundaryBlocks[arg] = {local, argLayouts[k]};
      setLocal(
          arg,
          resharder.reshard(arg.getLoc(), local, type, argLayouts[k], want),
          want);
    }
  }
  return map;
}

LogicalResult FunctionPartitioner::run() {
  Block &oldBody = func.getBody().front();
  auto ret = cast<func::ReturnOp>(oldBody.getTerminator());

  // in_specs from the arguments, out_specs from the results.
  FailureOr<SmallVector<Layout>> argLayouts = argumentLayouts(oldBody);
  if (failed(argLayouts))
    return failure();
  FailureOr<SmallVector<Layout>> resultLayouts = returnLayouts(ret);
  if (failed(resultLayouts))
    return failure();

  // The new body: one shard_map over every axis.
  Block *entry = new Block();
  spmd::ShardMapOp map =
      createShardMap(entry, oldBody, *argLayouts, *resultLayouts);
  if (failed(partitionBlock(oldBody))) {
    delete entry;
    return failure();
  }
  SmallVector<Value> yields;
  for (auto [j, value] : llvm::enumerate(ret.getOperands())) {
    returning = j;
    yields.push_back(isScalar(value.getType())
                         ? tensor::FromElementsOp::create(
                               b, ret.getLoc(), asTensor(value.getType()),
                               ValueRange{mapping.lookupOrDefault(value)})
                               .getResult()
                         : localIn(value, (*resultLayouts)[j]));
  }
  spmd::YieldOp::create(b, ret.getLoc(), yields);
  if (resharder.failed) {
    delete entry;
    return failure();
  }
  resharder.eraseUnusedReshards(map);
  b.setInsertionPointToEnd(entry);
  SmallVector<Value> results;
  for (auto [j, result] : llvm::enumerate(map.getResults()))
    results.push_back(
        isScalar(func.getResultTypes()[j])
            ? tensor::ExtractOp::create(b, ret.getLoc(), result, ValueRange())
                  .getResult()
            : result);
  func::ReturnOp::create(b, ret.getLoc(), results);

  // Swap the bodies.
  oldBody.dropAllDefinedValueUses();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(oldBody)))
    op.dropAllReferences();
  func.getBody().getBlocks().clear();
  func.getBody().push_back(entry);
  finishReshardLog();
  return success();
}

namespace {

/// Whether the function already is one fully-manual shard_map.
bool isPartitioned(func::FuncOp func) {
  spmd::ShardMapOp map = spmd::getWholeFunctionShardMap(func);
  if (!map)
    return false;
  // Shardings the function declares must be over the shard_map's mesh.
  auto sameMesh = [&](ShardingAttr s) {
    return !s || s.getMesh() == map.getMeshAttr();
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (!sameMesh(func.getArgAttrOfType<ShardingAttr>(
            i, TrellisDialect::kShardingAttrName)))
      return false;
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (!sameMesh(func.getResultAttrOfType<ShardingAttr>(
            i, TrellisDialect::kShardingAttrName)))
      return false;
  return true;
}

/// Seed 001's check for the shard_maps a global function embeds: the
/// partitioner inlines their bodies into its own (unchecked) shard_map, so
/// an output that varies over an axis its out_spec omits would silently keep
/// one device's block. Each outermost shard_map is typed on a throw-away
/// copy (the inference rewrites types), as trellis-run types a manual entry.
LogicalResult checkEmbeddedShardMaps(func::FuncOp func) {
  SmallVector<spmd::ShardMapOp> maps;
  func.walk<WalkOrder::PreOrder>([&](spmd::ShardMapOp map) {
    maps.push_back(map);
    return WalkResult::skip();
  });
  for (spmd::ShardMapOp map : maps) {
    if (!map.getCheckVma())
      continue;
    OpBuilder b(map);
    auto copy = cast<spmd::ShardMapOp>(b.clone(*map));
    LogicalResult typed = spmd::inferVariance(copy, spmd::VarianceOptions());
    copy.erase();
    if (failed(typed))
      return failure(); // the inference explained why, at the copy's location
  }
  return success();
}

/// The `report-reshards` text of one function.
void printReshards(func::FuncOp func, MeshOp mesh, ArrayRef<ReshardEntry> log,
                   raw_ostream &os) {
  os << "// reshards @" << func.getSymName() << " (mesh @" << mesh.getSymName()
     << ", " << mesh.getNumDevices() << " devices)\n";
  int64_t total = 0;
  for (const ReshardEntry &entry : log) {
    os << "//   " << entry.value << ": " << entry.from << " -> " << entry.to
       << " for " << entry.consumer << ": ";
    if (entry.collectives.empty())
      os << "local slicing, 0 B\n";
    else
      os << llvm::join(entry.collectives, ", ") << ", " << entry.bytes
         << " B per device\n";
    if (!entry.has.empty())
      os << "//     has:    " << entry.has << "\n";
    if (!entry.wanted.empty())
      os << "//     wanted: " << entry.wanted << "\n";
    total += entry.bytes;
  }
  os << "//   total: " << log.size()
     << (log.size() == 1 ? " reshard, " : " reshards, ") << total
     << " B per device\n";
}

struct PartitionPass
    : mlir::trellis::impl::TrellisPartitionBase<PartitionPass> {
  using TrellisPartitionBase::TrellisPartitionBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(refineMeshes(module)))
      return signalPassFailure();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() ||
          func->hasAttr(spmd::SpmdDialect::kMeshAttrName) ||
          isPartitioned(func))
        continue;
      FailureOr<MeshOp> mesh = findFunctionMesh(func);
      if (failed(mesh))
        return signalPassFailure();
      if (!*mesh)
        continue;
      if (!func.getBody().hasOneBlock()) {
        func.emitOpError("has several blocks; the partitioner takes "
                         "structured control flow (scf) only");
        return signalPassFailure();
      }
      if (failed(checkEmbeddedShardMaps(func)))
        return signalPassFailure();
      // Such a slice verifies (wrapping arithmetic) and has no rule, so it
      // would stay whole and read or write outside its tensor when run.
      if (failed(verifyStaticSliceBounds(func)))
        return signalPassFailure();
      // The bodies it inlines take plain local blocks for their arguments;
      // device-variance types (checked above) would no longer match them.
      spmd::stripVarianceInside(func, /*keepArguments=*/false);
      FunctionPartitioner partitioner(func, *mesh);
      std::vector<ReshardEntry> log;
      if (reportReshards)
        partitioner.logReshardsTo(&log);
      if (failed(partitioner.run()))
        return signalPassFailure();
      if (reportReshards)
        printReshards(func, *mesh, log, llvm::outs());
    }
  }
};

} // namespace
