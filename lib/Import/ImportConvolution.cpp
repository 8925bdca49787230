//===- ImportConvolution.cpp - stablehlo.convolution ----------------------===//
//
// A convolution becomes one linalg.generic over (output batch, output
// spatial, group, output feature in the group, kernel spatial, input
// feature in the group) that reads the input at `stride * o + rhs_dilate *
// k + offset`, after the input's spatial dimensions are dilated
// (lhs_dilate: the input's elements placed `lhs_dilate` apart in zeros, by
// a strided tensor.insert_slice) and padded with zeros (tensor.pad). A
// negative padding reads from further in (the offset) instead of cutting.
// Feature and batch groups split the grouped dimensions in two with
// tensor.expand_shape (group, in-group), so every index stays affine: the
// factors of the sharding rule linalg.generic gets from its indexing maps
// are then the batch and output features (parallel), the input features
// (a reduction: partial sums), the kernel's spatial dimensions (whole),
// and the output's spatial dimensions, whose input dimensions are read
// through windows (halos when they are split).
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

namespace {

/// Which dimension of the input, kernel and result is which
/// (dimension_numbers), in the specification's short names.
struct ConvDims {
  ArrayRef<int64_t> inSpatial, kSpatial, outSpatial;
  int64_t spatial, ib, ifd, ki, ko, ob, of;
  explicit ConvDims(hlo::ConvDimensionNumbersAttr dn)
      : inSpatial(dn.getInputSpatialDimensions()),
        kSpatial(dn.getKernelSpatialDimensions()),
        outSpatial(dn.getOutputSpatialDimensions()),
        spatial(static_cast<int64_t>(inSpatial.size())),
        ib(dn.getInputBatchDimension()), ifd(dn.getInputFeatureDimension()),
        ki(dn.getKernelInputFeatureDimension()),
        ko(dn.getKernelOutputFeatureDimension()),
        ob(dn.getOutputBatchDimension()), of(dn.getOutputFeatureDimension()) {}
};

/// The window attributes of a convolution with `spatial` spatial
/// dimensions, defaults filled in.
struct ConvWindow {
  SmallVector<int64_t> strides, low, high, lhsDilation, rhsDilation;
  SmallVector<bool> reversal;
  /// Whether each output sums nothing (an empty input, kernel or group).
  bool empty = false;
};

/// Reads the window attributes, checking each has one entry per spatial
/// dimension and that strides and dilations are positive.
FailureOr<ConvWindow> readWindow(hlo::ConvolutionOp op, int64_t spatial) {
  ConvWindow w;
  w.strides.assign(spatial, 1);
  w.low.assign(spatial, 0);
  w.high.assign(spatial, 0);
  w.lhsDilation.assign(spatial, 1);
  w.rhsDilation.assign(spatial, 1);
  w.reversal.assign(spatial, false);
  auto read = [&](std::optional<ArrayRef<int64_t>> values, StringRef name,
                  SmallVector<int64_t> &into) -> LogicalResult {
    if (!values)
      return success();
    if (static_cast<int64_t>(values->size()) != spatial)
      return op.emitError()
             << name << " needs one entry per spatial "
             << "dimension (" << spatial << "), got " << values->size();
    if (llvm::any_of(*values, [](int64_t v) { return v < 1; }))
      return op.emitError() << name << " [" << *values << "] must be positive";
    into.assign(values->begin(), values->end());
    return success();
  };
  if (failed(read(op.getWindowStrides(), "window_strides", w.strides)) ||
      failed(read(op.getLhsDilation(), "lhs_dilation", w.lhsDilation)) ||
      failed(read(op.getRhsDilation(), "rhs_dilation", w.rhsDilation)))
    return failure();
  if (std::optional<DenseIntElementsAttr> padding = op.getPadding()) {
    SmallVector<int64_t> flat = llvm::to_vector(padding->getValues<int64_t>());
    if (padding->getType().getShape() != ArrayRef<int64_t>{spatial, 2})
      return op.emitError() << "padding needs a [low, high] pair per spatial "
                            << "dimension (" << spatial << ")";
    for (int64_t d = 0; d < spatial; ++d) {
      w.low[d] = flat[2 * d];
      w.high[d] = flat[2 * d + 1];
    }
  }
  if (std::optional<ArrayRef<bool>> reversal = op.getWindowReversal()) {
    if (static_cast<int64_t>(reversal->size()) != spatial)
      return op.emitError() << "window_reversal needs one entry per spatial "
                            << "dimension (" << spatial << ")";
    w.reversal.assign(reversal->begin(), reversal->end());
  }
  return w;
}

/// Whether `dims` are distinct dimensions of a tensor of `rank` that
/// name all of them.
bool coversRank(int64_t first, int64_t second, ArrayRef<int64_t> spatial,
                int64_t rank) {
  SmallVector<int64_t> all = {first, second};
  llvm::append_range(all, spatial);
  return static_cast<int64_t>(all.size()) == rank && areDistinctDims(all, rank);
}

/// `value` with dimension `dim` split into (`outer`, size / `outer`).
Value splitDim(OpBuilder &b, Location loc, Value value, int64_t dim,
               int64_t outer) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t next = static_cast<int64_t>(shape.size());
    if (d == dim) {
      shape.append({outer, type.getDimSize(d) / outer});
      groups.push_back({next, next + 1});
    } else {
      shape.push_back(type.getDimSize(d));
      groups.push_back({next});
    }
  }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

