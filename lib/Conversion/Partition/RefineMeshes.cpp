//===- RefineMeshes.cpp - Turn sub-axes into mesh axes --------------------===//
//
// Shardings may split a dimension over part of a mesh axis (`"x":(1)2`,
// SubAxes.h). The partitioner works on whole axes only, so before it runs,
// each mesh axis some sub-axis names is split into the parts those sub-axes
// need, major to minor, and every sharding that names the axis or a part of
// it names the parts instead: on `x` = 8 with `"x":(1)2` and `"x":(2)4` in
// use, the mesh becomes `["x":(1)2 = 2, "x":(2)4 = 4]` and `{"x"}` becomes
// `{"x":(1)2, "x":(2)4}`. Devices keep their row-major order, so each name
// still means the same devices and the program the same values.
//
//===----------------------------------------------------------------------===//

#include "FunctionPartitioner.h"

#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::trellis;

namespace {

/// The sub-axis names in the shardings and specs of `root`'s attributes
/// and types, with an op naming each.
void collectSubAxes(Operation *root, MeshOp mesh,
                    std::map<std::string, Operation *> &found) {
  auto note = [&](Operation *op, ArrayRef<StringAttr> axes) {
    for (StringAttr axis : axes)
      if (!mesh.getAxisIndex(axis.getValue()) &&
          parseSubAxisName(axis.getValue()))
        found.try_emplace(axis.getValue().str(), op);
  };
  root->walk([&](Operation *op) {
    auto visit = [&](auto element) {
      element.walk([&](Attribute attr) {
        if (auto dim = dyn_cast<DimShardingAttr>(attr))
          note(op, dim.getAxes());
        if (auto sharding = dyn_cast<ShardingAttr>(attr)) {
          note(op, sharding.getReplicated());
          note(op, sharding.getUnreduced());
        }
      });
    };
    visit(op->getAttrDictionary());
    for (Type type : op->getResultTypes())
      visit(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          visit(arg.getType());
  });
}

} // namespace

LogicalResult partition::refineMeshes(ModuleOp module) {
  SmallVector<MeshOp> meshes = llvm::to_vector(module.getOps<MeshOp>());
  if (meshes.empty())
    return success();
  std::map<std::string, Operation *> subAxes;
  for (MeshOp mesh : meshes)
    collectSubAxes(module, mesh, subAxes);
  if (subAxes.empty())
    return success();
  if (meshes.size() > 1)
    return subAxes.begin()->second->emitError()
           << "sub-axes (" << quoteAxisName(subAxes.begin()->first)
           << ") are partitioned only in a module with one mesh";
  MeshOp mesh = meshes.front();
  MLIRContext *ctx = module.getContext();

  // Per mesh axis, the pre-sizes at which its parts start: {1, N} and both
  // ends of every sub-axis in use. They must nest (each divides the next).
  SmallVector<std::set<int64_t>> cuts(mesh.getNumAxes());
  for (auto [index, size] : llvm::enumerate(mesh.getAxisSizes()))
    cuts[index] = {1, size};
  for (auto &[name, op] : subAxes) {
    std::optional<AxisPart> part = mesh.resolveAxis(name);
    if (!part)
      return op->emitError()
             << "sub-axis " << quoteAxisName(name)
             << " is not a part of a mesh axis of @" << mesh.getSymName();
    cuts[part->index].insert(part->preSize);
    cuts[part->index].insert(part->preSize * part->size);
  }
  // The parts of each axis, by pre-size; and each part's new axis name.
  SmallVector<SmallVector<std::pair<int64_t, int64_t>>> parts(
      mesh.getNumAxes());
  for (auto [index, axisCuts] : llvm::enumerate(cuts)) {
    int64_t previous = 0;
    for (int64_t cut : axisCuts) {
      if (previous && cut % previous != 0) {
        StringRef axis = cast<StringAttr>(mesh.getAxisNames()[index]);
        Operation *op = subAxes.begin()->second;
        for (auto &[name, user] : subAxes)
          if (parseSubAxisName(name)->axis == axis)
            op = user;
        return op->emitError()
               << "the sub-axes of mesh axis \"" << axis
               << "\" do not nest: parts starting at pre-sizes " << previous
               << " and " << cut
               << " cannot both be whole parts of one split of the axis";
      }
      if (previous)
        parts[index].push_back({previous, cut / previous});
      previous = cut;
    }
  }
  auto partName = [&](unsigned index, int64_t preSize, int64_t size) {
    StringRef axis = cast<StringAttr>(mesh.getAxisNames()[index]).getValue();
    if (parts[index].size() == 1)
      return StringAttr::get(ctx, axis);
    return StringAttr::get(ctx, makeSubAxisName(axis, preSize, size));
  };

  // Ops outside shardings that name a split axis (collectives, manual and
  // axis-type regions) would need rewriting too: not yet done.
  llvm::SmallDenseSet<StringAttr> split;
  for (auto [index, axisParts] : llvm::enumerate(parts))
    if (axisParts.size() > 1)
      split.insert(cast<StringAttr>(mesh.getAxisNames()[index]));
  Operation *naming = nullptr;
  StringAttr named;
  auto check = [&](Operation *op, Attribute attr) {
    attr.walk([&](StringAttr name) {
      if (!naming && split.contains(name)) {
        naming = op;
        named = name;
      }
    });
  };
  module.walk([&](Operation *op) {
    if (isa<MeshOp>(op))
      return;
    if (isa<AxisTypeRegionInterface>(op) ||
        isa_and_nonnull<spmd::SpmdDialect>(op->getDialect())) {
      check(op, op->getAttrDictionary());
      return;
    }
    // `spmd.*` attributes elsewhere (a device function's manual axes).
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName().getValue().starts_with("spmd."))
        check(op, attr.getValue());
  });
  if (naming)
    return naming->emitError()
           << "names mesh axis \"" << named.getValue()
           << "\", which shardings split into sub-axes; partitioning "
              "sub-axes beside manual code or axis-type regions over the "
              "same axis is not supported yet";

