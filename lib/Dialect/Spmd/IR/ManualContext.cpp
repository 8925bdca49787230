//===- ManualContext.cpp - Where mesh axes are manual ---------------------===//

#include "trellis/Dialect/Spmd/IR/ManualContext.h"
#include "trellis/Dialect/Spmd/IR/SpmdOps.h"
#include "trellis/Dialect/Trellis/IR/ShardingUtils.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::spmd;

SmallVector<StringAttr>
mlir::spmd::sortAxesInMeshOrder(ArrayRef<StringAttr> axes,
                                trellis::MeshOp mesh) {
  SmallVector<StringAttr> sorted(axes);
  llvm::stable_sort(sorted, [&](StringAttr a, StringAttr b) {
    return mesh.getAxisIndex(a.getValue()).value_or(~0u) <
           mesh.getAxisIndex(b.getValue()).value_or(~0u);
  });
  return sorted;
}

std::optional<ManualContext> mlir::spmd::getManualContext(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto shardMap = dyn_cast<ShardMapOp>(parent)) {
      trellis::MeshOp mesh = shardMap.getMeshOp();
      if (!mesh)
        return std::nullopt;
      return ManualContext{mesh, shardMap.getAllManualAxes(), parent};
    }
    if (!isa<FunctionOpInterface>(parent))
      continue;
    auto meshRef =
        parent->getAttrOfType<FlatSymbolRefAttr>(SpmdDialect::kMeshAttrName);
    if (!meshRef)
      return std::nullopt;
    trellis::MeshOp mesh = trellis::lookupMesh(parent, meshRef);
    if (!mesh)
      return std::nullopt;
    SmallVector<StringAttr> axes;
    if (auto list =
            parent->getAttrOfType<ArrayAttr>(SpmdDialect::kManualAxesAttrName))
      axes = llvm::to_vector(list.getAsRange<StringAttr>());
    else
      for (Attribute name : mesh.getAxisNames())
        axes.push_back(cast<StringAttr>(name));
    return ManualContext{mesh, sortAxesInMeshOrder(axes, mesh), parent};
  }
  return std::nullopt;
}