/// An indexing map of `loops` loops from one list of expressions per
/// dimension of the (unsplit) tensor.
AffineMap mapOf(ArrayRef<SmallVector<AffineExpr, 2>> perDim, int64_t loops,
                MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (const auto &dim : perDim)
    llvm::append_range(exprs, dim);
  return AffineMap::get(loops, 0, exprs, ctx);
}

} // namespace

Value mlir::trellis::import::dilateAndPad(
    OpBuilder &b, Location loc, Value input, Value padValue,
    ArrayRef<int64_t> dims, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
    ArrayRef<int64_t> dilation, SmallVectorImpl<int64_t> &offsets) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape()), lows(rank, 0), highs(rank, 0),
      strides(rank, 1);
  bool dilated = false, padded = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    lows[d] = std::max<int64_t>(low[i], 0);
    highs[d] = std::max<int64_t>(high[i], 0);
    strides[d] = dilation[i];
    offsets.push_back(lows[d] - low[i]);
    int64_t size = type.getDimSize(d);
    shape[d] =
        (size == 0 ? 0 : (size - 1) * strides[d] + 1) + lows[d] + highs[d];
    dilated |= strides[d] != 1;
    padded |= lows[d] != 0 || highs[d] != 0;
  }
  auto result = RankedTensorType::get(shape, type.getElementType());
  if (dilated) {
    Value filled =
        linalg::FillOp::create(b, loc, padValue, emptyOf(b, loc, result))
            .getResult(0);
    return tensor::InsertSliceOp::create(b, loc, input, filled, ValueRange(),
                                         ValueRange(), ValueRange(), lows,
                                         type.getShape(), strides);
  }
  if (!padded)
    return input;
  SmallVector<OpFoldResult> lowAttrs, highAttrs;
  for (int64_t d = 0; d < rank; ++d) {
    lowAttrs.push_back(b.getIndexAttr(lows[d]));
    highAttrs.push_back(b.getIndexAttr(highs[d]));
  }
  return tensor::PadOp::create(b, loc, result, input, lowAttrs, highAttrs,
                               padValue);
}

/// The kernel with the dimensions window_reversal flags reversed.
static Value reverseKernel(OpBuilder &b, Location loc, Value kernel,
                           ArrayRef<int64_t> spatialDims,
                           ArrayRef<bool> reversal) {
  if (llvm::none_of(reversal, [](bool r) { return r; }))
    return kernel;
  auto type = cast<RankedTensorType>(kernel.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(b.getAffineDimExpr(d));
  for (auto [i, d] : llvm::enumerate(spatialDims))
    if (reversal[i])
      exprs[d] = type.getDimSize(d) - 1 - b.getAffineDimExpr(d);
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, b.getContext()),
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{kernel},
             ValueRange{emptyOf(b, loc, type)}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      ->getResult(0);
}

