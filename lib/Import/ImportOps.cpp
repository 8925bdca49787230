//===- ImportOps.cpp - StableHLO compute and shape ops --------------------===//
//
// Constants, elementwise ops, shapes, dot_general and reduce become linalg,
// tensor, arith and math ops on the same tensor types.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

FailureOr<Value> Importer::importElementwise(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> operands;
  // Scalar predicates (select) and bounds (clamp) apply to every element.
  for (Value operand : op->getOperands())
    operands.push_back(broadcastScalar(
        b, op->getLoc(), operand,
        cast<RankedTensorType>(operand.getType()).clone(type.getShape())));
  for (Value operand : operands)
    if (cast<RankedTensorType>(operand.getType()).getShape() != type.getShape())
      return op->emitError("operand shapes must match the result shape ")
             << type;
  return emitElementwise(b, op, operands, type);
}

FailureOr<Value> Importer::importConstant(hlo::ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op.emitError("only dense<...> constants are supported, got ")
           << op.getValue();
  return arith::ConstantOp::create(b, op.getLoc(), dense).getResult();
}

FailureOr<Value> Importer::importIota(hlo::IotaOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = op.getIotaDimension();
  if (dim < 0 || dim >= type.getRank())
    return op.emitError("iota dimension ")
           << dim << " is out of range for " << type;
  Location loc = op.getLoc();
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  Type element = type.getElementType();
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange(), ValueRange{emptyOf(b, loc, type)},
      ArrayRef<AffineMap>{identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange) {
        Value index = linalg::IndexOp::create(nb, nloc, dim);
        Value wide =
            arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), index);
        linalg::YieldOp::create(nb, nloc,
                                convertElements(nb, nloc, wide, element));
      });
  return generic->getResult(0);
}

FailureOr<Value> Importer::importBroadcastInDim(hlo::BroadcastInDimOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto to = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  if (static_cast<int64_t>(dims.size()) != from.getRank() ||
      !areDistinctDims(dims, to.getRank()))
    return op.emitError("broadcast dimensions [")
           << dims << "] must map each of the " << from.getRank()
           << " operand dimensions to a distinct result dimension of " << to;
  if (from.getElementType() != to.getElementType())
    return op.emitError("broadcast_in_dim changes the element type");
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    int64_t size = from.getDimSize(i), target = to.getDimSize(dim);
    if (size == target)
      exprs.push_back(b.getAffineDimExpr(dim));
    else if (size == 1)
      exprs.push_back(b.getAffineConstantExpr(0));
    else
      return op.emitError("operand dimension ")
             << i << " of size " << size << " cannot broadcast to size "
             << target << " (result dimension " << dim << ")";
  }
  if (from == to && llvm::equal(dims, llvm::seq<int64_t>(0, to.getRank())))
    return op.getOperand();
  Location loc = op.getLoc();
  AffineMap input = AffineMap::get(to.getRank(), 0, exprs, b.getContext());
  SmallVector<utils::IteratorType> iterators(to.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, to, ValueRange{op.getOperand()}, ValueRange{emptyOf(b, loc, to)},
      ArrayRef<AffineMap>{input, b.getMultiDimIdentityMap(to.getRank())},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  return generic->getResult(0);
}

FailureOr<Value> Importer::importReshape(hlo::ReshapeOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto to = cast<RankedTensorType>(op.getType());
  if (from.getNumElements() != to.getNumElements() ||
      from.getElementType() != to.getElementType())
    return op.emitError("reshape from ")
           << from << " to " << to << " changes the number of elements";
  Location loc = op.getLoc();
  Value source = op.getOperand();
  if (from == to)
    return source;
  auto collapse = [&](Value value, RankedTensorType into) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    std::optional<SmallVector<ReassociationIndices>> map =
        getReassociationIndicesForCollapse(type.getShape(), into.getShape());
    if (!map)
      return {};
    return tensor::CollapseShapeOp::create(b, loc, into, value, *map);
  };
  auto expand = [&](Value value, RankedTensorType into) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    std::optional<SmallVector<ReassociationIndices>> map =
        getReassociationIndicesForCollapse(into.getShape(), type.getShape());
    if (!map)
      return {};
    return tensor::ExpandShapeOp::create(b, loc, into, value, *map);
  };
  if (from.getRank() > to.getRank())
    if (Value v = collapse(source, to))
      return v;
  if (from.getRank() < to.getRank())
    if (Value v = expand(source, to))
      return v;
  // No single collapse or expand: through the flat vector.
  auto flat =
      RankedTensorType::get({from.getNumElements()}, from.getElementType());
  Value v = from.getRank() == 1 ? source : collapse(source, flat);
  if (v && to.getRank() != 1)
    v = expand(v, to);
  if (!v)
    return op.emitError("cannot express reshape from ") << from << " to " << to;
  return v;
}

