//===- Resharder.cpp - Moving per-device blocks between layouts -----------===//

#include "lib/Conversion/Partition/Resharder.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Runtime/CommCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <map>
#include <numeric>
#include <queue>

using namespace mlir;
using namespace mlir::trellis;

Layout Layout::fromSharding(ShardingAttr sharding, int64_t rank) {
  Layout layout = replicated(rank);
  if (!sharding)
    return layout;
  for (int64_t d = 0; d < rank; ++d) {
    ArrayRef<StringAttr> axes = sharding.getAxes(d);
    layout.dims[d].assign(axes.begin(), axes.end());
  }
  layout.unreduced.assign(sharding.getUnreduced().begin(),
                          sharding.getUnreduced().end());
  return layout;
}

bool Layout::sameUnreduced(const Layout &other) const {
  return unreduced.size() == other.unreduced.size() &&
         llvm::all_of(unreduced, [&](StringAttr axis) {
           return llvm::is_contained(other.unreduced, axis);
         });
}

bool Layout::uses(StringAttr axis) const {
  for (const auto &dim : dims)
    if (llvm::is_contained(dim, axis))
      return true;
  return llvm::is_contained(unreduced, axis);
}

std::string Layout::str() const {
  std::string text =
      "[" +
      llvm::join(llvm::map_range(dims,
                                 [](ArrayRef<StringAttr> dim) {
                                   return spmd::formatAxisSet(dim);
                                 }),
                 ", ") +
      "]";
  if (!unreduced.empty())
    text += (partialKind == PartialKind::Max   ? " unreduced max "
             : partialKind == PartialKind::Min ? " unreduced min "
                                               : " unreduced ") +
            spmd::formatAxisSet(unreduced);
  return text;
}

int64_t Resharder::size(ArrayRef<StringAttr> axes) {
  return mesh.getAxesSize(axes);
}

ArrayAttr Resharder::axesAttr(ArrayRef<StringAttr> axes) {
  SmallVector<Attribute> attrs(axes.begin(), axes.end());
  return b.getArrayAttr(attrs);
}

static RankedTensorType withDim(Value v, int64_t dim, int64_t extent);

RankedTensorType Resharder::localType(RankedTensorType global,
                                      const Layout &layout) {
  SmallVector<int64_t> shape(global.getShape());
  for (auto [d, axes] : llvm::enumerate(layout.dims))
    if (d < shape.size() && !ShapedType::isDynamic(shape[d]))
      shape[d] = llvm::divideCeil(shape[d], size(axes));
  return RankedTensorType::get(shape, global.getElementType());
}

bool Resharder::hasZero(Type element) {
  return isa<IntegerType, FloatType, IndexType>(element);
}

bool Resharder::isUneven(RankedTensorType global, const Layout &layout,
                         int64_t d) {
  if (d >= global.getRank() || d >= static_cast<int64_t>(layout.dims.size()))
    return false;
  int64_t extent = global.getDimSize(d);
  return !ShapedType::isDynamic(extent) && extent % size(layout.dims[d]) != 0;
}

Layout Resharder::evenPart(RankedTensorType global, const Layout &layout) {
  Layout even = layout;
  for (int64_t d = 0, e = even.dims.size(); d < e; ++d)
    if (isUneven(global, layout, d))
      even.dims[d].clear();
  return even;
}

Value Resharder::padAlong(Location loc, Value v, int64_t dim, int64_t extent) {
  auto type = cast<RankedTensorType>(v.getType());
  Type element = type.getElementType();
  if (!hasZero(element)) {
    mlir::emitError(loc) << "cannot pad a dimension of element type " << element
                         << " to split it unevenly; shard it evenly";
    failed = true;
    return v;
  }
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(type.getRank(), b.getIndexAttr(0));
  high[dim] = b.getIndexAttr(extent - type.getDimSize(dim));
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(element)));
  return tensor::PadOp::create(b, loc, withDim(v, dim, extent), v, low, high,
                               zero);
}

bool Resharder::divides(RankedTensorType global, const Layout &layout) {
  for (auto [d, axes] : llvm::enumerate(layout.dims)) {
    if (d >= static_cast<size_t>(global.getRank()))
      return false;
    int64_t extent = global.getDimSize(d);
    if (ShapedType::isDynamic(extent) || extent % size(axes) != 0)
      return false;
  }
  return true;
}

static RankedTensorType withDim(Value v, int64_t dim, int64_t extent) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = extent;
  return RankedTensorType::get(shape, type.getElementType());
}

static int64_t dimOf(Value v, int64_t dim) {
  return cast<RankedTensorType>(v.getType()).getDimSize(dim);
}

Value Resharder::allGather(Location loc, Value v, int64_t dim,
                           ArrayRef<StringAttr> axes) {
  ++numCollectives;
  auto type = withDim(v, dim, dimOf(v, dim) * size(axes));
  return spmd::AllGatherOp::create(b, loc, type, v, axesAttr(axes),
                                   b.getI64IntegerAttr(dim), b.getUnitAttr());
}

Value Resharder::localSlice(Location loc, Value v, int64_t dim,
                            ArrayRef<StringAttr> axes) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t block = type.getDimSize(dim) / size(axes);
  Value index =
      spmd::AxisIndexOp::create(b, loc, b.getIndexType(), axesAttr(axes));
  Value offset = arith::MulIOp::create(
      b, loc, index, arith::ConstantIndexOp::create(b, loc, block));
  return sliceAlong(loc, v, dim, offset, block);
}