/// The convolution's window attributes, checked against its operands and
/// result: dimension numbers that name every dimension once, one window
/// entry per spatial dimension, group counts that divide the features and
/// the batch, the result shape the specification gives, and element types
/// a contraction supports.
static FailureOr<ConvWindow> checkConvolution(hlo::ConvolutionOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto [inSpatial, kSpatial, outSpatial, spatial, ib, ifd, ki, ko, ob, of] =
      ConvDims(dn);
  if (static_cast<int64_t>(kSpatial.size()) != spatial ||
      static_cast<int64_t>(outSpatial.size()) != spatial ||
      !coversRank(ib, ifd, inSpatial, lhsType.getRank()) ||
      !coversRank(ki, ko, kSpatial, rhsType.getRank()) ||
      !coversRank(ob, of, outSpatial, type.getRank()))
    return op.emitError("dimension_numbers ")
           << dn << " do not name each dimension of the input " << lhsType
           << ", kernel " << rhsType << " and result " << type << " once";
  FailureOr<ConvWindow> window = readWindow(op, spatial);
  if (failed(window))
    return failure();
  ConvWindow &w = *window;
  int64_t fg = op.getFeatureGroupCount(), bg = op.getBatchGroupCount();
  if (fg < 1 || bg < 1 || (fg > 1 && bg > 1))
    return op.emitError("feature_group_count ")
           << fg << " and batch_group_count " << bg
           << " must be positive, and one of them 1";
  int64_t n = lhsType.getDimSize(ib), c = lhsType.getDimSize(ifd),
          ci = rhsType.getDimSize(ki), o = rhsType.getDimSize(ko);
  if (c != ci * fg || o % fg || o % bg || n % bg)
    return op.emitError("input features (")
           << c << "), kernel input features (" << ci << "), output features ("
           << o << ") and batch (" << n << ") do not fit feature_group_count "
           << fg << " and batch_group_count " << bg;
  SmallVector<int64_t> shape(type.getRank());
  shape[ob] = n / bg;
  shape[of] = o;
  w.empty = ci == 0;
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t in = lhsType.getDimSize(inSpatial[d]);
    int64_t k = rhsType.getDimSize(kSpatial[d]);
    int64_t dilatedIn = in == 0 ? 0 : (in - 1) * w.lhsDilation[d] + 1;
    int64_t padded = dilatedIn + w.low[d] + w.high[d];
    int64_t dilatedK = k == 0 ? 0 : (k - 1) * w.rhsDilation[d] + 1;
    shape[outSpatial[d]] = padded < dilatedK || padded < 0
                               ? 0
                               : (padded - dilatedK) / w.strides[d] + 1;
    w.empty |= k == 0 || in == 0;
  }
  if (ArrayRef<int64_t>(shape) != type.getShape())
    return op.emitError("result type ")
           << type << " does not match the convolution's shape [" << shape
           << "]";
  if (failed(checkContractionTypes(op, lhsType.getElementType(),
                                   rhsType.getElementType(),
                                   type.getElementType())))
    return failure();
  return w;
}

