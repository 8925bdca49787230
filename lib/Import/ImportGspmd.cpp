//===- ImportGspmd.cpp - GSPMD shardings and @Sharding custom calls -------===//
//
// Modules printed before Shardy carry `mhlo.sharding` strings on arguments
// and results and `@Sharding` custom calls for sharding constraints. The
// importer reads them all first, infers one mesh that expresses every tile
// assignment (Gspmd.cpp), declares it as `trellis.mesh @gspmd_mesh` with
// axes x0, x1, ... and turns each string into a Trellis sharding on it.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Gspmd.h"
#include "lib/Import/Importer.h"

#include "dialects/spmd/IR/SpmdOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

static constexpr StringLiteral kMhloSharding = "mhlo.sharding";

LogicalResult Importer::importGspmdMesh() {
  // Every GSPMD string of the module, where it was written.
  SmallVector<std::pair<Location, StringRef>> texts;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto collect = [&](DictionaryAttr attrs, Location loc) {
      if (!attrs)
        return;
      if (auto text = attrs.getAs<StringAttr>(kMhloSharding);
          text && !text.getValue().empty())
        texts.push_back({loc, text.getValue()});
    };
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      collect(func.getArgAttrDict(i),
              func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc());
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      collect(func.getResultAttrDict(i), func.getLoc());
  }
  // `{manual}` marks per-device values in manual regions: it names no
  // tiling (the region's entries and exits give that).
  bool hasManualRegions = false;
  module.walk([&](hlo::CustomCallOp call) {
    if (call.getCallTargetName() == "SPMDFullToShardShape")
      hasManualRegions = true;
    if (auto text = call->getAttrOfType<StringAttr>(kMhloSharding))
      if (!isGspmdManualText(text.getValue()))
        texts.push_back({call.getLoc(), text.getValue()});
  });
  SmallVector<GspmdSharding> shardings;
  SmallVector<StringRef> tiled;
  llvm::StringSet<> seen;
  int64_t devices = 0;
  Location first = module.getLoc();
  for (auto [loc, text] : texts) {
    Location where = loc;
    FailureOr<GspmdSharding> sharding =
        parseGspmdSharding(text, [&] { return mlir::emitError(where); });
    if (failed(sharding))
      return failure();
    if (sharding->replicated || !seen.insert(text).second)
      continue;
    if (!devices) {
      devices = static_cast<int64_t>(sharding->devices.size());
      first = loc;
    }
    shardings.push_back(*sharding);
    tiled.push_back(text);
  }
  if (shardings.empty() && !hasManualRegions)
    return success();
  if (shardings.empty()) {
    // Manual regions whose blocks are all replicated: the mesh is the
    // partitions, in prime axes (the collectives' groups must be splits
    // of it).
    if (!numPartitions || *numPartitions < 2)
      return module.emitError("a GSPMD manual region with only replicated "
                              "shardings needs mhlo.num_partitions > 1");
    devices = *numPartitions;
  }
  if (!module.getOps<MeshOp>().empty())
    return mlir::emitError(first, "GSPMD shardings in a module that also "
                                  "declares Shardy meshes");
  if (numPartitions && *numPartitions != devices)
    return mlir::emitError(first, "GSPMD tile assignments cover ")
           << devices << " devices but mhlo.num_partitions is "
           << *numPartitions;
  FailureOr<GspmdMesh> mesh = inferGspmdMesh(
      devices, shardings, [&] { return mlir::emitError(first); });
  if (failed(mesh))
    return failure();
  for (auto [text, axes] : llvm::zip(tiled, mesh->dimAxes))
    gspmdAxes[text] = axes;

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  SmallVector<Attribute> names, types;
  for (size_t i = 0; i < mesh->axisSizes.size(); ++i) {
    names.push_back(b.getStringAttr("x" + std::to_string(i)));
    types.push_back(AxisTypeAttr::get(b.getContext(), AxisType::Auto));
  }
  auto meshOp = MeshOp::create(b, first, b.getStringAttr("gspmd_mesh"),
                               b.getArrayAttr(names),
                               b.getDenseI64ArrayAttr(mesh->axisSizes),
                               b.getArrayAttr(types), DenseI64ArrayAttr());
  gspmdMesh = FlatSymbolRefAttr::get(meshOp.getSymNameAttr());
  gspmdAxisSizes = mesh->axisSizes;
  return success();
}

