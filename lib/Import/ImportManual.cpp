//===- ImportManual.cpp - Manual computations and their collectives -------===//
//
// sdy.manual_computation becomes spmd.shard_map; the StableHLO collectives
// in it, over lists of partition ids, become spmd collectives over the mesh
// axes the ids decode to (Collectives.cpp).
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Collectives.h"
#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Transforms/Spmd/VarianceInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

/// The mesh axes of `sharding`, per dimension.
static SmallVector<ArrayRef<StringAttr>>
axesPerDim(sdy::TensorShardingAttr sharding) {
  return llvm::map_to_vector(sharding.getDims(), [](sdy::DimShardingAttr dim) {
    return dim.getAxes();
  });
}

/// Checks, in the terms of `op`'s own attributes, what spmd.shard_map's
/// verifier would check of the op it becomes: each sharding has one
/// dimension per dimension of its tensor and names an axis once, its axes
/// divide the dimensions they split, and the body's arguments and returned
/// values are the blocks the shardings make.
static LogicalResult checkManualShapes(sdy::ManualComputationOp op,
                                       MeshOp mesh) {
  ArrayRef<StringAttr> manual = op.getManualAxes().getAxes();
  // `global` cut by `sharding` (the `kind`[`index`] of value `what`).
  auto blockOf = [&](sdy::TensorShardingAttr sharding, StringRef kind,
                     unsigned index, StringRef what,
                     Type type) -> FailureOr<RankedTensorType> {
    auto global = dyn_cast<RankedTensorType>(type);
    if (!global || !global.hasStaticShape())
      return op.emitOpError() << what << " #" << index
                              << " must be a static tensor, got " << type;
    SmallVector<ArrayRef<StringAttr>> dims = axesPerDim(sharding);
    if (static_cast<int64_t>(dims.size()) != global.getRank())
      return op.emitOpError()
             << kind << "[" << index << "] has " << dims.size()
             << " dimension shardings but " << what << " #" << index
             << " has rank " << global.getRank() << " (" << type << ")";
    llvm::SmallDenseSet<StringAttr> seen;
    SmallVector<int64_t> shape(global.getShape());
    for (auto [d, axes] : llvm::enumerate(dims)) {
      for (StringAttr axis : axes) {
        if (!mesh.getAxisIndex(axis.getValue()))
          continue; // reported with the manual axes
        if (!seen.insert(axis).second)
          return op.emitOpError()
                 << kind << "[" << index << "] names mesh axis \""
                 << axis.getValue() << "\" more than once";
      }
      // The body's blocks are cut by the manual axes only (the others,
      // reported with the manual axes, are not supported yet).
      if (llvm::any_of(axes, [&](StringAttr axis) {
            return !llvm::is_contained(manual, axis);
          }))
        continue;
      int64_t parts = mesh.getAxesSize(axes);
      if (parts <= 0 || shape[d] % parts != 0)
        return op.emitOpError()
               << kind << "[" << index << "] splits dimension " << d << " of "
               << what << " #" << index << " (size " << shape[d] << ") into "
               << parts
               << " blocks, which do not divide it (a manual computation's "
                  "shardings must divide, as in JAX)";
      shape[d] /= parts;
    }
    return RankedTensorType::get(shape, global.getElementType());
  };
  ArrayRef<sdy::TensorShardingAttr> ins = op.getInShardings().getShardings();
  ArrayRef<sdy::TensorShardingAttr> outs = op.getOutShardings().getShardings();
  Block &body = op.getBody().front();
  if (body.getNumArguments() != ins.size())
    return op.emitOpError("has ")
           << ins.size() << " operands but its body takes "
           << body.getNumArguments() << " arguments";
  for (auto [i, sharding] : llvm::enumerate(ins)) {
    FailureOr<RankedTensorType> block = blockOf(
        sharding, "in_shardings", i, "operand", op.getTensors()[i].getType());
    if (failed(block))
      return failure();
    Type arg = body.getArgument(i).getType();
    if (arg != Type(*block))
      return op.emitOpError("body argument #")
             << i << " has type " << arg << ", but in_shardings[" << i
             << "] cuts operand #" << i << " (" << op.getTensors()[i].getType()
             << ") into blocks of type " << *block;
  }
  Operation *ret = body.getTerminator();
  if (ret->getNumOperands() != outs.size())
    return op.emitOpError("has ")
           << outs.size() << " results but its body returns "
           << ret->getNumOperands() << " values";
  for (auto [i, sharding] : llvm::enumerate(outs)) {
    FailureOr<RankedTensorType> block = blockOf(
        sharding, "out_shardings", i, "result", op->getResult(i).getType());
    if (failed(block))
      return failure();
    Type returned = ret->getOperand(i).getType();
    if (returned != Type(*block))
      return op.emitOpError("returns value #")
             << i << " of type " << returned << ", but out_shardings[" << i
             << "] makes result #" << i << " (" << op->getResult(i).getType()
             << ") from blocks of type " << *block;
  }
  return success();
}

