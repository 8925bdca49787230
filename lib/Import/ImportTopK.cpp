//===- ImportTopK.cpp - chlo.top_k as k selection passes -----------------===//
//
// `chlo.top_k(%x, k = K)` (jax.lax.top_k, MoE routers) becomes K
// linalg.generic reductions over the last dimension. Pass j picks, among
// the elements ordered after pass j-1's pick, the first in the op's order:
// larger first, equal ones by smaller index. Floats compare in total order
// through an integer key (the bits, with every bit but the sign flipped
// for negative values): NaN above +inf, -NaN below -inf, -0 below +0. Each
// pass is an argmax-like reduction, which the partitioner handles like
// jnp.argmax's; the K picks are concatenated along the last dimension.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

/// The integer whose signed order is `value`'s total order.
static Value orderKey(OpBuilder &b, Location loc, Value value,
                      IntegerType keyType) {
  if (!isa<FloatType>(value.getType()))
    return value;
  unsigned width = keyType.getWidth();
  Value bits = arith::BitcastOp::create(b, loc, keyType, value);
  Value shift = arith::ConstantIntOp::create(b, loc, keyType, width - 1);
  Value sign = arith::ShRSIOp::create(b, loc, bits, shift);
  Value rest = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(keyType, APInt::getSignedMaxValue(width)));
  Value flip = arith::AndIOp::create(b, loc, sign, rest);
  return arith::XOrIOp::create(b, loc, bits, flip);
}

FailureOr<SmallVector<Value>> Importer::importTopK(chlo::TopKOp op) {
  auto type = cast<RankedTensorType>(op.getOperand().getType());
  auto valuesType = cast<RankedTensorType>(op.getValues().getType());
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  int64_t rank = type.getRank(), k = op.getK();
  if (op.getLargest() && !*op.getLargest())
    return op.emitError("top_k with largest = false is not supported");
  if (rank == 0)
    return op.emitError("top_k needs an operand of rank at least 1");
  int64_t n = type.getDimSize(rank - 1);
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = k;
  Type element = type.getElementType();
  auto indexElement = dyn_cast<IntegerType>(indicesType.getElementType());
  if (k < 1 || k > n || valuesType.getShape() != ArrayRef<int64_t>(shape) ||
      valuesType.getElementType() != element || !indexElement ||
      indicesType.getShape() != ArrayRef<int64_t>(shape) ||
      indexElement.getWidth() < 32)
    return op.emitError("top_k of ")
           << type << " with k = " << k << " must give " << k
           << " values and i32 indices along the last dimension (k at most "
           << n << ")";
  if (wasUnsigned(op, 0))
    return op.emitError("top_k of unsigned integers is not supported yet");
  IntegerType keyType;
  if (auto floatType = dyn_cast<FloatType>(element))
    keyType = b.getIntegerType(floatType.getWidth());
  else if (auto intType = dyn_cast<IntegerType>(element);
           intType && intType.getWidth() > 1)
    keyType = intType;
  else
    return op.emitError("top_k of ") << element << " is not supported";

  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> rowShape(type.getShape().drop_back());
  auto rowOf = [&](Type elt) { return RankedTensorType::get(rowShape, elt); };
  SmallVector<AffineExpr> rowExprs;
  for (int64_t d = 0; d + 1 < rank; ++d)
    rowExprs.push_back(b.getAffineDimExpr(d));
  AffineMap full = b.getMultiDimIdentityMap(rank);
  AffineMap row = AffineMap::get(rank, 0, rowExprs, ctx);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  auto filled = [&](Type elt, TypedAttr value) {
    Value scalar = arith::ConstantOp::create(b, loc, value);
    return linalg::FillOp::create(b, loc, scalar, emptyOf(b, loc, rowOf(elt)))
        .getResult(0);
  };

  SmallVector<Value> pickedValues, pickedIndices;
  Value prevKey, prevIndex;
  for (int64_t j = 0; j < k; ++j) {
    SmallVector<Value> inputs{op.getOperand()};
    SmallVector<AffineMap> maps{full};
    if (j > 0) {
      inputs.append({prevKey, prevIndex});
      maps.append({row, row});
    }
    maps.append(3, row);
    SmallVector<Value> inits{
        filled(keyType, b.getIntegerAttr(keyType, 0)),
        filled(indexElement, b.getIntegerAttr(indexElement, -1)),
        filled(element, cast<TypedAttr>(b.getZeroAttr(element)))};
    SmallVector<Type> resultTypes{rowOf(keyType), rowOf(indexElement),
                                  rowOf(element)};
    bool first = j == 0;
    auto pass = linalg::GenericOp::create(
        b, loc, resultTypes, inputs, inits, maps, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value x = args[0];
          size_t acc = first ? 1 : 3;
          Value accKey = args[acc], accIndex = args[acc + 1],
                accValue = args[acc + 2];
          Value position = linalg::IndexOp::create(nb, nloc, rank - 1);
          Value index =
              arith::IndexCastOp::create(nb, nloc, indexElement, position);
          Value key = orderKey(nb, nloc, x, keyType);
          using P = arith::CmpIPredicate;
          auto cmp = [&](P p, Value l, Value r) -> Value {
            return arith::CmpIOp::create(nb, nloc, p, l, r);
          };
          auto orOf = [&](Value l, Value r) -> Value {
            return arith::OrIOp::create(nb, nloc, l, r);
          };
          auto andOf = [&](Value l, Value r) -> Value {
            return arith::AndIOp::create(nb, nloc, l, r);
          };
          // Better than the accumulated pick (or the first candidate).
          Value none = cmp(P::slt, accIndex,
                           arith::ConstantOp::create(
                               nb, nloc, nb.getIntegerAttr(indexElement, 0)));
          Value take = orOf(none, orOf(cmp(P::sgt, key, accKey),
                                       andOf(cmp(P::eq, key, accKey),
                                             cmp(P::slt, index, accIndex))));
          if (!first) {
            // Ordered after the previous pass's pick.
            Value after = orOf(
                cmp(P::slt, key, args[1]),
                andOf(cmp(P::eq, key, args[1]), cmp(P::sgt, index, args[2])));
            take = andOf(after, take);
          }
          linalg::YieldOp::create(
              nb, nloc,
              ValueRange{
                  arith::SelectOp::create(nb, nloc, take, key, accKey),
                  arith::SelectOp::create(nb, nloc, take, index, accIndex),
                  arith::SelectOp::create(nb, nloc, take, x, accValue)});
        });
    prevKey = pass.getResult(0);
    prevIndex = pass.getResult(1);
    // Each pick as a slice of width 1 along the last dimension.
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d + 1 < rank; ++d)
      groups.push_back({d});
    if (!groups.empty()) // rank 1: a 0-d pick expands with no groups
      groups.back().push_back(rank - 1);
    SmallVector<int64_t> oneShape(rowShape);
    oneShape.push_back(1);
    auto expand = [&](Value v, Type elt) -> Value {
      return tensor::ExpandShapeOp::create(
          b, loc, RankedTensorType::get(oneShape, elt), v, groups);
    };
    pickedValues.push_back(expand(pass.getResult(2), element));
    pickedIndices.push_back(expand(prevIndex, indexElement));
  }
  auto concat = [&](ArrayRef<Value> pieces,
                    RankedTensorType resultType) -> Value {
    if (pieces.size() == 1)
      return pieces.front();
    return tensor::ConcatOp::create(b, loc, resultType, rank - 1, pieces)
        .getResult();
  };
  return SmallVector<Value>{concat(pickedValues, valuesType),
                            concat(pickedIndices, indicesType)};
}
