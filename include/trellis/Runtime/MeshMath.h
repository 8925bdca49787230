//===- MeshMath.h - Device coordinates, groups and blocks -------*- C++ -*-===//
//
// Pure arithmetic on meshes, shared by the runtime (which must not depend on
// MLIR), the executor and the unit tests: mesh positions and coordinates,
// the group of devices a collective over some axes runs in, and which block
// of a global array a device holds under a partition spec.
//
// Conventions (JAX's): mesh positions are row-major over the axes; a list of
// axes linearises with the first axis major; a spec gives, per dimension, the
// axes (major to minor) that split it.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_RUNTIME_MESHMATH_H
#define TRELLIS_RUNTIME_MESHMATH_H

#include "trellis/Runtime/TrellisRuntime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::trellis::rt {

/// Axes of a collective or of one spec dimension, as mesh axis indices in the
/// order they were written (the first is major).
using AxisList = std::vector<int>;

/// A partition spec: per tensor dimension, the axes splitting it. It may be
/// shorter than the tensor's rank.
using Spec = std::vector<AxisList>;

/// At most this many axes fit in a packed axis list (the C ABI's limit).
constexpr int kMaxPackedAxes = TRELLIS_RT_MAX_PACKED_AXES;

/// Packs an axis list into an int64 (one nibble per axis, first axis in the
/// lowest nibble, each stored as index + 1) for the runtime's C ABI.
int64_t packAxes(const AxisList &axes);
AxisList unpackAxes(int64_t packed);

struct MeshShape {
  std::vector<std::string> axisNames;
  std::vector<int64_t> axisSizes;
  /// Device id at each mesh position (row-major); identity if empty.
  std::vector<int64_t> deviceIds;

  int numAxes() const { return static_cast<int>(axisSizes.size()); }
  int64_t numDevices() const;
  /// Index of the named axis, or -1.
  int axisIndex(const std::string &name) const;
  int64_t deviceAt(int64_t position) const;
  /// Position of `device`, or -1.
  int64_t positionOf(int64_t device) const;

  std::vector<int64_t> coords(int64_t position) const;
  int64_t position(const std::vector<int64_t> &coords) const;

  /// Number of devices in a group along `axes`.
  int64_t groupSize(const AxisList &axes) const;
  /// Index of the device at `position` within its group along `axes`.
  int64_t rankInGroup(int64_t position, const AxisList &axes) const;
  /// Positions of the group along `axes` containing `position`, by rank.
  std::vector<int64_t> groupMembers(int64_t position,
                                    const AxisList &axes) const;
  /// A key identifying the group: the position of its rank-0 member.
  int64_t groupLeader(int64_t position, const AxisList &axes) const;

  /// Formats an axis list as `("i", "j")` (an index that names no axis of
  /// the mesh as its number: `("7")`).
  std::string formatAxes(const AxisList &axes) const;
};

/// One hop of a route on the modelled interconnect: from the device at
/// `position` to its neighbour along `axis`, forward (+1) or backward (-1)
/// around that axis's ring.
struct LinkHop {
  int64_t position = 0;
  int axis = 0;
  int direction = 1;
  bool operator==(const LinkHop &o) const {
    return position == o.position && axis == o.axis && direction == o.direction;
  }
};

/// The route from `from` to `to` when every mesh axis is a ring (each
/// device linked to both neighbours along every axis, one link per
/// direction): axes in mesh order, each the short way around its ring. A
/// tie (exactly half-way around, e.g. any hop on an axis of size 2) goes
/// the way of `tieDirection` (+1 or -1). Empty when `from == to`.
std::vector<LinkHop> ringRoute(const MeshShape &mesh, int64_t from, int64_t to,
                               int tieDirection);

/// Index of the directed link a hop uses, in [0, numDevices * numAxes * 2).
int64_t linkIndex(const MeshShape &mesh, const LinkHop &hop);

/// Per-device (block) shape of a global `shape` under `spec`. Fails with a
/// message when a dimension is not divisible or the spec is too long.
bool localShape(const MeshShape &mesh, const std::vector<int64_t> &shape,
                const Spec &spec, std::vector<int64_t> &local,
                std::string *error = nullptr);

/// Offset, per dimension, of the block the device at `position` holds.
std::vector<int64_t> blockOffset(const MeshShape &mesh, int64_t position,
                                 const std::vector<int64_t> &local,
                                 const Spec &spec);

/// Whether the device at `position` holds the block kept in a shard_map
/// output with `spec`: it is at coordinate 0 along every axis the spec does
/// not mention (the untiled axes).
bool ownsOutputBlock(const MeshShape &mesh, int64_t position, const Spec &spec);

int64_t product(const std::vector<int64_t> &values);

/// Copies the block at `offset` with shape `block` out of (`toBlock`) or into
/// (`!toBlock`) a row-major global array of `shape`, for elements of
/// `elemBytes` bytes.
void copyBlock(const std::vector<int64_t> &shape,
               const std::vector<int64_t> &offset,
               const std::vector<int64_t> &block, int64_t elemBytes,
               const void *src, void *dst, bool toBlock);

} // namespace mlir::trellis::rt

#endif // TRELLIS_RUNTIME_MESHMATH_H
