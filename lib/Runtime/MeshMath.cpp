//===- MeshMath.cpp - Device coordinates, groups and blocks ---------------===//

#include "trellis/Runtime/MeshMath.h"

#include <cstring>

using namespace mlir::trellis::rt;

int64_t mlir::trellis::rt::packAxes(const AxisList &axes) {
  int64_t packed = 0;
  for (size_t i = 0; i < axes.size() && i < kMaxPackedAxes; ++i)
    packed |= static_cast<int64_t>(axes[i] + 1) << (4 * i);
  return packed;
}

AxisList mlir::trellis::rt::unpackAxes(int64_t packed) {
  AxisList axes;
  for (int i = 0; i < kMaxPackedAxes; ++i) {
    int nibble = static_cast<int>((packed >> (4 * i)) & 0xF);
    if (!nibble)
      break;
    axes.push_back(nibble - 1);
  }
  return axes;
}

int64_t mlir::trellis::rt::product(const std::vector<int64_t> &values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

int64_t MeshShape::numDevices() const { return product(axisSizes); }

int MeshShape::axisIndex(const std::string &name) const {
  for (int i = 0; i < numAxes(); ++i)
    if (axisNames[i] == name)
      return i;
  return -1;
}

int64_t MeshShape::deviceAt(int64_t position) const {
  return deviceIds.empty() ? position : deviceIds[position];
}

int64_t MeshShape::positionOf(int64_t device) const {
  if (deviceIds.empty())
    return device < numDevices() ? device : -1;
  for (size_t p = 0; p < deviceIds.size(); ++p)
    if (deviceIds[p] == device)
      return static_cast<int64_t>(p);
  return -1;
}

std::vector<int64_t> MeshShape::coords(int64_t position) const {
  std::vector<int64_t> c(axisSizes.size());
  for (int i = numAxes() - 1; i >= 0; --i) {
    c[i] = position % axisSizes[i];
    position /= axisSizes[i];
  }
  return c;
}

int64_t MeshShape::position(const std::vector<int64_t> &c) const {
  int64_t p = 0;
  for (int i = 0; i < numAxes(); ++i)
    p = p * axisSizes[i] + c[i];
  return p;
}

int64_t MeshShape::groupSize(const AxisList &axes) const {
  int64_t n = 1;
  for (int a : axes)
    n *= axisSizes[a];
  return n;
}

int64_t MeshShape::rankInGroup(int64_t pos, const AxisList &axes) const {
  std::vector<int64_t> c = coords(pos);
  int64_t rank = 0;
  for (int a : axes)
    rank = rank * axisSizes[a] + c[a];
  return rank;
}

std::vector<int64_t> MeshShape::groupMembers(int64_t pos,
                                             const AxisList &axes) const {
  std::vector<int64_t> base = coords(pos);
  int64_t n = groupSize(axes);
  std::vector<int64_t> members(n);
  for (int64_t rank = 0; rank < n; ++rank) {
    std::vector<int64_t> c = base;
    int64_t r = rank;
    for (int i = static_cast<int>(axes.size()) - 1; i >= 0; --i) {
      c[axes[i]] = r % axisSizes[axes[i]];
      r /= axisSizes[axes[i]];
    }
    members[rank] = position(c);
  }
  return members;
}

int64_t MeshShape::groupLeader(int64_t pos, const AxisList &axes) const {
  std::vector<int64_t> c = coords(pos);
  for (int a : axes)
    c[a] = 0;
  return position(c);
}

std::vector<LinkHop> mlir::trellis::rt::ringRoute(const MeshShape &mesh,
                                                  int64_t from, int64_t to,
                                                  int tieDirection) {
  std::vector<LinkHop> route;
  std::vector<int64_t> at = mesh.coords(from);
  std::vector<int64_t> goal = mesh.coords(to);
  for (int a = 0; a < mesh.numAxes(); ++a) {
    int64_t size = mesh.axisSizes[a];
    int64_t forward = ((goal[a] - at[a]) % size + size) % size;
    int64_t backward = (size - forward) % size;
    if (forward == 0)
      continue;
    int direction = forward < backward   ? 1
                    : backward < forward ? -1
                                         : (tieDirection < 0 ? -1 : 1);
    int64_t steps = direction > 0 ? forward : backward;
    for (int64_t s = 0; s < steps; ++s) {
      route.push_back({mesh.position(at), a, direction});
      at[a] = ((at[a] + direction) % size + size) % size;
    }
  }
  return route;
}

int64_t mlir::trellis::rt::linkIndex(const MeshShape &mesh,
                                     const LinkHop &hop) {
  return (hop.position * mesh.numAxes() + hop.axis) * 2 +
         (hop.direction > 0 ? 0 : 1);
}

std::string MeshShape::formatAxes(const AxisList &axes) const {
  std::string text = "(";
  for (size_t i = 0; i < axes.size(); ++i)
    text += (i ? ", \"" : "\"") +
            (axes[i] >= 0 && axes[i] < static_cast<int>(axisNames.size())
                 ? axisNames[axes[i]]
                 : std::to_string(axes[i])) +
            "\"";
  return text + ")";
}

bool mlir::trellis::rt::localShape(const MeshShape &mesh,
                                   const std::vector<int64_t> &shape,
                                   const Spec &spec,
                                   std::vector<int64_t> &local,
                                   std::string *error) {
  if (spec.size() > shape.size()) {
    if (error)
      *error = "spec has " + std::to_string(spec.size()) +
               " entries but the array has rank " +
               std::to_string(shape.size());
    return false;
  }
  local = shape;
  for (size_t d = 0; d < spec.size(); ++d) {
    int64_t parts = mesh.groupSize(spec[d]);
    if (shape[d] % parts != 0) {
      if (error)
        *error = "dimension " + std::to_string(d) + " of size " +
                 std::to_string(shape[d]) + " is not divisible by " +
                 std::to_string(parts) + ", the size of mesh axes " +
                 mesh.formatAxes(spec[d]);
      return false;
    }
    local[d] = shape[d] / parts;
  }
  return true;
}

std::vector<int64_t>
mlir::trellis::rt::blockOffset(const MeshShape &mesh, int64_t position,
                               const std::vector<int64_t> &local,
                               const Spec &spec) {
  std::vector<int64_t> offset(local.size(), 0);
  for (size_t d = 0; d < spec.size() && d < local.size(); ++d)
    offset[d] = mesh.rankInGroup(position, spec[d]) * local[d];
  return offset;
}

bool mlir::trellis::rt::ownsOutputBlock(const MeshShape &mesh, int64_t position,
                                        const Spec &spec) {
  std::vector<bool> mentioned(mesh.numAxes(), false);
  for (const AxisList &dim : spec)
    for (int a : dim)
      mentioned[a] = true;
  std::vector<int64_t> c = mesh.coords(position);
  for (int a = 0; a < mesh.numAxes(); ++a)
    if (!mentioned[a] && c[a] != 0)
      return false;
  return true;
}

void mlir::trellis::rt::copyBlock(const std::vector<int64_t> &shape,
                                  const std::vector<int64_t> &offset,
                                  const std::vector<int64_t> &block,
                                  int64_t elemBytes, const void *src, void *dst,
                                  bool toBlock) {
  const size_t rank = shape.size();
  if (rank == 0) {
    std::memcpy(dst, src, elemBytes);
    return;
  }
  // Copy contiguous rows of the innermost dimension.
  int64_t rowBytes = block[rank - 1] * elemBytes;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d)
    rows *= block[d];
  if (rowBytes == 0 || rows == 0)
    return;
  std::vector<int64_t> idx(rank, 0);
  const char *s = static_cast<const char *>(src);
  char *t = static_cast<char *>(dst);
  for (int64_t r = 0; r < rows; ++r) {
    // Global linear index of the row start.
    int64_t global = 0;
    for (size_t d = 0; d < rank; ++d)
      global = global * shape[d] + (offset[d] + idx[d]);
    int64_t local = r * block[rank - 1];
    if (toBlock)
      std::memcpy(t + local * elemBytes, s + global * elemBytes, rowBytes);
    else
      std::memcpy(t + global * elemBytes, s + local * elemBytes, rowBytes);
    for (int d = static_cast<int>(rank) - 2; d >= 0; --d) {
      if (++idx[d] < block[d])
        break;
      idx[d] = 0;
    }
  }
}