FailureOr<Value> Importer::importTranspose(hlo::TransposeOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> perm = op.getPermutation();
  if (static_cast<int64_t>(perm.size()) != from.getRank() ||
      !areDistinctDims(perm, from.getRank()))
    return op.emitError("transpose dims [")
           << perm << "] are not a permutation of the " << from.getRank()
           << " dimensions";
  for (auto [i, p] : llvm::enumerate(perm))
    if (type.getDimSize(i) != from.getDimSize(p))
      return op.emitError("result type ")
             << type << " does not match the transpose of " << from;
  Location loc = op.getLoc();
  return linalg::TransposeOp::create(b, loc, op.getOperand(),
                                     emptyOf(b, loc, type), perm)
      ->getResult(0);
}

FailureOr<Value> Importer::importReverse(hlo::ReverseOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> dims = op.getDimensions();
  if (!areDistinctDims(dims, type.getRank()))
    return op.emitError("reverse dims [")
           << dims << "] must be distinct dimensions of " << type;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < type.getRank(); ++d)
    exprs.push_back(llvm::is_contained(dims, d)
                        ? type.getDimSize(d) - 1 - b.getAffineDimExpr(d)
                        : b.getAffineDimExpr(d));
  Location loc = op.getLoc();
  AffineMap input = AffineMap::get(type.getRank(), 0, exprs, b.getContext());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{op.getOperand()},
      ValueRange{emptyOf(b, loc, type)},
      ArrayRef<AffineMap>{input, b.getMultiDimIdentityMap(type.getRank())},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, args[0]);
      });
  return generic->getResult(0);
}

FailureOr<Value> Importer::importSlice(hlo::SliceOp op) {
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> start = op.getStartIndices(), limit = op.getLimitIndices(),
                    stride = op.getStrides();
  int64_t rank = from.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(stride.size()) != rank)
    return op.emitError("slice needs one start, limit and stride per "
                        "dimension of ")
           << from;
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > from.getDimSize(d) ||
        stride[d] < 1)
      return op.emitError("slice [")
             << start[d] << ":" << limit[d] << ":" << stride[d]
             << "] is out of range for dimension " << d << " of " << from;
    sizes.push_back((limit[d] - start[d] + stride[d] - 1) / stride[d]);
  }
  if (ArrayRef<int64_t>(sizes) != type.getShape())
    return op.emitError("result type ")
           << type << " does not match the slice's shape";
  // An empty slice reads nothing (and may start at the dimension's end,
  // which tensor.extract_slice does not allow).
  if (type.getNumElements() == 0)
    return emptyOf(b, op.getLoc(), type);
  return tensor::ExtractSliceOp::create(b, op.getLoc(), type, op.getOperand(),
                                        ValueRange(), ValueRange(),
                                        ValueRange(), start, sizes, stride)
      .getResult();
}

FailureOr<Value> Importer::importConcatenate(hlo::ConcatenateOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  int64_t dim = op.getDimension();
  if (dim < 0 || dim >= type.getRank())
    return op.emitError("concatenate dimension ")
           << dim << " is out of range for " << type;
  if (op.getInputs().size() == 1)
    return op.getInputs()[0];
  return tensor::ConcatOp::create(b, op.getLoc(), type, dim, op.getInputs())
      .getResult();
}

