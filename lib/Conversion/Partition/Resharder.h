//===- Resharder.h - Moving per-device blocks between layouts ---*- C++ -*-===//
//
// Inside a fully-manual shard_map body, each per-device value is a block of
// a global array laid out by a Layout (per dimension the mesh axes splitting
// it, major to minor, plus axes over which the blocks are partial sums).
// The Resharder turns a block of one layout into the block of another with
// collectives:
//
//   partial -> reduced       psum, or psum_scatter when the target splits a
//                            dimension over the reduced axes next (pmax or
//                            pmin for partial maxima or minima)
//   axis moves dim i -> j    all_to_all (split j, concat i)
//   same axes, reordered     ppermute (every target block is one device's
//                            current block)
//   axis a -> axis b in dim  ppermute (|a| == |b|: a transposition of blocks)
//   sharded -> replicated    all_gather (minor axes first)
//   replicated -> sharded    a local slice at axis_index (no communication)
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_CONVERSION_PARTITION_RESHARDER_H
#define TRELLIS_LIB_CONVERSION_PARTITION_RESHARDER_H

#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>

namespace mlir::trellis {

/// How the per-device blocks of a partial value combine over its
/// `unreduced` axes.
enum class PartialKind { Sum, Max, Min };

/// How a global array is split over mesh axes.
struct Layout {
  SmallVector<SmallVector<StringAttr>> dims;
  SmallVector<StringAttr> unreduced;
  PartialKind partialKind = PartialKind::Sum;

  static Layout replicated(int64_t rank) {
    Layout layout;
    layout.dims.resize(rank);
    return layout;
  }
  /// The layout a sharding describes (replicated when null).
  static Layout fromSharding(ShardingAttr sharding, int64_t rank);
  /// Unreduced axes are a set: partial over ("a", "b") is partial over
  /// ("b", "a").
  bool operator==(const Layout &other) const {
    return dims == other.dims && sameUnreduced(other) &&
           (unreduced.empty() || partialKind == other.partialKind);
  }
  bool sameUnreduced(const Layout &other) const;
  bool operator!=(const Layout &other) const { return !(*this == other); }
  bool uses(StringAttr axis) const;
  std::string str() const;
};

class Resharder {
public:
  /// routeBlocks plans per device; beyond this many devices in the axes it
  /// routes over it declines (trellis-run runs at most 4,096 devices).
  static constexpr int64_t kMaxRoutedDevices = 1 << 16;
  /// Bound on the plan's size: pieces over all devices, and rows of the
  /// per-device tables it writes.
  static constexpr int64_t kMaxRoutedPieces = 1 << 20;

  Resharder(OpBuilder &builder, MeshOp mesh) : b(builder), mesh(mesh) {}

  /// The per-device type of `global` laid out by `layout`.
  RankedTensorType localType(RankedTensorType global, const Layout &layout);

  /// Whether every dimension of `global` divides by its axes in `layout`.
  bool divides(RankedTensorType global, const Layout &layout);
  /// Whether `layout` splits static dimension `d` of `global` over axes
  /// whose size does not divide it: the blocks are those of the next
  /// multiple, the last ones ending in padding (whose values are
  /// unspecified: reductions mask it, see Uneven.cpp).
  bool isUneven(RankedTensorType global, const Layout &layout, int64_t d);
  /// Whether blocks of `element` can be padded or zeroed (a constant zero
  /// exists: integers, floats, indices).
  static bool hasZero(Type element);
  /// `layout` with its uneven dimensions replicated.
  Layout evenPart(RankedTensorType global, const Layout &layout);

  /// Returns the block of `global`'s array in layout `to`, given `local`,
  /// its block in layout `from`. Either may split dimensions unevenly.
  Value reshard(Location loc, Value local, RankedTensorType global,
                const Layout &from, const Layout &to);

  /// The bytes a device would send for reshard(...) (built, priced with
  /// the ring formulas and erased).
  int64_t reshardBytes(Location loc, Value local, RankedTensorType global,
                       const Layout &from, const Layout &to);

  /// Erases, inside `root`, the ops reshards created whose results nothing
  /// reads (a gather for an op that folded away, a slice of it): every
  /// device runs the same partitioned code, so dropping an unread
  /// collective everywhere keeps the devices matched.
  void eraseUnusedReshards(Operation *root);
  /// Lets eraseUnusedReshards erase `op`, an op without side effects the
  /// partitioner emitted, when nothing reads it (a tensor.pad whose
  /// readers took their windows by halo exchange), and the reshards it
  /// alone read.
  void eraseIfUnused(Operation *op) { created.insert(op); }
  /// Runs `build` with the ops it inserts recorded as a reshard's (erased
  /// by eraseUnusedReshards when unread): halo exchanges.
  Value recorded(function_ref<Value()> build);
  /// Whether `op` was made by a reshard and not erased since.
  bool holds(Operation *op) const { return created.contains(op); }

