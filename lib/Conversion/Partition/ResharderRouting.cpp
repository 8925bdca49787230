//===- ResharderRouting.cpp - Reshards as routed pieces -------------------===//
//
// Resharder::routeBlocks: a target block built from pieces of source
// blocks, each device copying the pieces it holds and receiving the others
// from their least loaded holders in rounds of ppermutes.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "lib/Conversion/Partition/Resharder.h"
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