Value Resharder::sliceAlong(Location loc, Value v, int64_t dim,
                            OpFoldResult offset, int64_t length) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(b.getIndexAttr(d == dim ? length : type.getDimSize(d)));
  offsets[dim] = offset;
  return tensor::ExtractSliceOp::create(b, loc, withDim(v, dim, length), v,
                                        offsets, sizes, strides);
}

Value Resharder::permute(Location loc, Value v, ArrayRef<StringAttr> axes,
                         ArrayRef<int64_t> pairs) {
  ++numCollectives;
  return spmd::PpermuteOp::create(b, loc, v.getType(), v, axesAttr(axes),
                                  b.getDenseI64ArrayAttr(pairs));
}

Value Resharder::allToAll(Location loc, Value v, StringAttr axis,
                          int64_t splitDim, int64_t concatDim) {
  ++numCollectives;
  int64_t n = size({axis});
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[splitDim] /= n;
  shape[concatDim] *= n;
  return spmd::AllToAllOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v,
      axesAttr({axis}), b.getI64IntegerAttr(splitDim),
      b.getI64IntegerAttr(concatDim));
}

Value Resharder::swapAxes(Location loc, Value v, StringAttr from,
                          StringAttr to) {
  // The device at (from = x, to = y) holds block x and needs block y, which
  // the device at (from = y, to = x) holds: a transposition of the group
  // over (from, to).
  int64_t n = size({from});
  SmallVector<int64_t> pairs;
  for (int64_t x = 0; x < n; ++x)
    for (int64_t y = 0; y < n; ++y) {
      pairs.push_back(y * n + x); // source (from = y, to = x)
      pairs.push_back(x * n + y); // target (from = x, to = y)
    }
  return permute(loc, v, {from, to}, pairs);
}

Value Resharder::permuteBlocks(Location loc, Value v, const Layout &from,
                               const Layout &to) {
  // The axes both layouts use, in mesh order; the same per-dimension block
  // counts.
  SmallVector<StringAttr> group;
  for (Attribute name : mesh.getAxisNames()) {
    auto axis = cast<StringAttr>(name);
    if (from.uses(axis) != to.uses(axis))
      return {};
    if (from.uses(axis))
      group.push_back(axis);
  }
  if (group.empty() || from.dims.size() != to.dims.size())
    return {};
  for (auto [f, t] : llvm::zip(from.dims, to.dims))
    if (size(f) != size(t))
      return {};
  // Block coordinates of the device at `index` in the group, per layout.
  SmallVector<int64_t> sizes;
  for (StringAttr axis : group)
    sizes.push_back(size({axis}));
  const int64_t n = size(group);
  auto blocks = [&](const Layout &layout, int64_t index) {
    SmallVector<int64_t> coord(group.size());
    for (int64_t k = group.size() - 1; k >= 0; --k) {
      coord[k] = index % sizes[k];
      index /= sizes[k];
    }
    SmallVector<int64_t> block;
    for (const auto &dim : layout.dims) {
      int64_t b = 0;
      for (StringAttr axis : dim) {
        int64_t k = llvm::find(group, axis) - group.begin();
        b = b * sizes[k] + coord[k];
      }
      block.push_back(b);
    }
    return block;
  };
  std::map<SmallVector<int64_t>, int64_t> holder;
  for (int64_t q = 0; q < n; ++q)
    holder[blocks(from, q)] = q;
  SmallVector<int64_t> pairs;
  for (int64_t p = 0; p < n; ++p) {
    auto it = holder.find(blocks(to, p));
    if (it == holder.end())
      return {};
    pairs.push_back(it->second);
    pairs.push_back(p);
  }
  return permute(loc, v, group, pairs);
}

Value Resharder::reduce(Location loc, Value v, ArrayRef<StringAttr> axes,
                        PartialKind kind) {
  ++numCollectives;
  switch (kind) {
  case PartialKind::Max:
    return spmd::PmaxOp::create(b, loc, v.getType(), v, axesAttr(axes));
  case PartialKind::Min:
    return spmd::PminOp::create(b, loc, v.getType(), v, axesAttr(axes));
  case PartialKind::Sum:
    break;
  }
  return spmd::PsumOp::create(b, loc, v.getType(), v, axesAttr(axes));
}

Value Resharder::makePartial(Location loc, Value v, ArrayRef<StringAttr> axes,
                             PartialKind kind) {
  if (kind != PartialKind::Sum)
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  Type element = type.getElementType();
  if (!hasZero(element)) {
    mlir::emitError(loc) << "cannot make a value of element type " << element
                         << " a partial sum (unreduced axes)";
    failed = true;
    return v;
  }
  Value index =
      spmd::AxisIndexOp::create(b, loc, b.getIndexType(), axesAttr(axes));
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                            arith::ConstantIndexOp::create(b, loc, 0));
  // Zeros of the value's shape, its dynamic sizes read from it.
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, v, d));
  Value scalar = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(element)));
  Value zeros = tensor::SplatOp::create(b, loc, type, scalar, sizes);
  return arith::SelectOp::create(b, loc, first, v, zeros);
}