FailureOr<Value> Importer::importPad(hlo::PadOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> low = op.getEdgePaddingLow(),
                    high = op.getEdgePaddingHigh(),
                    interior = op.getInteriorPadding();
  int64_t rank = type.getRank();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return op.emitError("pad needs one low, high and interior padding per "
                        "dimension");
  if (llvm::any_of(interior, [](int64_t v) { return v != 0; }))
    return op.emitError("interior padding is not supported yet");
  if (llvm::any_of(llvm::concat<const int64_t>(low, high),
                   [](int64_t v) { return v < 0; }))
    return op.emitError("negative padding is not supported yet");
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  if (operandType.getRank() != rank)
    return op.emitError("operand type ")
           << operandType << " and result type " << type << " differ in rank";
  for (int64_t d = 0; d < rank; ++d)
    if (operandType.getDimSize(d) + low[d] + high[d] != type.getDimSize(d))
      return op.emitError("result dimension ")
             << d << " has size " << type.getDimSize(d) << ", but "
             << operandType.getDimSize(d) << " padded by low " << low[d]
             << " and high " << high[d] << " is "
             << operandType.getDimSize(d) + low[d] + high[d];
  Location loc = op.getLoc();
  Value padValue = scalarOf(b, loc, op.getPaddingValue());
  SmallVector<OpFoldResult> lows, highs;
  for (int64_t d = 0; d < rank; ++d) {
    lows.push_back(b.getIndexAttr(low[d]));
    highs.push_back(b.getIndexAttr(high[d]));
  }
  return tensor::PadOp::create(b, loc, type, op.getOperand(), lows, highs,
                               padValue)
      .getResult();
}

FailureOr<Value> Importer::importDotGeneral(hlo::DotGeneralOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto type = cast<RankedTensorType>(op.getType());
  hlo::DotDimensionNumbersAttr numbers = op.getDotDimensionNumbers();
  ArrayRef<int64_t> lb = numbers.getLhsBatchingDimensions(),
                    rb = numbers.getRhsBatchingDimensions(),
                    lc = numbers.getLhsContractingDimensions(),
                    rc = numbers.getRhsContractingDimensions();
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return op.emitError("lhs and rhs need as many batching (")
           << lb.size() << " vs " << rb.size() << ") and contracting ("
           << lc.size() << " vs " << rc.size() << ") dimensions";
  SmallVector<int64_t> lhsUsed(lb), rhsUsed(rb);
  llvm::append_range(lhsUsed, lc);
  llvm::append_range(rhsUsed, rc);
  if (!areDistinctDims(lhsUsed, lhsType.getRank()) ||
      !areDistinctDims(rhsUsed, rhsType.getRank()))
    return op.emitError("batching and contracting dimensions must be "
                        "distinct dimensions of the operands");
  for (auto [l, r] : llvm::zip(lhsUsed, rhsUsed))
    if (lhsType.getDimSize(l) != rhsType.getDimSize(r))
      return op.emitError("lhs dimension ")
             << l << " (size " << lhsType.getDimSize(l)
             << ") and rhs dimension " << r << " (size "
             << rhsType.getDimSize(r) << ") are paired but differ in size";
  Type element = type.getElementType();
  if (failed(checkContractionTypes(op, lhsType.getElementType(),
                                   rhsType.getElementType(), element)))
    return failure();

  // Loops: batch, lhs free, rhs free, contracting.
  int64_t nb = lb.size(), nc = lc.size();
  SmallVector<int64_t> lhsFree, rhsFree, shape;
  for (int64_t d = 0; d < lhsType.getRank(); ++d)
    if (!llvm::is_contained(lhsUsed, d))
      lhsFree.push_back(d);
  for (int64_t d = 0; d < rhsType.getRank(); ++d)
    if (!llvm::is_contained(rhsUsed, d))
      rhsFree.push_back(d);
  for (int64_t d : lb)
    shape.push_back(lhsType.getDimSize(d));
  for (int64_t d : lhsFree)
    shape.push_back(lhsType.getDimSize(d));
  for (int64_t d : rhsFree)
    shape.push_back(rhsType.getDimSize(d));
  if (ArrayRef<int64_t>(shape) != type.getShape())
    return op.emitError("result type ")
           << type << " does not match the dot_general's shape [" << shape
           << "] (batch, lhs free, rhs free dimensions)";
  int64_t nl = lhsFree.size(), nr = rhsFree.size();
  int64_t loops = nb + nl + nr + nc;
  auto operandMap = [&](int64_t rank, ArrayRef<int64_t> batch,
                        ArrayRef<int64_t> contract, ArrayRef<int64_t> free,
                        int64_t freeBase) {
    SmallVector<AffineExpr> exprs(rank);
    for (auto [i, d] : llvm::enumerate(batch))
      exprs[d] = b.getAffineDimExpr(i);
    for (auto [i, d] : llvm::enumerate(free))
      exprs[d] = b.getAffineDimExpr(freeBase + i);
    for (auto [i, d] : llvm::enumerate(contract))
      exprs[d] = b.getAffineDimExpr(nb + nl + nr + i);
    return AffineMap::get(loops, 0, exprs, b.getContext());
  };
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < nb + nl + nr; ++i)
    outExprs.push_back(b.getAffineDimExpr(i));
  SmallVector<AffineMap> maps = {
      operandMap(lhsType.getRank(), lb, lc, lhsFree, nb),
      operandMap(rhsType.getRank(), rb, rc, rhsFree, nb + nl),
      AffineMap::get(loops, 0, outExprs, b.getContext())};
  SmallVector<utils::IteratorType> iterators(nb + nl + nr,
                                             utils::IteratorType::parallel);
  iterators.append(nc, utils::IteratorType::reduction);

  Location loc = op.getLoc();
  Value zero = constantOf(b, loc, element, 0);
  Value init =
      linalg::FillOp::create(b, loc, zero, emptyOf(b, loc, type)).getResult(0);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{op.getLhs(), op.getRhs()}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, emitMultiplyAdd(nb, nloc, op, args));
      });
  return generic->getResult(0);
}

