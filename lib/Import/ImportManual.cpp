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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

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
