//===- ManualContext.cpp - Where mesh axes are manual ---------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::spmd;

SmallVector<StringAttr>
mlir::spmd::sortAxesInMeshOrder(ArrayRef<StringAttr> axes,
                                trellis::MeshOp mesh) {
  // By (mesh index, position): a stable sort. std::stable_sort would do,
  // but libstdc++ 12's buffer for it is deprecated in C++17 (a warning).
  SmallVector<std::pair<unsigned, size_t>> keys;
  for (auto [i, axis] : llvm::enumerate(axes))
    keys.push_back({mesh.getAxisIndex(axis.getValue()).value_or(~0u), i});
  llvm::sort(keys);
  SmallVector<StringAttr> sorted;
  for (auto [index, i] : keys)
    sorted.push_back(axes[i]);
  return sorted;
}

SmallVector<StringAttr>
mlir::spmd::getDeviceFunctionManualAxes(Operation *func, trellis::MeshOp mesh) {
  if (auto list =
          func->getAttrOfType<ArrayAttr>(SpmdDialect::kManualAxesAttrName))
    return llvm::to_vector(list.getAsRange<StringAttr>());
  return llvm::to_vector(
      llvm::map_range(mesh.getAxisNames(), llvm::CastTo<StringAttr>));
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
    return ManualContext{
        mesh,
        sortAxesInMeshOrder(getDeviceFunctionManualAxes(parent, mesh), mesh),
        parent};
  }
  return std::nullopt;
}