LogicalResult mlir::trellis::import::checkContractionTypes(Operation *op,
                                                           Type lhs, Type rhs,
                                                           Type result) {
  StringRef name = op->getName().stripDialect();
  if (result.isInteger(1) || lhs.isInteger(1))
    return op->emitError() << name << " of booleans is not supported";
  if (isa<FloatType>(result) != isa<FloatType>(lhs) || lhs != rhs)
    return op->emitError() << name << " of " << lhs << " and " << rhs
                           << " into " << result << " is not supported";
  if (result.getIntOrFloatBitWidth() < lhs.getIntOrFloatBitWidth())
    return op->emitError()
           << name << " into " << result << ", narrower than its " << lhs
           << " operands, is not supported (XLA accumulates wider and "
              "rounds once)";
  return success();
}

Value mlir::trellis::import::emitMultiplyAdd(OpBuilder &b, Location loc,
                                             Operation *op, ValueRange args) {
  // Products and sums in the result type: bf16 x bf16 -> f32 accumulates
  // in f32, as StableHLO specifies. Unsigned operands widen with zeros;
  // products and sums wrap alike.
  Type element = args[2].getType();
  Value x = convertElements(b, loc, args[0], element, wasUnsigned(op, 0));
  Value y = convertElements(b, loc, args[1], element, wasUnsigned(op, 1));
  if (isa<FloatType>(element))
    return arith::AddFOp::create(b, loc, args[2],
                                 arith::MulFOp::create(b, loc, x, y));
  return arith::AddIOp::create(b, loc, args[2],
                               arith::MulIOp::create(b, loc, x, y));
}

FailureOr<SmallVector<Value>>
mlir::trellis::import::emitScalarRegion(OpBuilder &b, Operation *owner,
                                        Block &block, ValueRange args) {
  IRMapping scalars;
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    scalars.map(arg, value);
  for (Operation &inner : block) {
    if (auto ret = dyn_cast<hlo::ReturnOp>(inner)) {
      if (ret.getResults().size() * 2 != block.getNumArguments())
        return owner->emitError("the reducer returns ")
               << ret.getResults().size() << " values for "
               << block.getNumArguments() << " arguments";
      SmallVector<Value> results;
      for (Value v : ret.getResults()) {
        results.push_back(scalars.lookupOrNull(v));
        if (!results.back())
          return ret.emitError("the reducer returns a value from outside "
                               "its region; that is not supported");
      }
      return results;
    }
    FailureOr<Value> value = failure();
    if (auto constant = dyn_cast<hlo::ConstantOp>(inner)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (dense && dense.isSplat())
        value = arith::ConstantOp::create(b, inner.getLoc(),
                                          dense.getSplatValue<TypedAttr>())
                    .getResult();
      else
        inner.emitError("reducer constants must be scalars");
    } else if (isImportElementwise(&inner)) {
      SmallVector<Value> operands;
      for (Value v : inner.getOperands())
        operands.push_back(scalars.lookupOrNull(v));
      if (llvm::is_contained(operands, Value()))
        return inner.emitError("a reducer using a value from outside its "
                               "region is not supported");
      value =
          emitElementwise(b, &inner, operands,
                          getElementTypeOrSelf(inner.getResult(0).getType()));
    } else {
      inner.emitError("'")
          << inner.getName()
          << "' is not supported in a reducer (elementwise ops, compare, "
             "select and constants are)";
    }
    if (failed(value))
      return failure();
    scalars.map(inner.getResult(0), *value);
  }
  return owner->emitError("the reducer has no stablehlo.return");
}