FailureOr<SmallVector<Value>>
Importer::importManualComputation(sdy::ManualComputationOp op) {
  ArrayRef<sdy::TensorShardingAttr> ins = op.getInShardings().getShardings();
  ArrayRef<sdy::TensorShardingAttr> outs = op.getOutShardings().getShardings();
  if (ins.size() != op.getTensors().size() ||
      outs.size() != op->getNumResults())
    return op.emitError("needs one in_sharding per operand and one "
                        "out_sharding per result");
  FlatSymbolRefAttr meshName;
  for (sdy::TensorShardingAttr sharding :
       llvm::concat<const sdy::TensorShardingAttr>(ins, outs)) {
    if (meshName && sharding.getMesh() != meshName)
      return op.emitError("in_shardings and out_shardings name meshes ")
             << meshName << " and " << sharding.getMesh();
    meshName = sharding.getMesh();
  }
  if (!meshName)
    return op.emitError("a manual computation without operands or results "
                        "names no mesh");
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(module, meshName);
  if (!mesh)
    return op.emitError("unknown mesh ") << meshName;
  ArrayRef<StringAttr> manual = op.getManualAxes().getAxes();
  for (StringAttr axis : manual)
    if (!mesh.getAxisIndex(axis.getValue()))
      return op.emitError("manual axis \"")
             << axis.getValue() << "\" is not an axis of " << meshName;
  auto toSpec = [&](sdy::TensorShardingAttr sharding) -> FailureOr<Attribute> {
    if (!sharding.getReplicated().empty() || !sharding.getUnreduced().empty())
      return op.emitError("replicated or unreduced axes in a manual "
                          "computation's shardings are not supported yet");
    SmallVector<DimShardingAttr> dims;
    for (sdy::DimShardingAttr dim : sharding.getDims()) {
      for (StringAttr axis : dim.getAxes())
        if (!llvm::is_contained(manual, axis))
          return op.emitError("sharding over non-manual axis \"")
                 << axis.getValue()
                 << "\" in a manual computation is not supported yet";
      dims.push_back(DimShardingAttr::get(b.getContext(), dim.getAxes()));
    }
    return Attribute(SpecAttr::get(b.getContext(), dims));
  };
  SmallVector<Attribute> inSpecs, outSpecs;
  for (sdy::TensorShardingAttr sharding : ins) {
    FailureOr<Attribute> spec = toSpec(sharding);
    if (failed(spec))
      return failure();
    inSpecs.push_back(*spec);
  }
  for (sdy::TensorShardingAttr sharding : outs) {
    FailureOr<Attribute> spec = toSpec(sharding);
    if (failed(spec))
      return failure();
    outSpecs.push_back(*spec);
  }
  if (failed(checkManualShapes(op, mesh)))
    return failure();
  ArrayAttr manualAxes;
  if (manual.size() != mesh.getNumAxes()) {
    SmallVector<Attribute> names;
    for (Attribute name : mesh.getAxisNames())
      if (llvm::is_contained(manual, cast<StringAttr>(name)))
        names.push_back(name);
    manualAxes = b.getArrayAttr(names);
  }
  // JAX checked the body's replication; Trellis checks it again, so an
  // unmapped out_sharding on a varying value is an error, not one device's
  // block.
  auto map = spmd::ShardMapOp::create(b, op.getLoc(), op->getResultTypes(),
                                      meshName, b.getArrayAttr(inSpecs),
                                      b.getArrayAttr(outSpecs), manualAxes,
                                      b.getBoolAttr(true), op.getTensors());
  map.getBody().takeBody(op.getBody());
  Block &body = map.getBodyBlock();
  auto ret = cast<sdy::ReturnOp>(body.getTerminator());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ret);
  spmd::YieldOp::create(b, ret.getLoc(), ret.getResults());
  ret.erase();
  return SmallVector<Value>(map->getResults());
}

