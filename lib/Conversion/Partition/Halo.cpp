//===- Halo.cpp - Windows of split loops by halo exchange -----------------===//
//
// A convolution, pooling or stencil reads an operand dimension through a
// window of a loop (ShardingRule::windows). When the partitioner splits
// that loop, the device computing the block [o0, o0 + b) needs the
// elements [s * o0, s * o0 + s * (b - 1) + maxOffset] of the dimension:
// its own block and a few elements on each side.
//
// When the dimension's source (the operand, or the tensor a tensor.pad
// pads with a constant) is split like the loop, a device already holds
// the middle of its window. It receives the rest, the halo, from its
// neighbours by ppermute (one per side and dimension, dimensions in turn
// so that 2-D windows get their corners), and the devices at the ends
// take the padding value instead. Otherwise the dimension is gathered and
// each device slices its window out of it.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

/// The padding value of `pad` in the partitioned body (a constant is
/// rebuilt there: it may live in the pad's own region).
static Value localPaddingValue(OpBuilder &b, IRMapping &mapping,
                               tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    return arith::ConstantOp::create(b, pad.getLoc(), value.getType(),
                                     cast<TypedAttr>(constant));
  return mapping.lookupOrDefault(value);
}

/// `local`, a block of `block` elements along `dim` split over `axes`,
/// turned into the elements [start, end) relative to the block's first:
/// those before it come from the previous device, those after it from
/// the next, and the first and last device take `padding` there (a
/// scalar; null when nothing beyond the ends is read). With `compact`
/// (two devices, halos of one size on both sides), the padding is left
/// out: the first device holds [0, end), the second [start, block).
static Value exchangeHalo(OpBuilder &b, Resharder &resharder, Location loc,
                          Value local, int64_t dim, ArrayRef<StringAttr> axes,
                          int64_t devices, int64_t start, int64_t end,
                          Value padding, bool compact) {
  auto type = cast<RankedTensorType>(local.getType());
  const int64_t block = type.getDimSize(dim);
  Value device = spmd::AxisIndexOp::create(b, loc, b.getIndexType(),
                                           resharder.axesAttr(axes));
  auto isDevice = [&](int64_t which) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, device,
                                 arith::ConstantIndexOp::create(b, loc, which));
  };
  // `piece` where the device has a neighbour on that side, else padding.
  auto orPadding = [&](Value piece, int64_t edgeDevice) -> Value {
    if (!padding)
      return piece;
    auto pieceType = cast<RankedTensorType>(piece.getType());
    Value empty = tensor::EmptyOp::create(b, loc, pieceType.getShape(),
                                          pieceType.getElementType());
    Value fill = linalg::FillOp::create(b, loc, padding, empty).getResult(0);
    return arith::SelectOp::create(b, loc, isDevice(edgeDevice), fill, piece);
  };
  auto slice = [&](Value v, OpFoldResult offset, int64_t length) {
    return resharder.sliceAlong(loc, v, dim, offset, length);
  };
  // Sends `length` elements from `offset` of each block one device along
  // (`step` +1: to the next).
  auto shifted = [&](int64_t offset, int64_t length, int64_t step) -> Value {
    SmallVector<int64_t> pairs;
    for (int64_t i = 0; i < devices; ++i)
      if (i + step >= 0 && i + step < devices)
        pairs.append({i, i + step});
    return resharder.permute(loc, slice(local, b.getIndexAttr(offset), length),
                             axes, pairs);
  };
  const int64_t before = std::max<int64_t>(-start, 0);
  const int64_t after = std::max<int64_t>(end - block, 0);
  Value left, right;
  if (devices == 2 && before && after) {
    // Each of two devices has one neighbour: one exchange of the larger
    // halo (the first device sends its last elements, the second its
    // first) instead of one per side.
    int64_t length = std::max(before, after);
    Value offset = arith::SelectOp::create(
        b, loc, isDevice(0),
        arith::ConstantIndexOp::create(b, loc, block - length),
        arith::ConstantIndexOp::create(b, loc, 0));
    Value received = resharder.permute(loc, slice(local, offset, length), axes,
                                       {0, 1, 1, 0});
    left = slice(received, b.getIndexAttr(length - before), before);
    right = slice(received, b.getIndexAttr(0), after);
  } else {
    if (before)
      left = shifted(block - before, before, +1);
    if (after)
      right = shifted(0, after, -1);
  }
  if (compact) {
    Value first = tensor::ConcatOp::create(b, loc, dim, {local, right});
    Value second = tensor::ConcatOp::create(b, loc, dim, {left, local});
    return arith::SelectOp::create(b, loc, isDevice(0), first, second);
  }
  SmallVector<Value> parts;
  if (left)
    parts.push_back(orPadding(left, 0));
  int64_t ownStart = std::max<int64_t>(start, 0);
  int64_t ownEnd = std::min(end, block);
  parts.push_back(
      ownStart == 0 && ownEnd == block
          ? local
          : slice(local, b.getIndexAttr(ownStart), ownEnd - ownStart));
  if (right)
    parts.push_back(orPadding(right, devices - 1));
  if (parts.size() == 1)
    return parts[0];
  return tensor::ConcatOp::create(b, loc, dim, parts);
}