FailureOr<Value> Importer::importConvolution(hlo::ConvolutionOp op) {
  FailureOr<ConvWindow> window = checkConvolution(op);
  if (failed(window))
    return failure();
  const ConvWindow &w = *window;
  auto type = cast<RankedTensorType>(op.getType());
  Type element = type.getElementType();
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto [inSpatial, kSpatial, outSpatial, spatial, ib, ifd, ki, ko, ob, of] =
      ConvDims(dn);
  int64_t fg = op.getFeatureGroupCount(), bg = op.getBatchGroupCount();
  Location loc = op.getLoc();
  Value zero = constantOf(b, loc, element, 0);
  auto zerosOf = [&](ArrayRef<int64_t> shape) {
    return linalg::FillOp::create(
               b, loc, zero,
               emptyOf(b, loc, RankedTensorType::get(shape, element)))
        .getResult(0);
  };
  // Nothing to sum (an empty input, kernel or feature group): zeros.
  if (type.getNumElements() == 0 || w.empty)
    return zerosOf(type.getShape());

  SmallVector<int64_t> offsets;
  Value input = dilateAndPad(
      b, loc, op.getLhs(),
      constantOf(b, loc,
                 cast<ShapedType>(op.getLhs().getType()).getElementType(), 0),
      inSpatial, w.low, w.high, w.lhsDilation, offsets);
  Value kernel = reverseKernel(b, loc, op.getRhs(), kSpatial, w.reversal);

  // Loops: batch, output spatial, [group], output feature in the group,
  // kernel spatial, input feature in the group.
  int64_t groups = std::max(fg, bg);
  bool grouped = groups > 1;
  MLIRContext *ctx = b.getContext();
  int64_t next = 0;
  auto loop = [&] { return b.getAffineDimExpr(next++); };
  AffineExpr batch = loop();
  SmallVector<AffineExpr> outPos, kPos;
  for (int64_t d = 0; d < spatial; ++d)
    outPos.push_back(loop());
  AffineExpr group = grouped ? loop() : AffineExpr();
  AffineExpr feature = loop();
  for (int64_t d = 0; d < spatial; ++d)
    kPos.push_back(loop());
  AffineExpr inFeature = loop();
  int64_t loops = next;
  SmallVector<utils::IteratorType> iterators(loops - spatial - 1,
                                             utils::IteratorType::parallel);
  iterators.append(spatial + 1, utils::IteratorType::reduction);

  SmallVector<SmallVector<AffineExpr, 2>> lhsExprs(spatial + 2),
      rhsExprs(spatial + 2), outExprs(spatial + 2);
  lhsExprs[ib] = bg > 1 ? SmallVector<AffineExpr, 2>{group, batch}
                        : SmallVector<AffineExpr, 2>{batch};
  lhsExprs[ifd] = fg > 1 ? SmallVector<AffineExpr, 2>{group, inFeature}
                         : SmallVector<AffineExpr, 2>{inFeature};
  rhsExprs[ki] = {inFeature};
  rhsExprs[ko] = outExprs[of] = grouped
                                    ? SmallVector<AffineExpr, 2>{group, feature}
                                    : SmallVector<AffineExpr, 2>{feature};
  outExprs[ob] = {batch};
  for (int64_t d = 0; d < spatial; ++d) {
    lhsExprs[inSpatial[d]] = {outPos[d] * w.strides[d] +
                              kPos[d] * w.rhsDilation[d] + offsets[d]};
    rhsExprs[kSpatial[d]] = {kPos[d]};
    outExprs[outSpatial[d]] = {outPos[d]};
  }
  SmallVector<AffineMap> maps = {mapOf(lhsExprs, loops, ctx),
                                 mapOf(rhsExprs, loops, ctx),
                                 mapOf(outExprs, loops, ctx)};

  if (bg > 1)
    input = splitDim(b, loc, input, ib, bg);
  if (fg > 1)
    input = splitDim(b, loc, input, ifd, fg);
  // The result's feature dimension split like the kernel's, filled with
  // zeros of its own (not a reshaped fill) so that partial sums over
  // input features are seen to start from zero.
  SmallVector<int64_t> initShape(type.getShape());
  if (grouped) {
    kernel = splitDim(b, loc, kernel, ko, groups);
    initShape[of] /= groups;
    initShape.insert(initShape.begin() + of, groups);
  }
  Value init = zerosOf(initShape);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{input, kernel}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, emitMultiplyAdd(nb, nloc, op, args));
      });
  Value result = generic->getResult(0);
  if (!grouped)
    return result;
  SmallVector<ReassociationIndices> merge;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t first = d <= of ? d : d + 1;
    merge.push_back(d == of ? ReassociationIndices{first, first + 1}
                            : ReassociationIndices{first});
  }
  return tensor::CollapseShapeOp::create(b, loc, type, result, merge)
      .getResult();
}