  // Every axis name in a sharding becomes the parts it covers.
  auto refine = [&](ArrayRef<StringAttr> axes) {
    SmallVector<StringAttr> out;
    for (StringAttr axis : axes) {
      std::optional<AxisPart> part = mesh.resolveAxis(axis.getValue());
      if (!part ||
          !split.contains(cast<StringAttr>(mesh.getAxisNames()[part->index]))) {
        out.push_back(axis);
        continue;
      }
      for (auto [preSize, size] : parts[part->index])
        if (preSize >= part->preSize &&
            preSize * size <= part->preSize * part->size)
          out.push_back(partName(part->index, preSize, size));
    }
    return out;
  };
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](DimShardingAttr dim) {
    return DimShardingAttr::get(ctx, refine(dim.getAxes()), dim.getClosed(),
                                dim.getPriority());
  });
  replacer.addReplacement(
      [&](ShardingAttr sharding) -> std::pair<Attribute, WalkResult> {
        SmallVector<DimShardingAttr> dims;
        for (DimShardingAttr dim : sharding.getDims())
          dims.push_back(DimShardingAttr::get(
              ctx, refine(dim.getAxes()), dim.getClosed(), dim.getPriority()));
        return {ShardingAttr::get(ctx, sharding.getMesh(), dims,
                                  refine(sharding.getReplicated()),
                                  refine(sharding.getUnreduced())),
                WalkResult::skip()};
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);

  // The mesh: each split axis becomes its parts, with the axis's type.
  SmallVector<Attribute> names, types;
  SmallVector<int64_t> sizes;
  for (auto [index, axisParts] : llvm::enumerate(parts))
    for (auto [preSize, size] : axisParts) {
      names.push_back(partName(index, preSize, size));
      sizes.push_back(size);
      types.push_back(mesh.getAxisTypes()[index]);
    }
  mesh.setAxisNamesAttr(ArrayAttr::get(ctx, names));
  mesh.setAxisSizes(sizes);
  mesh.setAxisTypesAttr(ArrayAttr::get(ctx, types));
  return success();
}