Value Resharder::reduceScatter(Location loc, Value v, int64_t dim,
                               ArrayRef<StringAttr> axes) {
  ++numCollectives;
  auto type = withDim(v, dim, dimOf(v, dim) / size(axes));
  return spmd::PsumScatterOp::create(b, loc, type, v, axesAttr(axes),
                                     b.getI64IntegerAttr(dim), b.getUnitAttr());
}

namespace {
/// A block of a global array: per dimension, [lo, lo + size).
struct Box {
  SmallVector<int64_t> lo, size;
  bool contains(const Box &other) const {
    for (size_t k = 0; k < lo.size(); ++k)
      if (other.lo[k] < lo[k] || other.lo[k] + other.size[k] > lo[k] + size[k])
        return false;
    return true;
  }
};
} // namespace

Value Resharder::routeBlocks(Location loc, Value local, RankedTensorType global,
                             const Layout &from, const Layout &to,
                             int64_t budget) {
  RouteSource source{local, global, from,
                     SmallVector<int64_t>(global.getRank(), 0)};
  return routeBlocks(loc, source, global, to, budget);
}

Value Resharder::routeBlocks(Location loc, ArrayRef<RouteSource> sources,
                             RankedTensorType global, const Layout &to,
                             int64_t budget) {
  if (!global.hasStaticShape() || !to.unreduced.empty() || !divides(global, to))
    return {};
  for (const RouteSource &source : sources)
    if (!source.type.hasStaticShape() || source.type.getNumElements() == 0 ||
        !source.from.unreduced.empty() || !divides(source.type, source.from))
      return {};
  const int64_t rank = global.getRank();
  // The axes any layout uses, in mesh order; devices differing only in
  // other axes hold and need the same blocks.
  SmallVector<StringAttr> group;
  for (Attribute name : mesh.getAxisNames()) {
    auto axis = cast<StringAttr>(name);
    if (to.uses(axis) || llvm::any_of(sources, [&](const RouteSource &source) {
          return source.from.uses(axis);
        }))
      group.push_back(axis);
  }
  if (group.empty())
    return {};
  SmallVector<int64_t> sizes;
  for (StringAttr axis : group)
    sizes.push_back(size({axis}));
  const int64_t n = size(group);
  // The routing plans every device's blocks: on more devices than any run
  // has (a mesh may declare up to 2^31), leave the reshard to the
  // collective steps, whose cost does not grow with the device count.
  if (n > kMaxRoutedDevices)
    return {};
  // Device `device`'s block of an array of `shape` laid out by `layout`,
  // placed at `offset` in the target array.
  auto boxOf = [&](const Layout &layout, ArrayRef<int64_t> shape,
                   ArrayRef<int64_t> offset, int64_t device) {
    SmallVector<int64_t> coord(group.size());
    for (int64_t k = group.size() - 1, rest = device; k >= 0; --k) {
      coord[k] = rest % sizes[k];
      rest /= sizes[k];
    }
    Box box;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t block = 0;
      for (StringAttr axis : layout.dims[d]) {
        int64_t k = llvm::find(group, axis) - group.begin();
        block = block * sizes[k] + coord[k];
      }
      int64_t extent = shape[d] / size(layout.dims[d]);
      box.lo.push_back(offset[d] + block * extent);
      box.size.push_back(extent);
    }
    return box;
  };
  SmallVector<SmallVector<Box>> have(sources.size());
  SmallVector<Box> need, whole;
  for (auto [i, source] : llvm::enumerate(sources)) {
    for (int64_t p = 0; p < n; ++p)
      have[i].push_back(
          boxOf(source.from, source.type.getShape(), source.offset, p));
    whole.push_back(
        Box{source.offset, llvm::to_vector(source.type.getShape())});
  }
  SmallVector<int64_t> zeros(rank, 0);
  for (int64_t p = 0; p < n; ++p)
    need.push_back(boxOf(to, global.getShape(), zeros, p));
  // Pieces: per dimension the greatest extent dividing every block and
  // every source's offset, so that each piece lies inside one source, one
  // of its blocks and one target block.
  SmallVector<int64_t> piece;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = need[0].size[d];
    for (auto [i, source] : llvm::enumerate(sources))
      extent = std::gcd(std::gcd(extent, have[i][0].size[d]), source.offset[d]);
    if (extent == 0)
      return {};
    piece.push_back(extent);
  }
  // Each target block's pieces: copied from the device's own block of the
  // source holding them, or received from its least loaded holder.
  struct Transfer {
    int64_t source, target, from;
    SmallVector<int64_t> lo;
  };
  SmallVector<Transfer> transfers;
  // Every device needs as many pieces (the target blocks have one size).
  SmallVector<int64_t> counts;
  int64_t cells = 1;
  for (int64_t d = 0; d < rank; ++d) {
    counts.push_back(need[0].size[d] / piece[d]);
    cells *= counts.back();
    if (cells > kMaxRoutedPieces / n)
      return {};
  }
  // Senders are picked least loaded first, lowest device on ties, from
  // the devices holding the piece's block of its source: the block fixes
  // the coordinates of the axes the source's layout splits over; the others
  // are free. Each block's holders wait in a heap of (load when queued,
  // device); loads only grow, so an entry whose load is stale goes back
  // with the current one until the least is current.
  SmallVector<int64_t> step(group.size(), 1);
  for (int64_t k = static_cast<int64_t>(group.size()) - 2; k >= 0; --k)
    step[k] = step[k + 1] * sizes[k + 1];
  using Holder = std::pair<int64_t, int64_t>;
  using Holders =
      std::priority_queue<Holder, std::vector<Holder>, std::greater<Holder>>;
  std::map<std::pair<int64_t, int64_t>, Holders> holdersOf;
  SmallVector<int64_t> load(n, 0);
  auto pickSender = [&](int64_t i, const Box &cell) {
    const RouteSource &source = sources[i];
    SmallVector<int64_t> coord(group.size(), -1);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t block = (cell.lo[d] - source.offset[d]) / have[i][0].size[d];
      for (StringAttr axis : llvm::reverse(source.from.dims[d])) {
        int64_t k = llvm::find(group, axis) - group.begin();
        coord[k] = block % sizes[k];
        block /= sizes[k];
      }
    }
    int64_t fixed = 0;
    for (auto [k, c] : llvm::enumerate(coord))
      if (c >= 0)
        fixed += c * step[k];
    auto [it, inserted] = holdersOf.try_emplace({i, fixed});
    Holders &heap = it->second;
    if (inserted) {
      SmallVector<int64_t> free;
      int64_t count = 1;
      for (auto [k, c] : llvm::enumerate(coord))
        if (c < 0) {
          free.push_back(k);
          count *= sizes[k];
        }
      for (int64_t h = 0; h < count; ++h) {
        int64_t device = fixed;
        for (int64_t f = free.size() - 1, rest = h; f >= 0; --f) {
          device += rest % sizes[free[f]] * step[free[f]];
          rest /= sizes[free[f]];
        }
        heap.push({load[device], device});
      }
    }
    while (heap.top().first != load[heap.top().second]) {
      int64_t device = heap.top().second;
      heap.pop();
      heap.push({load[device], device});
    }
    int64_t best = heap.top().second;
    assert(have[i][best].contains(cell) && "a holder lacks the piece");
    heap.pop();
    heap.push({++load[best], best});
    return best;
  };
  // Per device, the pieces it holds: (source, where).
  SmallVector<SmallVector<std::pair<int64_t, SmallVector<int64_t>>>> ownPieces(
      n);
  for (int64_t p = 0; p < n; ++p) {
    SmallVector<int64_t> index(rank, 0);
    for (int64_t c = 0; c < cells; ++c) {
      Box cell;
      for (int64_t d = rank - 1, rest = c; d >= 0; --d) {
        index[d] = rest % counts[d];
        rest /= counts[d];
      }
      for (int64_t d = 0; d < rank; ++d)
        cell.lo.push_back(need[p].lo[d] + index[d] * piece[d]);
      cell.size = piece;
      auto holding =
          llvm::find_if(whole, [&](const Box &w) { return w.contains(cell); });
      if (holding == whole.end())
        return {};
      int64_t i = holding - whole.begin();
      if (have[i][p].contains(cell)) {
        ownPieces[p].push_back({i, cell.lo});
        continue;
      }
      int64_t best = pickSender(i, cell);
      transfers.push_back({best, p, i, cell.lo});
    }
  }
  if (transfers.empty() && sources.size() == 1)
    return {}; // slicing alone: the default path does it
  // Rounds: in each, a device sends at most one piece and receives at most
  // one. The transfers are the edges of a bipartite graph (senders,
  // receivers), so as many rounds as the busiest device has transfers
  // suffice (Konig): each edge takes a round free at both ends, after
  // swapping two rounds along an alternating path when none is.
  int64_t rounds = 0;
  {
    SmallVector<int64_t> sent(n, 0), received(n, 0);
    for (const Transfer &t : transfers)
      rounds = std::max({rounds, ++sent[t.source], ++received[t.target]});
  }
  // Each round and each slot of own pieces writes tables with a row per
  // device.
  if ((rounds + cells) * n > kMaxRoutedPieces)
    return {};
  SmallVector<int64_t> roundOf(transfers.size(), -1);
  // The transfer each device sends / receives in each round, or -1.
  SmallVector<SmallVector<int64_t>> sending(n,
                                            SmallVector<int64_t>(rounds, -1));
  SmallVector<SmallVector<int64_t>> receiving(n,
                                              SmallVector<int64_t>(rounds, -1));
  auto freeRound = [&](ArrayRef<int64_t> slots) {
    return static_cast<int64_t>(llvm::find(slots, -1) - slots.begin());
  };
  for (auto [e, t] : llvm::enumerate(transfers)) {
    int64_t a = freeRound(sending[t.source]);
    int64_t c = freeRound(receiving[t.target]);
    if (receiving[t.target][a] >= 0) {
      // Swap rounds a and c along the path from the receiver that
      // alternates a-transfers (into a receiver) and c-transfers (out of
      // a sender); it cannot reach this sender, where a is free.
      SmallVector<int64_t> path;
      int64_t device = t.target;
      bool atReceiver = true;
      while (true) {
        int64_t next = atReceiver ? receiving[device][a] : sending[device][c];
        if (next < 0)
          break;
        path.push_back(next);
        device = atReceiver ? transfers[next].source : transfers[next].target;
        atReceiver = !atReceiver;
      }
      for (int64_t p : path) {
        sending[transfers[p].source][roundOf[p]] = -1;
        receiving[transfers[p].target][roundOf[p]] = -1;
      }
      for (int64_t p : path) {
        roundOf[p] = roundOf[p] == a ? c : a;
        sending[transfers[p].source][roundOf[p]] = p;
        receiving[transfers[p].target][roundOf[p]] = p;
      }
    }
    roundOf[e] = a;
    sending[t.source][a] = e;
    receiving[t.target][a] = e;
  }
  // The bytes this plan sends; beyond int64_t it declines.
  int64_t pieceBytes = trellis::elementBytes(global.getElementType()), sent;
  for (int64_t extent : piece)
    if (llvm::MulOverflow(pieceBytes, extent, pieceBytes))
      return {};
  if (llvm::MulOverflow(rounds, pieceBytes, sent) || sent >= budget)
    return {};

  // Tables indexed by the device's position in the group.
  Value device =
      spmd::AxisIndexOp::create(b, loc, b.getIndexType(), axesAttr(group));
  auto entries = [&](ArrayRef<int64_t> values, int64_t cols) {
    auto type = RankedTensorType::get({n, cols}, b.getIndexType());
    Value table =
        arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
    SmallVector<OpFoldResult> out;
    for (int64_t col = 0; col < cols; ++col)
      out.push_back(
          tensor::ExtractOp::create(
              b, loc, table,
              ValueRange{device, arith::ConstantIndexOp::create(b, loc, col)})
              .getResult());
    return out;
  };
  SmallVector<OpFoldResult> pieceSizes, strides;
  for (int64_t d = 0; d < rank; ++d) {
    pieceSizes.push_back(b.getIndexAttr(piece[d]));
    strides.push_back(b.getIndexAttr(1));
  }
  RankedTensorType pieceType =
      RankedTensorType::get(piece, global.getElementType());
  // The piece each device takes from its own block of source `from[p]` at
  // `src[p]`: each source some device takes from is sliced (at 0 on the
  // other devices) and the devices select theirs.
  auto takePieces = [&](ArrayRef<int64_t> from, ArrayRef<int64_t> src) {
    Value taken;
    for (auto [i, source] : llvm::enumerate(sources)) {
      if (!llvm::is_contained(from, static_cast<int64_t>(i)))
        continue;
      SmallVector<int64_t> at(src);
      for (int64_t p = 0; p < n; ++p)
        if (from[p] != static_cast<int64_t>(i))
          std::fill_n(at.begin() + p * rank, rank, 0);
      Value slice = tensor::ExtractSliceOp::create(
          b, loc, pieceType, source.local, entries(at, rank), pieceSizes,
          strides);
      if (!taken) {
        taken = slice;
        continue;
      }
      SmallVector<int64_t> flags;
      for (int64_t f : from)
        flags.push_back(f == static_cast<int64_t>(i));
      Value flag = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, cast<Value>(entries(flags, 1)[0]),
          arith::ConstantIndexOp::create(b, loc, 0));
      taken = arith::SelectOp::create(b, loc, flag, slice, taken);
    }
    return taken;
  };
  // Writes `value` (a piece) into `result` at `at`, on the devices whose
  // flag is set (all of them when `everywhere`).
  auto place = [&](Value result, Value value, ArrayRef<OpFoldResult> at,
                   ArrayRef<int64_t> flags, bool everywhere) -> Value {
    Value inserted = tensor::InsertSliceOp::create(b, loc, value, result, at,
                                                   pieceSizes, strides);
    if (everywhere)
      return inserted;
    Value flag = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, cast<Value>(entries(flags, 1)[0]),
        arith::ConstantIndexOp::create(b, loc, 0));
    return arith::SelectOp::create(b, loc, flag, inserted, result);
  };
  auto offsetIn = [&](const Box &box, ArrayRef<int64_t> lo,
                      SmallVectorImpl<int64_t> &out) {
    for (int64_t d = 0; d < rank; ++d)
      out.push_back(lo[d] - box.lo[d]);
  };
  Value result =
      tensor::EmptyOp::create(b, loc, need[0].size, global.getElementType());
  // Pieces a device already holds, one slot per piece of the device that
  // holds the most.
  size_t slots = 0;
  for (const auto &pieces : ownPieces)
    slots = std::max(slots, pieces.size());
  for (size_t k = 0; k < slots; ++k) {
    SmallVector<int64_t> from, src, at, flags;
    bool everywhere = true;
    for (int64_t p = 0; p < n; ++p) {
      bool has = k < ownPieces[p].size();
      everywhere &= has;
      flags.push_back(has);
      if (has) {
        auto [i, lo] = ownPieces[p][k];
        from.push_back(i);
        offsetIn(have[i][p], lo, src);
        offsetIn(need[p], lo, at);
      } else {
        from.push_back(0);
        src.append(rank, 0);
        at.append(rank, 0);
      }
    }
    result = place(result, takePieces(from, src), entries(at, rank), flags,
                   everywhere);
  }
  SmallVector<SmallVector<int64_t>> inRound(rounds);
  for (auto [t, r] : llvm::enumerate(roundOf))
    inRound[r].push_back(t);
  for (int64_t r = 0; r < rounds; ++r) {
    SmallVector<int64_t> from(n, 0), src(n * rank, 0), at(n * rank, 0),
        flags(n, 0), pairs;
    for (int64_t t : inRound[r]) {
      const Transfer &transfer = transfers[t];
      from[transfer.source] = transfer.from;
      for (int64_t d = 0; d < rank; ++d) {
        src[transfer.source * rank + d] =
            transfer.lo[d] - have[transfer.from][transfer.source].lo[d];
        at[transfer.target * rank + d] =
            transfer.lo[d] - need[transfer.target].lo[d];
      }
      flags[transfer.target] = 1;
      pairs.append({transfer.source, transfer.target});
    }
    Value received = permute(loc, takePieces(from, src), group, pairs);
    result = place(result, received, entries(at, rank), flags,
                   llvm::all_of(flags, [](int64_t f) { return f != 0; }));
  }
  return result;
}