LogicalResult Importer::inlineManualCalls() {
  SmallVector<sdy::ManualComputationOp> outermost;
  module.walk<WalkOrder::PreOrder>([&](sdy::ManualComputationOp op) {
    outermost.push_back(op);
    return WalkResult::skip();
  });
  llvm::SetVector<func::FuncOp> callees;
  for (sdy::ManualComputationOp op : outermost)
    if (failed(inlineCalls(op, module, callees, "a manual computation")))
      return failure();
  // Private callees no call is left to are dropped: imported on their own,
  // their collectives would be outside a manual computation. One called
  // only by other dropped callees goes too.
  SmallVector<func::FuncOp> inlined(callees.begin(), callees.end());
  for (bool erasedOne = true; erasedOne;) {
    erasedOne = false;
    for (func::FuncOp &func : inlined) {
      if (!func || !func.isPrivate() ||
          !SymbolTable::symbolKnownUseEmpty(func, module))
        continue;
      func.erase();
      func = nullptr;
      erasedOne = true;
    }
  }
  return success();
}

/// Whether `mesh` numbers its devices other than row-major.
static bool hasDeviceOrder(MeshOp mesh) {
  std::optional<ArrayRef<int64_t>> ids = mesh.getDeviceIds();
  return ids && !llvm::equal(*ids, llvm::seq<int64_t>(0, ids->size()));
}

/// The reduction a collective's region applies: one add, max or min of the
/// two arguments.
static FailureOr<StringRef> regionReduction(Operation *op, Region &region) {
  Block &block = region.front();
  auto fail = [&]() {
    return op->emitError("the reduction must be one stablehlo.add, "
                         "maximum or minimum of the two arguments");
  };
  if (block.getNumArguments() != 2 || !llvm::hasNItems(block, 2))
    return fail();
  Operation &combine = block.front();
  auto ret = dyn_cast<hlo::ReturnOp>(block.back());
  if (!ret || ret->getNumOperands() != 1 ||
      ret->getOperand(0).getDefiningOp() != &combine ||
      combine.getNumOperands() != 2 ||
      !llvm::is_contained(combine.getOperands(), block.getArgument(0)) ||
      !llvm::is_contained(combine.getOperands(), block.getArgument(1)))
    return fail();
  if (isa<hlo::AddOp>(combine))
    return StringRef("sum");
  if (isa<hlo::MaximumOp, hlo::MinimumOp>(combine) && wasUnsigned(&combine, 0))
    return op->emitError("max and min reductions of unsigned integers are "
                         "not supported yet");
  if (isa<hlo::MaximumOp>(combine))
    return StringRef("max");
  if (isa<hlo::MinimumOp>(combine))
    return StringRef("min");
  return fail();
}

namespace {
/// Emits the spmd collectives of one StableHLO collective `op` inside a
/// shard_map manual over `manual`, its replica groups decoded to axes of
/// `mesh`. A collective over no axis is the identity.
struct CollectiveEmitter {
  OpBuilder &b;
  Operation *op;
  MeshOp mesh;
  SmallVector<StringAttr> manual;
  Location loc;