  /// One array a routed reshard reads: its per-device block `local`, laid
  /// out by `from` in an array of `type`, which lies at `offset` in the
  /// target array.
  struct RouteSource {
    Value local;
    RankedTensorType type;
    Layout from;
    SmallVector<int64_t> offset;
  };
  /// Builds this device's block of `global` in layout `to` from pieces of
  /// `sources` (which together cover it): the pieces are cut so that each
  /// lies inside one source block and one target block; each device copies
  /// those it holds and receives the others from their least loaded
  /// holders, by ppermutes in as many rounds as the busiest device has
  /// transfers (a device sends and receives at most one piece per round),
  /// when that moves fewer bytes than `budget`; null otherwise.
  Value routeBlocks(Location loc, ArrayRef<RouteSource> sources,
                    RankedTensorType global, const Layout &to, int64_t budget);

  /// `v` padded with zeros along `dim` to `extent`.
  Value padAlong(Location loc, Value v, int64_t dim, int64_t extent);
  /// `v`'s elements [offset, offset + length) along `dim`.
  Value sliceAlong(Location loc, Value v, int64_t dim, OpFoldResult offset,
                   int64_t length);
  /// `v` sent from device `pairs[2i]` to device `pairs[2i + 1]` of the
  /// group over `axes` (a device no pair targets receives zeros).
  Value permute(Location loc, Value v, ArrayRef<StringAttr> axes,
                ArrayRef<int64_t> pairs);
  ArrayAttr axesAttr(ArrayRef<StringAttr> axes);

  /// The collectives and slices emitted so far (for statistics).
  int64_t numCollectives = 0;
  /// Set, with an error emitted, when a reshard asked for cannot be built
  /// (the partitioner then fails).
  bool failed = false;

private:
  /// reshard between layouts that split each dimension of `global` evenly
  /// (`global` holds padded extents where both keep the same uneven split).
  Value reshardBlocks(Location loc, Value local, RankedTensorType global,
                      const Layout &from, const Layout &to);
  Value allGather(Location loc, Value v, int64_t dim,
                  ArrayRef<StringAttr> axes);
  Value localSlice(Location loc, Value v, int64_t dim,
                   ArrayRef<StringAttr> axes);
  Value allToAll(Location loc, Value v, StringAttr axis, int64_t splitDim,
                 int64_t concatDim);
  Value swapAxes(Location loc, Value v, StringAttr from, StringAttr to);
  /// One ppermute when `from` and `to` use the same axes and split each
  /// dimension into as many blocks; null otherwise.
  Value permuteBlocks(Location loc, Value v, const Layout &from,
                      const Layout &to);
  Value reduce(Location loc, Value v, ArrayRef<StringAttr> axes,
               PartialKind kind);
  /// A value whole on every device made partial over `axes`: kept by the
  /// first device of each group and zeroed on the others for a sum (so the
  /// group's sum is the value), kept by all for a max or min.
  Value makePartial(Location loc, Value v, ArrayRef<StringAttr> axes,
                    PartialKind kind);
  Value reduceScatter(Location loc, Value v, int64_t dim,
                      ArrayRef<StringAttr> axes);

  // The steps of reshard, each moving `local` from layout `cur` towards
  // `to` (never partial) and updating `cur` to the layout it reached.
  /// 1. Reduces the partial `local`: reduce-scatter onto the dimension
  /// `to` splits next over the reduced axes, all-reduce the rest.
  Value reducePartial(Location loc, Value local, Layout &cur, const Layout &to);
  /// 3. Moves axes between dimensions (all_to_all) while one can be.
  Value moveAxesBetweenDims(Location loc, Value local, Layout &cur,
                            const Layout &to);
  /// 4. Replaces the last axis of a dimension by one of the same size
  /// (ppermute instead of all_gather + slice).
  Value swapSameSizeAxes(Location loc, Value local, Layout &cur,
                         const Layout &to);
  /// 5. Gathers, in the first dimension where there are any, the axes past
  /// its common prefix with `to`; null when every dimension is a prefix.
  Value gatherPastCommonPrefix(Location loc, Value local, Layout &cur,
                               const Layout &to);
  /// 2b. routeBlocks from one source, the block in layout `from`; null
  /// when slicing alone would do.
  Value routeBlocks(Location loc, Value local, RankedTensorType global,
                    const Layout &from, const Layout &to, int64_t budget);
  /// 3-6: all_to_alls, same-size swaps and gathers until every dimension
  /// is a prefix of the target's, then local slices.
  Value moveStepwise(Location loc, Value local, Layout &cur, const Layout &to);
  /// Runs `build`, which inserts ops at the insertion point, and returns
  /// the bytes a device sends for the collectives it built, which are
  /// erased with everything else it built.
  int64_t priced(function_ref<void()> build);
  /// Bytes a device sends for moveStepwise (built, priced and erased).
  int64_t stepwiseBytes(Location loc, Value local, const Layout &cur,
                        const Layout &to);
  /// 6. Slices locally what `to` splits further.
  Value sliceFurther(Location loc, Value local, Layout &cur, const Layout &to);

  int64_t size(ArrayRef<StringAttr> axes);
  /// The extent of dimension `dim` of `v`, a ranked tensor.
  static int64_t dimOf(Value v, int64_t dim);

  OpBuilder &b;
  MeshOp mesh;
  /// Every op a reshard created.
  llvm::SmallPtrSet<Operation *, 32> created;
};

} // namespace mlir::trellis

#endif // TRELLIS_LIB_CONVERSION_PARTITION_RESHARDER_H