Value Resharder::reducePartial(Location loc, Value local, Layout &cur,
                               const Layout &to) {
  const int64_t rank = cur.dims.size();
  SmallVector<StringAttr> pending(cur.unreduced);
  // Only sums have a reduce-scatter.
  for (int64_t d = 0;
       d < rank && !pending.empty() && cur.partialKind == PartialKind::Sum;
       ++d) {
    if (!isAxisPrefix(cur.dims[d], to.dims[d]))
      continue;
    SmallVector<StringAttr> scatter;
    for (StringAttr axis :
         ArrayRef<StringAttr>(to.dims[d]).drop_front(cur.dims[d].size())) {
      if (!llvm::is_contained(pending, axis))
        break;
      scatter.push_back(axis);
    }
    if (scatter.empty() || dimOf(local, d) % size(scatter) != 0)
      continue;
    local = reduceScatter(loc, local, d, scatter);
    llvm::append_range(cur.dims[d], scatter);
    for (StringAttr axis : scatter)
      llvm::erase(pending, axis);
  }
  if (!pending.empty())
    local = reduce(loc, local, pending, cur.partialKind);
  cur.unreduced.clear();
  return local;
}

Value Resharder::moveAxesBetweenDims(Location loc, Value local, Layout &cur,
                                     const Layout &to) {
  const int64_t rank = cur.dims.size();
  bool moved = true;
  while (moved) {
    moved = false;
    for (int64_t i = 0; i < rank && !moved; ++i) {
      if (cur.dims[i].empty() || isAxisPrefix(cur.dims[i], to.dims[i]))
        continue;
      StringAttr axis = cur.dims[i].back();
      for (int64_t j = 0; j < rank; ++j) {
        if (j == i || !isAxisPrefix(cur.dims[j], to.dims[j]) ||
            to.dims[j].size() <= cur.dims[j].size() ||
            to.dims[j][cur.dims[j].size()] != axis)
          continue;
        if (dimOf(local, j) % size({axis}) != 0)
          continue;
        local = allToAll(loc, local, axis, /*splitDim=*/j, /*concatDim=*/i);
        cur.dims[i].pop_back();
        cur.dims[j].push_back(axis);
        moved = true;
        break;
      }
    }
  }
  return local;
}