FailureOr<SmallVector<Value>> Importer::importReduce(hlo::ReduceOp op) {
  size_t n = op.getInputs().size();
  auto inputType = cast<RankedTensorType>(op.getInputs()[0].getType());
  int64_t rank = inputType.getRank();
  ArrayRef<int64_t> dims = op.getDimensions();
  if (!areDistinctDims(dims, rank))
    return op.emitError("reduce dimensions [")
           << dims << "] must be distinct dimensions of " << inputType;
  SmallVector<int64_t> kept;
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d)) {
      kept.push_back(inputType.getDimSize(d));
      outExprs.push_back(b.getAffineDimExpr(d));
    }
  for (size_t i = 0; i < n; ++i) {
    auto in = cast<RankedTensorType>(op.getInputs()[i].getType());
    auto init = cast<RankedTensorType>(op.getInitValues()[i].getType());
    auto result = cast<RankedTensorType>(op->getResult(i).getType());
    if (in.getShape() != inputType.getShape() || init.getRank() != 0 ||
        init.getElementType() != in.getElementType() ||
        result.getElementType() != in.getElementType() ||
        result.getShape() != ArrayRef<int64_t>(kept))
      return op.emitError("reduce operand ")
             << i << " (" << in << ", init " << init << ", result " << result
             << ") does not fit: operands share a shape, inits are 0-d of "
                "the same element type, results drop the reduced dimensions";
  }

  Location loc = op.getLoc();
  SmallVector<Value> inits;
  SmallVector<Type> resultTypes;
  for (size_t i = 0; i < n; ++i) {
    auto type = cast<RankedTensorType>(op->getResult(i).getType());
    Value scalar = scalarOf(b, loc, op.getInitValues()[i]);
    inits.push_back(
        linalg::FillOp::create(b, loc, scalar, emptyOf(b, loc, type))
            .getResult(0));
    resultTypes.push_back(type);
  }
  SmallVector<AffineMap> maps(n, b.getMultiDimIdentityMap(rank));
  maps.append(n, AffineMap::get(rank, 0, outExprs, b.getContext()));
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d)
    iterators.push_back(llvm::is_contained(dims, d)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);

  // The generic's body takes (elements..., accumulators...).
  Block &reducer = op.getBody().front();
  bool bodyFailed = false;
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, op.getInputs(), inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        // The reducer's block takes (accumulators..., elements...).
        SmallVector<Value> blockArgs(args.begin() + n, args.end());
        blockArgs.append(args.begin(), args.begin() + n);
        FailureOr<SmallVector<Value>> yielded =
            emitScalarRegion(nb, op, reducer, blockArgs);
        bodyFailed = failed(yielded);
        // Keep the op well-formed until it is erased.
        linalg::YieldOp::create(
            nb, nloc,
            bodyFailed ? SmallVector<Value>(args.begin() + n, args.end())
                       : *yielded);
      });
  if (bodyFailed) {
    generic->erase();
    return failure();
  }
  return SmallVector<Value>(generic->getResults());
}

LogicalResult import::readWindowEntries(Operation *op,
                                        std::optional<ArrayRef<int64_t>> values,
                                        StringRef name, RankedTensorType type,
                                        SmallVectorImpl<int64_t> &into) {
  if (!values)
    return success();
  if (static_cast<int64_t>(values->size()) != type.getRank() ||
      llvm::any_of(*values, [](int64_t v) { return v < 1; }))
    return op->emitError() << name << " [" << *values
                           << "] need one positive entry per dimension of "
                           << type;
  into.assign(values->begin(), values->end());
  return success();
}

LogicalResult import::readWindowPadding(
    Operation *op, std::optional<DenseIntElementsAttr> padding, int64_t rank,
    SmallVectorImpl<int64_t> &low, SmallVectorImpl<int64_t> &high) {
  if (!padding)
    return success();
  SmallVector<int64_t> flat = llvm::to_vector(padding->getValues<int64_t>());
  if (static_cast<int64_t>(flat.size()) != 2 * rank)
    return op->emitError("padding needs a [low, high] pair per dimension");
  for (int64_t d = 0; d < rank; ++d) {
    low[d] = flat[2 * d];
    high[d] = flat[2 * d + 1];
  }
  return success();
}

