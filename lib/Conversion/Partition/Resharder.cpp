//===- Resharder.cpp - Moving per-device blocks between layouts -----------===//
//
// Layouts and the plan of a reshard: the steps from one layout to another
// (reduce, move axes, swap, gather, slice), priced against a routed
// reshard (ResharderRouting.cpp); the collectives the steps emit are in
// ResharderCollectives.cpp.
//
//===----------------------------------------------------------------------===//

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