Value Resharder::swapSameSizeAxes(Location loc, Value local, Layout &cur,
                                  const Layout &to) {
  const int64_t rank = cur.dims.size();
  for (int64_t d = 0; d < rank; ++d) {
    ArrayRef<StringAttr> c = cur.dims[d], t = to.dims[d];
    if (c.empty() || c.size() != t.size() ||
        !llvm::equal(c.drop_back(), t.drop_back()) || c.back() == t.back())
      continue;
    StringAttr a = c.back(), bAxis = t.back();
    if (size({a}) != size({bAxis}) || cur.uses(bAxis) ||
        llvm::any_of(to.dims, [&](const SmallVector<StringAttr> &dim) {
          return &dim != &to.dims[d] && llvm::is_contained(dim, a);
        }))
      continue;
    local = swapAxes(loc, local, a, bAxis);
    cur.dims[d].back() = bAxis;
  }
  return local;
}

Value Resharder::gatherPastCommonPrefix(Location loc, Value local, Layout &cur,
                                        const Layout &to) {
  const int64_t rank = cur.dims.size();
  for (int64_t d = 0; d < rank; ++d) {
    size_t common = 0;
    while (common < cur.dims[d].size() && common < to.dims[d].size() &&
           cur.dims[d][common] == to.dims[d][common])
      ++common;
    if (common == cur.dims[d].size())
      continue;
    SmallVector<StringAttr> gather(cur.dims[d].begin() + common,
                                   cur.dims[d].end());
    local = allGather(loc, local, d, gather);
    cur.dims[d].resize(common);
    return local;
  }
  return Value();
}

