//===- TransposeElementwise.cpp - Transposes of arith and tensor ops ------===//
//
// spmd-transpose's rules for elementwise arithmetic (the sum, difference,
// negation of linear values, their product with and quotient by non-linear
// ones) and for the tensor ops that move elements (slices, reshapes,
// concatenation): each one's transpose is another such op.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/Transforms/Transposer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace mlir::spmd::transpose {

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

LogicalResult Transposer::transposeAdd(Operation *op, Value c, Scope &s,
                                       OpBuilder &b) {
  Location loc = op->getLoc();
  for (unsigned i = 0; i < 2; ++i) {
    if (isLinear(op->getOperand(i)))
      accumulate(s, b, loc, op->getOperand(i), c);
    else if (failed(requireZero(op, i)))
      return failure();
  }
  return success();
}

LogicalResult Transposer::transposeSub(Operation *op, Value c, Scope &s,
                                       OpBuilder &b) {
  Location loc = op->getLoc();
  if (isLinear(op->getOperand(0)))
    accumulate(s, b, loc, op->getOperand(0), c);
  else if (failed(requireZero(op, 0)))
    return failure();
  if (isLinear(op->getOperand(1)))
    accumulate(s, b, loc, op->getOperand(1), negate(b, loc, c));
  else if (failed(requireZero(op, 1)))
    return failure();
  return success();
}

LogicalResult Transposer::transposeNeg(arith::NegFOp neg, Value c, Scope &s,
                                       OpBuilder &b) {
  Location loc = neg.getLoc();
  accumulate(s, b, loc, neg.getOperand(), negate(b, loc, c));
  return success();
}

LogicalResult Transposer::transposeMul(Operation *op, Value c, Scope &s,
                                       OpBuilder &b) {
  Location loc = op->getLoc();
  bool linear0 = isLinear(op->getOperand(0));
  if (linear0 && isLinear(op->getOperand(1)))
    return op->emitOpError("multiplies two linear values: the function is "
                           "not linear");
  unsigned l = linear0 ? 0 : 1;
  accumulate(s, b, loc, op->getOperand(l),
             mul(b, loc, c, fwd(s, op->getOperand(1 - l))));
  return success();
}

LogicalResult Transposer::transposeDiv(arith::DivFOp div, Value c, Scope &s,
                                       OpBuilder &b) {
  Location loc = div.getLoc();
  if (isLinear(div.getRhs()))
    return div->emitOpError("divides by a linear value: the function is not "
                            "linear");
  accumulate(s, b, loc, div.getLhs(),
             arith::DivFOp::create(b, loc, c, fwd(s, div.getRhs())));
  return success();
}

//===----------------------------------------------------------------------===//
// tensor
//===----------------------------------------------------------------------===//

LogicalResult Transposer::transposeExtractSlice(tensor::ExtractSliceOp extract,
                                                Value c, Scope &s,
                                                OpBuilder &b) {
  Location loc = extract.getLoc();
  Value source = extract.getSource();
  Value into = zeros(b, loc, source.getType());
  Value inserted = tensor::InsertSliceOp::create(
      b, loc, c, into, fwd(s, extract.getMixedOffsets()),
      fwd(s, extract.getMixedSizes()), fwd(s, extract.getMixedStrides()));
  accumulate(s, b, loc, source, inserted);
  return success();
}

LogicalResult Transposer::transposeInsertSlice(tensor::InsertSliceOp insert,
                                               Value c, Scope &s,
                                               OpBuilder &b) {
  Location loc = insert.getLoc();
  SmallVector<OpFoldResult> offsets = fwd(s, insert.getMixedOffsets());
  SmallVector<OpFoldResult> sizes = fwd(s, insert.getMixedSizes());
  SmallVector<OpFoldResult> strides = fwd(s, insert.getMixedStrides());
  if (isLinear(insert.getSource())) {
    auto type =
        cast<RankedTensorType>(stripVaryEncoding(insert.getSource().getType()));
    Value slice = tensor::ExtractSliceOp::create(b, loc, type, c, offsets,
                                                 sizes, strides);
    accumulate(s, b, loc, insert.getSource(), slice);
  } else if (failed(requireZero(insert, 0))) {
    return failure();
  }
  if (isLinear(insert.getDest())) {
    Value hole = zeros(b, loc, insert.getSource().getType());
    Value rest =
        tensor::InsertSliceOp::create(b, loc, hole, c, offsets, sizes, strides);
    accumulate(s, b, loc, insert.getDest(), rest);
  } else if (failed(requireZero(insert, 1))) {
    return failure();
  }
  return success();
}

LogicalResult Transposer::transposeExpandShape(tensor::ExpandShapeOp expand,
                                               Value c, Scope &s,
                                               OpBuilder &b) {
  Location loc = expand.getLoc();
  Value collapsed = tensor::CollapseShapeOp::create(
      b, loc, stripVaryEncoding(expand.getSrc().getType()), c,
      expand.getReassociationIndices());
  accumulate(s, b, loc, expand.getSrc(), collapsed);
  return success();
}

LogicalResult
Transposer::transposeCollapseShape(tensor::CollapseShapeOp collapse, Value c,
                                   Scope &s, OpBuilder &b) {
  Location loc = collapse.getLoc();
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, stripVaryEncoding(collapse.getSrc().getType()), c,
      collapse.getReassociationIndices());
  accumulate(s, b, loc, collapse.getSrc(), expanded);
  return success();
}

LogicalResult Transposer::transposeConcat(tensor::ConcatOp concat, Value c,
                                          Scope &s, OpBuilder &b) {
  Location loc = concat.getLoc();
  int64_t dim = concat.getDim();
  int64_t offset = 0;
  auto resultType = cast<RankedTensorType>(concat.getType());
  for (auto [i, input] : llvm::enumerate(concat.getInputs())) {
    auto type = cast<RankedTensorType>(stripVaryEncoding(input.getType()));
    if (isLinear(input)) {
      SmallVector<OpFoldResult> offsets(resultType.getRank(),
                                        b.getIndexAttr(0));
      offsets[dim] = b.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : type.getShape())
        sizes.push_back(b.getIndexAttr(size));
      SmallVector<OpFoldResult> strides(resultType.getRank(),
                                        b.getIndexAttr(1));
      Value slice = tensor::ExtractSliceOp::create(b, loc, type, c, offsets,
                                                   sizes, strides);
      accumulate(s, b, loc, input, slice);
    } else if (failed(requireZero(concat, i))) {
      return failure();
    }
    offset += type.getDimSize(dim);
  }
  return success();
}

} // namespace mlir::spmd::transpose
