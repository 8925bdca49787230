//===- ResharderCollectives.cpp - The resharder's collectives and slices --===//
//
// What the Resharder emits: the per-device types of layouts, padding and
// slicing along a dimension, and one spmd collective per call (all_gather,
// all_to_all, ppermute, psum, psum_scatter), each counted.
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

int64_t Resharder::dimOf(Value v, int64_t dim) {
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