Value Resharder::sliceFurther(Location loc, Value local, Layout &cur,
                              const Layout &to) {
  const int64_t rank = cur.dims.size();
  for (int64_t d = 0; d < rank; ++d) {
    if (cur.dims[d].size() == to.dims[d].size())
      continue;
    SmallVector<StringAttr> added(to.dims[d].begin() + cur.dims[d].size(),
                                  to.dims[d].end());
    local = localSlice(loc, local, d, added);
    cur.dims[d] = to.dims[d];
  }
  return local;
}

namespace {
/// Records the ops a builder inserts, passing them on to the builder's own
/// listener.
struct Recorder : public OpBuilder::Listener {
  Recorder(llvm::SmallPtrSet<Operation *, 32> &ops, OpBuilder::Listener *next)
      : ops(ops), next(next) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ops.insert(op);
    if (next)
      next->notifyOperationInserted(op, previous);
  }
  llvm::SmallPtrSet<Operation *, 32> &ops;
  OpBuilder::Listener *next;
};
} // namespace

Value Resharder::recorded(function_ref<Value()> build) {
  Recorder recorder(created, b.getListener());
  OpBuilder::Listener *previous = b.getListener();
  b.setListener(&recorder);
  llvm::scope_exit restore([&] { b.setListener(previous); });
  return build();
}