  ArrayAttr axesAttr(ArrayRef<StringAttr> axes) {
    return b.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));
  }
  FailureOr<SmallVector<StringAttr>> groupsOf(Attribute attr) {
    return decodeReplicaGroups(op, mesh, manual,
                               cast<DenseIntElementsAttr>(attr));
  }

  /// Checks that `name` (an attribute of the op) is a dimension of `type`.
  LogicalResult checkDim(StringRef name, int64_t dim, Type type) {
    auto tensor = cast<RankedTensorType>(type);
    if (dim < 0 || dim >= tensor.getRank())
      return op->emitOpError() << name << " " << dim
                               << " is out of range for operand type " << type;
    return success();
  }
  /// Checks that result #`index` has `shape` (what `how` makes of the
  /// operand) and the operand's element type.
  LogicalResult checkResult(unsigned index, Value operand,
                            ArrayRef<int64_t> shape, const Twine &how) {
    auto expected = cast<RankedTensorType>(operand.getType()).clone(shape);
    Type actual = op->getResult(index).getType();
    if (actual != Type(expected))
      return op->emitOpError("result #")
             << index << " has type " << actual << ", but " << how
             << " makes it " << Type(expected);
    return success();
  }

  FailureOr<SmallVector<Value>> allReduce(hlo::AllReduceOp allReduce);
  FailureOr<SmallVector<Value>> allGather(hlo::AllGatherOp gather);
  FailureOr<SmallVector<Value>> reduceScatter(hlo::ReduceScatterOp scatter);
  FailureOr<SmallVector<Value>> allToAll(hlo::AllToAllOp allToAll);
  FailureOr<SmallVector<Value>> permute(hlo::CollectivePermuteOp permute);
};
} // namespace

FailureOr<SmallVector<Value>>
CollectiveEmitter::allReduce(hlo::AllReduceOp allReduce) {
  FailureOr<StringRef> kind = regionReduction(op, allReduce.getComputation());
  if (failed(kind))
    return failure();
  FailureOr<SmallVector<StringAttr>> axes =
      groupsOf(allReduce.getReplicaGroups());
  if (failed(axes))
    return failure();
  if (allReduce->getNumResults() != allReduce->getNumOperands())
    return op->emitOpError("has ")
           << allReduce->getNumOperands() << " operands but "
           << allReduce->getNumResults() << " results";
  for (auto [i, operand] : llvm::enumerate(allReduce.getOperands()))
    if (failed(checkResult(i, operand,
                           cast<RankedTensorType>(operand.getType()).getShape(),
                           "an all_reduce")))
      return failure();
  SmallVector<Value> results;
  for (Value operand : allReduce.getOperands()) {
    ArrayAttr over = axesAttr(*axes);
    Type type = operand.getType();
    if (axes->empty())
      results.push_back(operand);
    else if (*kind == "sum")
      results.push_back(spmd::PsumOp::create(b, loc, type, operand, over));
    else if (*kind == "max")
      results.push_back(spmd::PmaxOp::create(b, loc, type, operand, over));
    else
      results.push_back(spmd::PminOp::create(b, loc, type, operand, over));
  }
  return results;
}

FailureOr<SmallVector<Value>>
CollectiveEmitter::allGather(hlo::AllGatherOp gather) {
  FailureOr<SmallVector<StringAttr>> axes = groupsOf(gather.getReplicaGroups());
  if (failed(axes))
    return failure();
  int64_t dim = gather.getAllGatherDim();
  int64_t n = mesh.getAxesSize(*axes);
  if (gather->getNumResults() != gather->getNumOperands())
    return op->emitOpError("has ")
           << gather->getNumOperands() << " operands but "
           << gather->getNumResults() << " results";
  for (auto [i, operand] : llvm::enumerate(gather.getOperands())) {
    if (failed(checkDim("all_gather_dim", dim, operand.getType())))
      return failure();
    SmallVector<int64_t> shape(
        cast<RankedTensorType>(operand.getType()).getShape());
    shape[dim] *= n;
    if (failed(checkResult(i, operand, shape,
                           "gathering along all_gather_dim " + Twine(dim) +
                               " in groups of " + Twine(n))))
      return failure();
  }
  SmallVector<Value> results;
  for (auto [operand, result] :
       llvm::zip(gather.getOperands(), op->getResults())) {
    if (axes->empty()) {
      results.push_back(operand);
      continue;
    }
    results.push_back(spmd::AllGatherOp::create(
        b, loc, result.getType(), operand, axesAttr(*axes),
        gather.getAllGatherDimAttr(), b.getUnitAttr()));
  }
  return results;
}

