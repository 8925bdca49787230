//===- Collectives.cpp - Replica groups back to mesh axes -----------------===//
//
// JAX lowers a collective over mesh axes to lists of partition ids (row-major
// mesh positions: the mesh's logical device numbering, whatever device_ids
// say). Trellis's collectives name the axes; these functions recover them
// and refuse lists that no set of axes produces.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Collectives.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::trellis;

namespace {

/// Row-major coordinates of mesh positions.
struct MeshCoords {
  explicit MeshCoords(MeshOp mesh)
      : sizes(mesh.getAxisSizes()), devices(mesh.getNumDevices()) {}

  SmallVector<int64_t> of(int64_t position) const {
    SmallVector<int64_t> coords(sizes.size());
    for (int64_t a = static_cast<int64_t>(sizes.size()) - 1; a >= 0; --a) {
      coords[a] = position % sizes[a];
      position /= sizes[a];
    }
    return coords;
  }

  ArrayRef<int64_t> sizes;
  int64_t devices;
};

std::string formatRows(DenseIntElementsAttr attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto shape = attr.getType().getShape();
  SmallVector<int64_t> values = llvm::to_vector(attr.getValues<int64_t>());
  int64_t cols = shape.size() == 2 ? shape[1] : 1;
  os << '[';
  for (size_t i = 0; i < values.size(); i += cols) {
    os << (i ? ", [" : "[");
    llvm::interleaveComma(ArrayRef<int64_t>(values).slice(i, cols), os);
    os << ']';
  }
  os << ']';
  return text;
}

LogicalResult checkAllowed(Operation *op, ArrayRef<StringAttr> axes,
                           ArrayRef<StringAttr> allowed) {
  for (StringAttr axis : axes)
    if (!llvm::is_contained(allowed, axis))
      return op->emitError("the collective runs over mesh axis \"")
             << axis.getValue()
             << "\", which is not manual here (manual_axes of the enclosing "
                "sdy.manual_computation)";
  return success();
}

} // namespace