/// reduce_window (jnp.cumsum, pooling): the operand dilated and padded
/// with the init value (base_dilations, padding), then a linalg.generic
/// over (result dims, window dims) reading `out * stride + window *
/// window_dilation` and reducing the window dims with the reducer. A
/// window-shaped empty tensor gives the window loops their bounds.
FailureOr<Value> Importer::importReduceWindow(hlo::ReduceWindowOp op) {
  if (op.getInputs().size() != 1)
    return op.emitError(
        "reduce_window over several operands is not supported yet");
  Value input = op.getInputs()[0];
  auto inputType = cast<RankedTensorType>(input.getType());
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = inputType.getRank();
  ArrayRef<int64_t> window = op.getWindowDimensions();
  SmallVector<int64_t> strides(rank, 1), low(rank, 0), high(rank, 0),
      baseDilations(rank, 1), windowDilations(rank, 1);
  if (failed(readWindowEntries(op, op.getWindowStrides(), "window_strides",
                               inputType, strides)) ||
      failed(readWindowEntries(op, op.getBaseDilations(), "base_dilations",
                               inputType, baseDilations)) ||
      failed(readWindowEntries(op, op.getWindowDilations(), "window_dilations",
                               inputType, windowDilations)) ||
      failed(readWindowPadding(op, op.getPadding(), rank, low, high)))
    return failure();
  if (static_cast<int64_t>(window.size()) != rank || type.getRank() != rank ||
      type.getElementType() != inputType.getElementType())
    return op.emitError("window dimensions need one entry per dimension of ")
           << inputType;
  // No real window comes near 2^31; past it the sizes below would overflow.
  constexpr int64_t kBound = int64_t(1) << 31;
  for (int64_t d = 0; d < rank; ++d)
    for (int64_t v : {window[d], strides[d], baseDilations[d],
                      windowDilations[d], low[d], high[d]})
      if (v > kBound || v < -kBound)
        return op.emitError("window attribute ")
               << v << " of dimension " << d << " is out of range";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = inputType.getDimSize(d);
    int64_t padded =
        (size == 0 ? 0 : (size - 1) * baseDilations[d] + 1) + low[d] + high[d];
    int64_t span = (window[d] - 1) * windowDilations[d] + 1;
    if (window[d] < 1 || span > padded ||
        type.getDimSize(d) != (padded - span) / strides[d] + 1)
      return op.emitError("window ")
             << window[d] << ", stride " << strides[d] << ", dilations "
             << baseDilations[d] << " (base) and " << windowDilations[d]
             << " (window) and padding [" << low[d] << ", " << high[d]
             << "] of dimension " << d << " do not give the result's size "
             << type.getDimSize(d);
  }
  Location loc = op.getLoc();
  Value init = scalarOf(b, loc, op.getInitValues()[0]);
  SmallVector<int64_t> offsets;
  input = dilateAndPad(b, loc, input, init, llvm::to_vector(llvm::seq(rank)),
                       low, high, baseDilations, offsets);
  SmallVector<AffineExpr> in, win, out;
  for (int64_t d = 0; d < rank; ++d) {
    in.push_back(b.getAffineDimExpr(d) * strides[d] +
                 b.getAffineDimExpr(rank + d) * windowDilations[d] +
                 offsets[d]);
    win.push_back(b.getAffineDimExpr(rank + d));
    out.push_back(b.getAffineDimExpr(d));
  }
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps = {AffineMap::get(2 * rank, 0, in, ctx),
                                 AffineMap::get(2 * rank, 0, win, ctx),
                                 AffineMap::get(2 * rank, 0, out, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(rank, utils::IteratorType::reduction);
  Value windowShape =
      tensor::EmptyOp::create(b, loc, window, type.getElementType());
  Value filled =
      linalg::FillOp::create(b, loc, init, emptyOf(b, loc, type)).getResult(0);
  Block &reducer = op.getBody().front();
  bool bodyFailed = false;
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{input, windowShape}, ValueRange{filled}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        FailureOr<SmallVector<Value>> yielded =
            emitScalarRegion(nb, op, reducer, {args[2], args[0]});
        bodyFailed = failed(yielded);
        linalg::YieldOp::create(nb, nloc,
                                bodyFailed ? Value(args[2]) : (*yielded)[0]);
      });
  if (bodyFailed) {
    generic->erase();
    return failure();
  }
  return generic->getResult(0);
}