FailureOr<SmallVector<Value>>
CollectiveEmitter::reduceScatter(hlo::ReduceScatterOp scatter) {
  FailureOr<StringRef> kind = regionReduction(op, scatter.getComputation());
  if (failed(kind))
    return failure();
  if (*kind != "sum")
    return op->emitError("only sum reduce_scatters are supported");
  FailureOr<SmallVector<StringAttr>> axes =
      groupsOf(scatter.getReplicaGroups());
  if (failed(axes))
    return failure();
  int64_t dim = scatter.getScatterDimension();
  int64_t n = mesh.getAxesSize(*axes);
  Value operand = scatter.getOperand();
  if (failed(checkDim("scatter_dimension", dim, operand.getType())))
    return failure();
  SmallVector<int64_t> shape(
      cast<RankedTensorType>(operand.getType()).getShape());
  if (shape[dim] % n != 0)
    return op->emitOpError("scatter_dimension ")
           << dim << " has size " << shape[dim] << ", which groups of " << n
           << " do not divide";
  shape[dim] /= n;
  if (failed(checkResult(0, operand, shape,
                         "scattering along scatter_dimension " + Twine(dim) +
                             " in groups of " + Twine(n))))
    return failure();
  if (axes->empty())
    return SmallVector<Value>{scatter.getOperand()};
  SmallVector<Value> results;
  results.push_back(spmd::PsumScatterOp::create(
      b, loc, op->getResult(0).getType(), scatter.getOperand(), axesAttr(*axes),
      scatter.getScatterDimensionAttr(), b.getUnitAttr()));
  return results;
}

FailureOr<SmallVector<Value>>
CollectiveEmitter::allToAll(hlo::AllToAllOp allToAll) {
  FailureOr<SmallVector<StringAttr>> axes =
      groupsOf(allToAll.getReplicaGroups());
  if (failed(axes))
    return failure();
  if (mesh.getAxesSize(*axes) != static_cast<int64_t>(allToAll.getSplitCount()))
    return op->emitError("split_count ")
           << allToAll.getSplitCount() << " differs from the group size "
           << mesh.getAxesSize(*axes);
  int64_t split = allToAll.getSplitDimension();
  int64_t concat = allToAll.getConcatDimension();
  int64_t n = allToAll.getSplitCount();
  if (allToAll->getNumResults() != allToAll->getNumOperands())
    return op->emitOpError("has ")
           << allToAll->getNumOperands() << " operands but "
           << allToAll->getNumResults() << " results";
  for (auto [i, operand] : llvm::enumerate(allToAll.getOperands())) {
    if (failed(checkDim("split_dimension", split, operand.getType())) ||
        failed(checkDim("concat_dimension", concat, operand.getType())))
      return failure();
    SmallVector<int64_t> shape(
        cast<RankedTensorType>(operand.getType()).getShape());
    if (shape[split] % n != 0)
      return op->emitOpError("split_dimension ")
             << split << " has size " << shape[split] << ", which split_count "
             << n << " does not divide";
    shape[split] /= n;
    shape[concat] *= n;
    if (failed(checkResult(i, operand, shape,
                           "splitting split_dimension " + Twine(split) +
                               " and concatenating concat_dimension " +
                               Twine(concat) + " in groups of " + Twine(n))))
      return failure();
  }
  SmallVector<Value> results;
  for (auto [operand, result] :
       llvm::zip(allToAll.getOperands(), op->getResults())) {
    if (axes->empty()) {
      results.push_back(operand);
      continue;
    }
    results.push_back(spmd::AllToAllOp::create(
        b, loc, result.getType(), operand, axesAttr(*axes),
        allToAll.getSplitDimensionAttr(), allToAll.getConcatDimensionAttr()));
  }
  return results;
}

FailureOr<SmallVector<Value>>
CollectiveEmitter::permute(hlo::CollectivePermuteOp permute) {
  auto decoded = decodeSourceTargetPairs(
      op, mesh, manual,
      cast<DenseIntElementsAttr>(permute.getSourceTargetPairs()));
  if (failed(decoded))
    return failure();
  if (failed(checkResult(
          0, permute.getOperand(),
          cast<RankedTensorType>(permute.getOperand().getType()).getShape(),
          "a collective_permute")))
    return failure();
  SmallVector<Value> results;
  results.push_back(spmd::PpermuteOp::create(
      b, loc, permute.getType(), permute.getOperand(), axesAttr(decoded->first),
      b.getDenseI64ArrayAttr(decoded->second)));
  return results;
}