FailureOr<SmallVector<StringAttr>>
mlir::trellis::decodeReplicaGroups(Operation *op, MeshOp mesh,
                                   ArrayRef<StringAttr> allowed,
                                   DenseIntElementsAttr groups) {
  auto fail = [&]() {
    return op->emitError("replica groups ")
           << formatRows(groups)
           << " are not the groups of a set of mesh axes of @"
           << mesh.getSymName();
  };
  MeshCoords coords(mesh);
  auto shape = groups.getType().getShape();
  if (shape.size() != 2 || shape[0] * shape[1] != coords.devices)
    return fail();
  int64_t count = shape[0], size = shape[1];
  SmallVector<int64_t> ids = llvm::to_vector(groups.getValues<int64_t>());
  if (llvm::any_of(ids,
                   [&](int64_t id) { return id < 0 || id >= coords.devices; }))
    return fail();
  // The axes that vary within the first group.
  SmallVector<unsigned> varying;
  SmallVector<SmallVector<int64_t>> members;
  for (int64_t k = 0; k < size; ++k)
    members.push_back(coords.of(ids[k]));
  for (unsigned a = 0; a < coords.sizes.size(); ++a)
    if (llvm::any_of(members, [&](ArrayRef<int64_t> c) {
          return c[a] != members[0][a];
        }))
      varying.push_back(a);
  int64_t product = 1;
  for (unsigned a : varying)
    product *= coords.sizes[a];
  if (product != size)
    return fail();

  // The order of those axes that makes every group row-major.
  auto matches = [&](ArrayRef<unsigned> order) {
    SmallVector<bool> seen(coords.devices, false);
    for (int64_t g = 0; g < count; ++g) {
      SmallVector<int64_t> base = coords.of(ids[g * size]);
      for (int64_t k = 0; k < size; ++k) {
        int64_t id = ids[g * size + k];
        if (seen[id])
          return false;
        seen[id] = true;
        SmallVector<int64_t> c = coords.of(id);
        int64_t rest = k;
        SmallVector<int64_t> expected = base;
        for (int64_t i = static_cast<int64_t>(order.size()) - 1; i >= 0; --i) {
          expected[order[i]] = rest % coords.sizes[order[i]];
          rest /= coords.sizes[order[i]];
        }
        if (c != expected)
          return false;
      }
    }
    return true;
  };
  SmallVector<unsigned> order(varying);
  do {
    if (matches(order)) {
      SmallVector<StringAttr> axes;
      for (unsigned a : order)
        axes.push_back(cast<StringAttr>(mesh.getAxisNames()[a]));
      if (failed(checkAllowed(op, axes, allowed)))
        return failure();
      return axes;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return fail();
}

FailureOr<std::pair<SmallVector<StringAttr>, SmallVector<int64_t>>>
mlir::trellis::decodeSourceTargetPairs(Operation *op, MeshOp mesh,
                                       ArrayRef<StringAttr> allowed,
                                       DenseIntElementsAttr pairs) {
  auto fail = [&]() {
    return op->emitError("source-target pairs ")
           << formatRows(pairs)
           << " are not one permutation along mesh axes of @"
           << mesh.getSymName() << ", repeated in every group";
  };
  MeshCoords coords(mesh);
  auto shape = pairs.getType().getShape();
  if (shape.size() != 2 || shape[1] != 2)
    return fail();
  SmallVector<int64_t> ids = llvm::to_vector(pairs.getValues<int64_t>());
  if (llvm::any_of(ids,
                   [&](int64_t id) { return id < 0 || id >= coords.devices; }))
    return fail();
  // Each device sends at most once and receives at most once.
  llvm::SmallDenseSet<int64_t> sources, targets;
  for (size_t p = 0; p < ids.size(); p += 2) {
    if (!sources.insert(ids[p]).second)
      return op->emitError("source-target pairs ")
             << formatRows(pairs) << " name partition " << ids[p]
             << " as the source of more than one pair";
    if (!targets.insert(ids[p + 1]).second)
      return op->emitError("source-target pairs ")
             << formatRows(pairs) << " name partition " << ids[p + 1]
             << " as the target of more than one pair";
  }
  // The axes some pair moves along, in mesh order.
  SmallVector<bool> moves(coords.sizes.size(), false);
  for (size_t p = 0; p < ids.size(); p += 2) {
    SmallVector<int64_t> s = coords.of(ids[p]), t = coords.of(ids[p + 1]);
    for (unsigned a = 0; a < s.size(); ++a)
      if (s[a] != t[a])
        moves[a] = true;
  }
  SmallVector<StringAttr> axes;
  for (unsigned a = 0; a < moves.size(); ++a)
    if (moves[a])
      axes.push_back(cast<StringAttr>(mesh.getAxisNames()[a]));
  if (failed(checkAllowed(op, axes, allowed)))
    return failure();
  // Per setting of the other axes: the pairs of group indices.
  auto split = [&](int64_t id) {
    SmallVector<int64_t> c = coords.of(id);
    int64_t index = 0;
    SmallVector<int64_t> key;
    for (unsigned a = 0; a < c.size(); ++a) {
      if (moves[a])
        index = index * coords.sizes[a] + c[a];
      else
        key.push_back(c[a]);
    }
    return std::make_pair(key, index);
  };
  std::map<SmallVector<int64_t>, SmallVector<std::pair<int64_t, int64_t>>>
      perGroup;
  for (size_t p = 0; p < ids.size(); p += 2) {
    auto [sourceKey, source] = split(ids[p]);
    auto [targetKey, target] = split(ids[p + 1]);
    if (sourceKey != targetKey)
      return fail();
    perGroup[sourceKey].push_back({source, target});
  }
  int64_t groups = coords.devices;
  for (unsigned a = 0; a < moves.size(); ++a)
    if (moves[a])
      groups /= coords.sizes[a];
  if (static_cast<int64_t>(perGroup.size()) != groups)
    return fail();
  SmallVector<std::pair<int64_t, int64_t>> reference = perGroup.begin()->second;
  llvm::sort(reference);
  for (auto &[key, list] : perGroup) {
    llvm::sort(list);
    if (list != reference)
      return fail();
  }
  SmallVector<int64_t> flat;
  for (auto [s, t] : reference) {
    flat.push_back(s);
    flat.push_back(t);
  }
  return std::make_pair(axes, flat);
}