FailureOr<ShardingAttr> Importer::gspmdSharding(Location loc, StringRef text,
                                                Type type) {
  if (isGspmdManualText(text))
    return mlir::emitError(loc, "GSPMD sharding \"{manual}\" outside a "
                                "manual region (@SPMDFullToShardShape ... "
                                "@SPMDShardToFullShape)");
  if (!gspmdMesh)
    return ShardingAttr(); // nothing is split: the module has no mesh
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return mlir::emitError(loc, "mhlo.sharding on a non-tensor");
  SmallVector<DimShardingAttr> dims;
  auto it = gspmdAxes.find(text);
  if (it == gspmdAxes.end()) {
    // Replicated (or maximal): no dimension is split.
    dims.assign(tensor.getRank(),
                DimShardingAttr::get(b.getContext(), ArrayRef<StringAttr>()));
  } else {
    if (static_cast<int64_t>(it->second.size()) != tensor.getRank())
      return mlir::emitError(loc, "GSPMD sharding \"")
             << text << "\" has " << it->second.size()
             << " tile dimensions for a tensor of rank " << tensor.getRank();
    for (auto [d, axes] : llvm::enumerate(it->second)) {
      SmallVector<StringAttr> names;
      for (int64_t axis : axes)
        names.push_back(b.getStringAttr("x" + std::to_string(axis)));
      // A dimension the tiles do not divide is padded by the partitioner
      // (a manual region's specs must divide: the shard_map says so).
      dims.push_back(DimShardingAttr::get(b.getContext(), names));
    }
  }
  return ShardingAttr::get(b.getContext(), gspmdMesh, dims);
}

/// Custom calls that say where a value is placed (memory kinds, host
/// offloading) and compute nothing.
static bool isPlacementOnlyCustomCall(StringRef target) {
  return llvm::is_contained({StringRef("annotate_device_placement"),
                             StringRef("MoveToHost"),
                             StringRef("MoveToDevice")},
                            target);
}

FailureOr<SmallVector<Value>> Importer::importCustomCall(hlo::CustomCallOp op) {
  if (op.getCallTargetName() == "SPMDFullToShardShape" ||
      op.getCallTargetName() == "SPMDShardToFullShape")
    return op.emitError("custom_call @")
           << op.getCallTargetName()
           << " outside a manual region the importer could outline";
  if (isPlacementOnlyCustomCall(op.getCallTargetName())) {
    // Where a value lives (host or device memory, jax.device_put's memory
    // kinds), not what it is: the value itself, with a warning.
    if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        op->getOperand(0).getType() != op->getResult(0).getType())
      return op.emitError("custom_call @")
             << op.getCallTargetName()
             << " must take one tensor and return one of the same type";
    InFlightDiagnostic warning = op.emitWarning("custom_call @")
                                 << op.getCallTargetName();
    if (auto attrs =
            op->getAttrOfType<DictionaryAttr>("mhlo.frontend_attributes"))
      if (auto kind = attrs.getAs<StringAttr>("_xla_buffer_placement"))
        warning << " (memory kind \"" << kind.getValue() << "\")";
    warning << " only places its operand in memory; Trellis keeps every "
               "value in device memory and imports it as its operand";
    return SmallVector<Value>{op->getOperand(0)};
  }
  if (op.getCallTargetName() != "Sharding")
    return op.emitError("custom_call @")
           << op.getCallTargetName() << " is not supported";
  auto text = op->getAttrOfType<StringAttr>(kMhloSharding);
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 || !text ||
      op->getOperand(0).getType() != op->getResult(0).getType())
    return op.emitError("custom_call @Sharding takes one tensor and an "
                        "mhlo.sharding string");
  Value input = op->getOperand(0);
  // Per-device values are already per device: no constraint.
  if (isGspmdManualText(text.getValue()) &&
      op->getParentOfType<spmd::ShardMapOp>())
    return SmallVector<Value>{input};
  FailureOr<ShardingAttr> sharding =
      gspmdSharding(op.getLoc(), text.getValue(), input.getType());
  if (failed(sharding))
    return failure();
  if (!*sharding)
    return SmallVector<Value>{input};
  return SmallVector<Value>{ShardingConstraintOp::create(b, op.getLoc(),
                                                         input.getType(), input,
                                                         *sharding)
                                .getResult()};
}