FailureOr<SmallVector<Value>> Importer::importCollective(Operation *op) {
  auto map = op->getParentOfType<spmd::ShardMapOp>();
  if (!map)
    return op->emitError("'") << op->getName()
                              << "' outside a manual computation "
                                 "(sdy.manual_computation or a GSPMD "
                                 "manual region) is not supported";
  MeshOp mesh = map.getMeshOp();
  // Ids are partition ids, which JAX numbers as row-major mesh positions;
  // on a mesh with another device order that reading is unverified.
  if (hasDeviceOrder(mesh))
    return op->emitError("collectives on a mesh with device_ids are not "
                         "supported yet");
  // Without these, groups are of replicas, not partitions.
  bool global = isa<hlo::AllToAllOp, hlo::CollectivePermuteOp>(op)
                    ? op->hasAttr("channel_handle")
                    : op->hasAttr("use_global_device_ids");
  if (!global)
    return op->emitError("'")
           << op->getName() << "' without "
           << (isa<hlo::AllToAllOp, hlo::CollectivePermuteOp>(op)
                   ? "a channel_handle"
                   : "use_global_device_ids")
           << " runs across replicas, which are not supported";
  CollectiveEmitter emitter{b, op, mesh, map.getAllManualAxes(), op->getLoc()};
  if (auto allReduce = dyn_cast<hlo::AllReduceOp>(op))
    return emitter.allReduce(allReduce);
  if (auto gather = dyn_cast<hlo::AllGatherOp>(op))
    return emitter.allGather(gather);
  if (auto scatter = dyn_cast<hlo::ReduceScatterOp>(op))
    return emitter.reduceScatter(scatter);
  if (auto allToAll = dyn_cast<hlo::AllToAllOp>(op))
    return emitter.allToAll(allToAll);
  return emitter.permute(cast<hlo::CollectivePermuteOp>(op));
}

/// The row-major mesh position: in a body manual over every axis, the
/// device's index over all axes in mesh order.
FailureOr<Value> Importer::importPartitionId(hlo::PartitionIdOp op) {
  auto map = op->getParentOfType<spmd::ShardMapOp>();
  if (!map)
    return op.emitError(
        "'stablehlo.partition_id' outside a manual computation "
        "(sdy.manual_computation or a GSPMD manual region) is not "
        "supported");
  MeshOp mesh = map.getMeshOp();
  if (hasDeviceOrder(mesh))
    return op.emitError("'stablehlo.partition_id' on a mesh with device_ids "
                        "is not supported yet");
  if (map.getAllManualAxes().size() != mesh.getNumAxes())
    return op.emitError("'stablehlo.partition_id' in a computation manual "
                        "over only some axes is not supported: its value "
                        "depends on the other axes too");
  Location loc = op.getLoc();
  Value index =
      spmd::AxisIndexOp::create(b, loc, b.getIndexType(), mesh.getAxisNames());
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Value scalar =
      arith::IndexCastOp::create(b, loc, type.getElementType(), index);
  return tensor::FromElementsOp::create(b, loc, type, ValueRange{scalar})
      .getResult();
}

void Importer::relaxVarianceChecks() {
  SmallVector<spmd::ShardMapOp> maps;
  module.walk<WalkOrder::PreOrder>([&](spmd::ShardMapOp map) {
    maps.push_back(map);
    return WalkResult::skip();
  });
  for (spmd::ShardMapOp map : maps) {
    if (!map.getCheckVma())
      continue;
    std::string message;
    LogicalResult typed = success();
    {
      ScopedDiagnosticHandler capture(map.getContext(), [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error && message.empty())
          message = diag.str();
        return success();
      });
      OpBuilder builder(map);
      auto copy = cast<spmd::ShardMapOp>(builder.clone(*map));
      typed = spmd::inferVariance(copy, spmd::VarianceOptions());
      copy.erase();
    }
    if (succeeded(typed))
      continue;
    StringRef text(message);
    text.consume_front("'spmd.shard_map' op ");
    text = text.split("; psum it").first;
    map.setCheckVma(false);
    map.emitWarning("the manual computation fails Trellis's device-variance "
                    "check (")
        << text
        << "); a StableHLO program does not say whether JAX checked it "
           "(check_vma), so it is imported with check_vma = false: an "
           "unmapped output is taken from one device";
  }
}