void Resharder::eraseUnusedReshards(Operation *root) {
  // A static size read from a gathered block is a constant: the gather it
  // read is then unused (`tensor.dim` of a sharded tensor).
  SmallVector<tensor::DimOp> dims;
  root->walk([&](tensor::DimOp dim) { dims.push_back(dim); });
  for (tensor::DimOp dim : dims) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto type = dyn_cast<RankedTensorType>(dim.getSource().getType());
    if (!index || !type || *index < 0 || *index >= type.getRank() ||
        type.isDynamicDim(*index) ||
        !created.contains(dim.getSource().getDefiningOp()))
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(dim);
    dim.replaceAllUsesWith(
        arith::ConstantIndexOp::create(b, dim.getLoc(), type.getDimSize(*index))
            .getResult());
    dim.erase();
  }
  // Unread ops first; erasing one may leave the ops it read unread.
  SmallVector<Operation *> work;
  // (An op without results, such as the yield of a pad's region, is not
  // unread but part of its parent.)
  root->walk([&](Operation *op) {
    if (created.contains(op) && op->getNumResults() && op->use_empty())
      work.push_back(op);
  });
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!created.contains(op) || !op->use_empty())
      continue;
    SmallVector<Operation *> read;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        read.push_back(def);
    op->walk([&](Operation *nested) { created.erase(nested); });
    op->erase();
    for (Operation *def : read)
      if (created.contains(def) && def->use_empty())
        work.push_back(def);
  }
}

Value Resharder::moveStepwise(Location loc, Value local, Layout &cur,
                              const Layout &to) {
  // 3-5, repeated until every dimension's axes are a prefix of the
  // target's: move axes between dimensions (all_to_all), replace an axis by
  // one of the same size (ppermute), and otherwise gather the axes past the
  // common prefix of one dimension, which may unblock further moves.
  while (true) {
    local = moveAxesBetweenDims(loc, local, cur, to);
    local = swapSameSizeAxes(loc, local, cur, to);
    Value gathered = gatherPastCommonPrefix(loc, local, cur, to);
    if (!gathered)
      break;
    local = gathered;
  }
  // 6. Add what the target splits further: slice locally.
  return sliceFurther(loc, local, cur, to);
}

int64_t Resharder::priced(function_ref<void()> build) {
  // Built where the reshard goes, priced with CommCost.h's formulas (the
  // ones the collectives report; their own getBytesSentPerDevice cannot
  // see the mesh before the partitioned body is in the module), erased.
  Block *block = b.getInsertionBlock();
  Block::iterator end = b.getInsertionPoint();
  Operation *before = end == block->begin() ? nullptr : &*std::prev(end);
  int64_t collectives = numCollectives;
  build();
  numCollectives = collectives;
  auto first = before ? std::next(before->getIterator()) : block->begin();
  SmallVector<Operation *> trial;
  for (Operation &op : llvm::make_range(first, end))
    trial.push_back(&op);
  // A block of dynamic shape, or so large that the ring formulas (at most
  // 2n times a block over n devices) leave int64_t, has no price: the plan
  // is then unbounded, dearer than any.
  bool unbounded = false;
  auto blockBytes = [&](Value v, int64_t n) -> int64_t {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t bytes = trellis::elementBytes(type.getElementType()), bound;
    for (int64_t dim : type.getShape())
      if (ShapedType::isDynamic(dim) || llvm::MulOverflow(bytes, dim, bytes)) {
        unbounded = true;
        return 0;
      }
    if (llvm::MulOverflow(bytes, 2 * n, bound))
      unbounded = true;
    return bytes;
  };
  auto groupSize = [&](ArrayAttr axes) {
    return size(llvm::to_vector(axes.getAsRange<StringAttr>()));
  };
  int64_t bytes = 0;
  auto add = [&](int64_t more) {
    if (llvm::AddOverflow(bytes, more, bytes))
      unbounded = true;
  };
  for (Operation *op : trial) {
    if (auto gather = dyn_cast<spmd::AllGatherOp>(op)) {
      int64_t n = groupSize(gather.getAxes());
      int64_t block = blockBytes(gather.getOperand(), n);
      add(rt::ringShareBytes(block * n, n));
    } else if (auto allToAll = dyn_cast<spmd::AllToAllOp>(op)) {
      int64_t n = groupSize(allToAll.getAxes());
      add(rt::ringShareBytes(blockBytes(allToAll.getOperand(), n), n));
    } else if (auto permute = dyn_cast<spmd::PpermuteOp>(op)) {
      add(rt::permuteBytes(blockBytes(permute.getOperand(), 1), true));
    } else if (auto scatter = dyn_cast<spmd::PsumScatterOp>(op)) {
      int64_t n = groupSize(scatter.getAxes());
      add(rt::ringShareBytes(blockBytes(scatter.getOperand(), n), n));
    } else if (isa<spmd::PsumOp, spmd::PmaxOp, spmd::PminOp>(op)) {
      int64_t n = groupSize(op->getAttrOfType<ArrayAttr>("axes"));
      add(rt::allReduceBytes(blockBytes(op->getOperand(0), n), n));
    }
  }
  for (Operation *op : llvm::reverse(trial)) {
    op->walk([&](Operation *nested) { created.erase(nested); });
    op->erase();
  }
  return unbounded ? std::numeric_limits<int64_t>::max() : bytes;
}