Value FunctionPartitioner::haloWindows(Value operand,
                                       ArrayRef<SplitWindow> windows,
                                       const Layout &need) {
  auto type = cast<RankedTensorType>(operand.getType());
  const int64_t rank = type.getRank();
  if (!need.unreduced.empty())
    return {};
  int64_t low = 0;
  Value source = windowSource(operand, windows[0].window.dim, low);
  auto sourceType = cast<RankedTensorType>(source.getType());
  tensor::PadOp pad;
  SmallVector<int64_t> lows(rank, 0), highs(rank, 0);
  if (source != operand) {
    pad = operand.getDefiningOp<tensor::PadOp>();
    lows.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
    highs.assign(pad.getStaticHigh().begin(), pad.getStaticHigh().end());
  }
  auto windowAt = [&](int64_t d) {
    return llvm::find_if(
        windows, [&](const SplitWindow &w) { return w.window.dim == d; });
  };
  // The source split like the windows' loops; a padded dimension that is
  // not a window must be whole (it is padded locally).
  Layout sourceNeed = need;
  for (int64_t d = 0; d < rank; ++d) {
    if (windowAt(d) != windows.end())
      sourceNeed.dims[d] = windowAt(d)->axes;
    else if ((lows[d] || highs[d]) && !need.dims[d].empty())
      return {};
  }
  if (!sourceType.hasStaticShape() ||
      !resharder.divides(sourceType, sourceNeed))
    return {};
  // Each device's window, relative to its source block: [start, end). The
  // parts outside the block come from one neighbour each.
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  for (const SplitWindow &w : windows) {
    int64_t sourceBlock = sourceType.getDimSize(w.window.dim) / w.devices;
    if (sourceBlock != w.block * w.window.stride)
      return {};
    int64_t start = w.shift - lows[w.window.dim];
    int64_t end = start + w.length();
    if (-start > sourceBlock || end - sourceBlock > sourceBlock ||
        std::max<int64_t>(start, 0) >= std::min(end, sourceBlock))
      return {};
    ranges.push_back({start, end});
  }
  Location loc = operand.getLoc();
  Value padding = pad ? localPaddingValue(b, mapping, pad) : Value();
  Value local = localIn(source, sourceNeed);
  // Two devices along a dimension each pad one side. Padding added before
  // a later dimension's exchange would be sent with it (the corners of a
  // 2-D window): it is added after the last exchange instead.
  SmallVector<std::tuple<int64_t, int64_t, ArrayRef<StringAttr>>> deferred;
  for (auto [k, w] : llvm::enumerate(windows)) {
    auto [start, end] = ranges[k];
    int64_t block = sourceType.getDimSize(w.window.dim) / w.devices;
    bool compact = padding && w.devices == 2 && start < 0 &&
                   end - block == -start && k + 1 < windows.size();
    local = exchangeHalo(b, resharder, loc, local, w.window.dim, w.axes,
                         w.devices, start, end, padding, compact);
    if (compact)
      deferred.push_back({w.window.dim, -start, w.axes});
  }
  for (auto [dim, halo, axes] : deferred) {
    auto localType = cast<RankedTensorType>(local.getType());
    SmallVector<int64_t> shape(localType.getShape());
    shape[dim] = halo;
    Value empty =
        tensor::EmptyOp::create(b, loc, shape, localType.getElementType());
    Value fill = linalg::FillOp::create(b, loc, padding, empty).getResult(0);
    Value device = spmd::AxisIndexOp::create(b, loc, b.getIndexType(),
                                             resharder.axesAttr(axes));
    Value isFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, device,
                              arith::ConstantIndexOp::create(b, loc, 0));
    local = arith::SelectOp::create(
        b, loc, isFirst,
        tensor::ConcatOp::create(b, loc, dim, {fill, local}).getResult(),
        tensor::ConcatOp::create(b, loc, dim, {local, fill}).getResult());
  }
  // Padding of whole dimensions, added here.
  bool padsWhole = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (windowAt(d) != windows.end())
      lows[d] = highs[d] = 0;
    padsWhole |= lows[d] || highs[d];
  }
  if (!padsWhole)
    return local;
  auto localType = cast<RankedTensorType>(local.getType());
  SmallVector<int64_t> shape(localType.getShape());
  for (int64_t d = 0; d < rank; ++d)
    shape[d] += lows[d] + highs[d];
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, localType.getElementType()), local,
      getAsIndexOpFoldResult(b.getContext(), lows),
      getAsIndexOpFoldResult(b.getContext(), highs), padding);
}

SmallVector<SplitWindow>
FunctionPartitioner::splitWindows(Operation *op, const ShardingRule &rule,
                                  const FactorAxes &factorAxes) {
  SmallVector<SplitWindow> windows;
  for (const WindowDim &w : rule.windows) {
    if (factorAxes[w.factor].empty())
      continue;
    int64_t devices = mesh.getAxesSize(factorAxes[w.factor]);
    windows.push_back({w, factorAxes[w.factor], devices,
                       static_cast<int64_t>(llvm::divideCeil(
                           rule.factorSizes[w.factor], devices)),
                       isa<linalg::GenericOp>(op) ? w.minOffset : 0});
  }
  return windows;
}

Value FunctionPartitioner::localWindowed(Operation *op,
                                         const ShardingRule &rule,
                                         const FactorAxes &factorAxes,
                                         int64_t k, const Layout &need) {
  Value operand = op->getOperand(k);
  SmallVector<SplitWindow> all = splitWindows(op, rule, factorAxes);
  SmallVector<SplitWindow> own;
  for (const SplitWindow &w : all)
    if (w.window.operand == k)
      own.push_back(w);
  if (own.empty())
    return localIn(operand, need);
  // One tensor read at several shifts (a stencil's x[i - 1], x[i + 1]):
  // the halo of the union of its windows is exchanged once, and each read
  // slices its own window out of it.
  SmallVector<SplitWindow> windows(own);
  for (SplitWindow &w : windows)
    for (const SplitWindow &other : all)
      if (op->getOperand(other.window.operand) == operand &&
          w.window.dim == other.window.dim &&
          w.window.factor == other.window.factor &&
          w.window.stride == other.window.stride) {
        w.window.minOffset =
            std::min(w.window.minOffset, other.window.minOffset);
        w.window.maxOffset =
            std::max(w.window.maxOffset, other.window.maxOffset);
        w.shift = std::min(w.shift, other.shift);
      }
  Value local = unionWindows(op, operand, windows, need);
  for (auto [w, u] : llvm::zip(own, windows))
    if (w.shift != u.shift || w.length() != u.length())
      local =
          resharder.sliceAlong(op->getLoc(), local, w.window.dim,
                               b.getIndexAttr(w.shift - u.shift), w.length());
  return local;
}

Value FunctionPartitioner::unionWindows(Operation *op, Value operand,
                                        ArrayRef<SplitWindow> windows,
                                        const Layout &need) {
  // Reads of one tensor through the same windows share its local windows.
  std::string key = "windows " + need.str();
  for (const SplitWindow &w : windows) {
    key += " " + std::to_string(w.window.dim) + ":" +
           std::to_string(w.window.stride) + "*" + std::to_string(w.block) +
           "+[" + std::to_string(w.shift) + "," +
           std::to_string(w.window.maxOffset) + "] over";
    for (StringAttr axis : w.axes)
      key += " " + axis.str();
  }
  auto cacheKey = std::make_pair(operand.getAsOpaquePointer(), key);
  auto cached = reshardCache.find(cacheKey);
  if (cached != reshardCache.end() &&
      cached->second.getParentRegion()->isAncestor(
          b.getInsertionBlock()->getParent()))
    return cached->second;
  // Recorded like reshards: unread when the op reading them is (a slice
  // whose concatenation was partitioned as a roll), they are erased.
  Value local = resharder.recorded([&] {
    Value halo = haloWindows(operand, windows, need);
    return halo ? halo
                : sliceWindows(op->getLoc(), localIn(operand, need), windows);
  });
  reshardCache[cacheKey] = local;
  return local;
}

Value FunctionPartitioner::sliceWindows(Location loc, Value local,
                                        ArrayRef<SplitWindow> windows) {
  for (const SplitWindow &w : windows) {
    // A loop split unevenly: the last devices' windows (for padded
    // outputs) reach past the dimension's end, which is padded for them.
    int64_t reach =
        (w.devices - 1) * w.block * w.window.stride + w.shift + w.length();
    if (reach >
        cast<RankedTensorType>(local.getType()).getDimSize(w.window.dim))
      local = resharder.padAlong(loc, local, w.window.dim, reach);
    Value device = spmd::AxisIndexOp::create(b, loc, b.getIndexType(),
                                             resharder.axesAttr(w.axes));
    Value start = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, device,
            arith::ConstantIndexOp::create(b, loc, w.block * w.window.stride)),
        arith::ConstantIndexOp::create(b, loc, w.shift));
    local = resharder.sliceAlong(loc, local, w.window.dim, start, w.length());
  }
  return local;
}

void FunctionPartitioner::shiftWindowMaps(Operation *local,
                                          ArrayRef<SplitWindow> windows) {
  auto generic = dyn_cast<linalg::GenericOp>(local);
  if (!generic)
    return;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (const SplitWindow &w : windows) {
    if (!w.shift)
      continue;
    AffineMap &map = maps[w.window.operand];
    SmallVector<AffineExpr> results(map.getResults());
    results[w.window.dim] = results[w.window.dim] - w.shift;
    map = AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                         map.getContext());
  }
  generic.setIndexingMapsAttr(
      Builder(local->getContext()).getAffineMapArrayAttr(maps));
}