int64_t Resharder::stepwiseBytes(Location loc, Value local, const Layout &cur,
                                 const Layout &to) {
  return priced([&] {
    Layout layout = cur;
    moveStepwise(loc, local, layout, to);
  });
}

int64_t Resharder::reshardBytes(Location loc, Value local,
                                RankedTensorType global, const Layout &from,
                                const Layout &to) {
  return priced([&] { reshard(loc, local, global, from, to); });
}

Value Resharder::reshard(Location loc, Value local, RankedTensorType global,
                         const Layout &from, const Layout &target) {
  Recorder recorder(created, b.getListener());
  OpBuilder::Listener *previous = b.getListener();
  b.setListener(&recorder);
  llvm::scope_exit restore([&] { b.setListener(previous); });
  bool uneven = false;
  for (int64_t d = 0; d < global.getRank(); ++d)
    uneven |= isUneven(global, from, d) || isUneven(global, target, d);
  if (!uneven)
    return reshardBlocks(loc, local, global, from, target);

  // Blocks of a dimension its axes do not divide are those of the padded
  // extent (the next multiple; the last blocks end in padding). The even
  // reshard moves blocks of a padded array, so per dimension:
  //   - split the same way on both sides: it keeps its padded extent;
  //   - uneven on both sides with one padded extent (other axes of the
  //     same size): moved at that extent;
  //   - uneven in `from`, whole in `target`: moved at `from`'s padded
  //     extent (gathered, or its axes taken by all_to_all), the padding
  //     cut off last;
  //   - whole in `from`, uneven in `target`: padded first;
  //   - otherwise gathered (and cut to its extent) first, then padded if
  //     `target` splits it unevenly.
  const int64_t rank = global.getRank();
  SmallVector<int64_t> padded(global.getShape());
  SmallVector<int64_t> cutLast;
  Layout cur = from;
  cur.dims.resize(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = global.getDimSize(d);
    bool unevenFrom = isUneven(global, cur, d);
    bool unevenTo = isUneven(global, target, d);
    int64_t paddedFrom = llvm::alignTo(extent, size(cur.dims[d]));
    int64_t paddedTo = llvm::alignTo(extent, size(target.dims[d]));
    if (cur.dims[d] == target.dims[d] ||
        (unevenFrom && unevenTo && paddedFrom == paddedTo)) {
      padded[d] = paddedFrom;
      continue;
    }
    if (unevenFrom && target.dims[d].empty()) {
      padded[d] = paddedFrom;
      cutLast.push_back(d);
      continue;
    }
    if (unevenFrom || (unevenTo && !cur.dims[d].empty())) {
      local = allGather(loc, local, d, cur.dims[d]);
      if (unevenFrom)
        local = sliceAlong(loc, local, d, b.getIndexAttr(0), extent);
      cur.dims[d].clear();
    }
    if (unevenTo) {
      local = padAlong(loc, local, d, paddedTo);
      padded[d] = paddedTo;
    }
  }
  local = reshardBlocks(loc, local,
                        RankedTensorType::get(padded, global.getElementType()),
                        cur, target);
  for (int64_t d : cutLast)
    local = sliceAlong(loc, local, d, b.getIndexAttr(0), global.getDimSize(d));
  return local;
}

Value Resharder::reshardBlocks(Location loc, Value local,
                               RankedTensorType global, const Layout &from,
                               const Layout &target) {
  Layout cur = from;
  cur.dims.resize(global.getRank());
  // Below, `to` is the target's split only; a partial target is dealt with
  // first (kept partial) or last (made partial).
  Layout to = target;
  to.unreduced.clear();
  // Moving blocks is linear, so a value partial over exactly the target's
  // axes moves as it is and stays partial.
  const bool keepPartial = !target.unreduced.empty() &&
                           cur.sameUnreduced(target) &&
                           cur.partialKind == target.partialKind;
  if (keepPartial)
    cur.unreduced.clear();

  // 1. Partial sums: reduce-scatter onto the dimension the target splits
  // next over the reduced axes, then all-reduce the rest.
  if (!cur.unreduced.empty())
    local = reducePartial(loc, local, cur, to);

  // 2. The same axes splitting every dimension into as many blocks, in
  // another order: each device's target block is exactly one device's
  // current block, so one ppermute moves them all.
  if (cur != to)
    if (Value permuted = permuteBlocks(loc, local, cur, to)) {
      local = permuted;
      cur = to;
    }

  // 2b. Pieces of target blocks sent to the devices lacking them, when
  // that moves fewer bytes than steps 3-6 would (built aside and priced).
  if (cur != to && cur.unreduced.empty())
    if (Value routed = routeBlocks(loc, local, global, cur, to,
                                   stepwiseBytes(loc, local, cur, to))) {
      local = routed;
      cur = to;
    }

  local = moveStepwise(loc, local, cur, to);
  if (!target.unreduced.empty() && !keepPartial)
    local = makePartial(loc, local, target.unreduced, target.partialKind);
  return local;
}
