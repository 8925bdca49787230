//===- TransposeElementwise.cpp - Transposes of arith and tensor ops ------===//
//
// spmd-transpose's rules for elementwise arithmetic (the sum, difference,
// negation of linear values, their product with and quotient by non-linear
// ones) and for the tensor ops that move elements (slices, reshapes,
// concatenation): each one's transpose is another such op. They are the
// TransposeOpInterface models of those ops.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/Transposer.h"

#include "dialects/trellis/IR/TrellisDialect.h"
#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace mlir::spmd::transpose {

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

static LogicalResult transposeAdd(Operation *op, TransposeState &state, Value c,
                                  OpBuilder &b) {
  Location loc = op->getLoc();
  for (unsigned i = 0; i < 2; ++i) {
    if (state.isLinear(op->getOperand(i)))
      state.accumulate(b, loc, op->getOperand(i), c);
    else if (failed(state.requireZero(op, i)))
      return failure();
  }
  return success();
}

static LogicalResult transposeSub(Operation *op, TransposeState &state, Value c,
                                  OpBuilder &b) {
  Location loc = op->getLoc();
  if (state.isLinear(op->getOperand(0)))
    state.accumulate(b, loc, op->getOperand(0), c);
  else if (failed(state.requireZero(op, 0)))
    return failure();
  if (state.isLinear(op->getOperand(1)))
    state.accumulate(b, loc, op->getOperand(1), negate(b, loc, c));
  else if (failed(state.requireZero(op, 1)))
    return failure();
  return success();
}

static LogicalResult transposeNeg(arith::NegFOp neg, TransposeState &state,
                                  Value c, OpBuilder &b) {
  Location loc = neg.getLoc();
  state.accumulate(b, loc, neg.getOperand(), negate(b, loc, c));
  return success();
}

static LogicalResult transposeMul(Operation *op, TransposeState &state, Value c,
                                  OpBuilder &b) {
  Location loc = op->getLoc();
  bool linear0 = state.isLinear(op->getOperand(0));
  if (linear0 && state.isLinear(op->getOperand(1)))
    return op->emitOpError("multiplies two linear values: the function is "
                           "not linear");
  unsigned l = linear0 ? 0 : 1;
  state.accumulate(b, loc, op->getOperand(l),
                   mul(b, loc, c, state.forward(op->getOperand(1 - l))));
  return success();
}

static LogicalResult transposeDiv(arith::DivFOp div, TransposeState &state,
                                  Value c, OpBuilder &b) {
  Location loc = div.getLoc();
  if (state.isLinear(div.getRhs()))
    return div->emitOpError("divides by a linear value: the function is not "
                            "linear");
  state.accumulate(
      b, loc, div.getLhs(),
      arith::DivFOp::create(b, loc, c, state.forward(div.getRhs())));
  return success();
}

/// `select(cond, a, b)`: the cotangent goes to the operand `cond` chose.
static LogicalResult transposeSelect(arith::SelectOp select,
                                     TransposeState &state, Value c,
                                     OpBuilder &b) {
  Location loc = select.getLoc();
  if (state.isLinear(select.getCondition()))
    return select->emitOpError("selects on a linear value: the function is "
                               "not linear");
  Value cond = state.forward(select.getCondition());
  Value none = zeros(b, loc, c.getType());
  for (unsigned i = 1; i < 3; ++i) {
    Value operand = select->getOperand(i);
    if (!state.isLinear(operand)) {
      if (failed(state.requireZero(select, i)))
        return failure();
      continue;
    }
    Value part = i == 1 ? arith::SelectOp::create(b, loc, cond, c, none)
                        : arith::SelectOp::create(b, loc, cond, none, c);
    state.accumulate(b, loc, operand, part);
  }
  return success();
}

/// A precision change (`CastOp`, extf or truncf) transposes to the opposite
/// one (`InverseOp`).
template <typename CastOp, typename InverseOp>
static LogicalResult transposeCast(CastOp cast, TransposeState &state, Value c,
                                   OpBuilder &b) {
  Location loc = cast.getLoc();
  Type type = stripVaryEncoding(cast.getIn().getType());
  state.accumulate(b, loc, cast.getIn(), InverseOp::create(b, loc, type, c));
  return success();
}

//===----------------------------------------------------------------------===//
// trellis: layout changes are identities on values
//===----------------------------------------------------------------------===//

/// The cotangent of a sharding constraint is constrained the same way (as
/// JAX transposes with_sharding_constraint).
static LogicalResult
transposeShardingConstraint(trellis::ShardingConstraintOp op,
                            TransposeState &state, Value c, OpBuilder &b) {
  Location loc = op.getLoc();
  Value constrained = trellis::ShardingConstraintOp::create(
      b, loc, c.getType(), c, op.getShardingAttr());
  state.accumulate(b, loc, op.getInput(), constrained);
  return success();
}

/// A reshard's cotangent goes back to the operand's layout.
static LogicalResult transposeReshard(trellis::ReshardOp op,
                                      TransposeState &state, Value c,
                                      OpBuilder &b) {
  Location loc = op.getLoc();
  Type type = stripVaryEncoding(op.getInput().getType());
  Value back = c.getType() == type
                   ? c
                   : Value(trellis::ReshardOp::create(b, loc, type, c));
  state.accumulate(b, loc, op.getInput(), back);
  return success();
}

//===----------------------------------------------------------------------===//
// tensor
//===----------------------------------------------------------------------===//

static LogicalResult transposeExtractSlice(tensor::ExtractSliceOp extract,
                                           TransposeState &state, Value c,
                                           OpBuilder &b) {
  Location loc = extract.getLoc();
  Value source = extract.getSource();
  Value into = zeros(b, loc, source.getType());
  Value inserted = tensor::InsertSliceOp::create(
      b, loc, c, into, state.forward(extract.getMixedOffsets()),
      state.forward(extract.getMixedSizes()),
      state.forward(extract.getMixedStrides()));
  state.accumulate(b, loc, source, inserted);
  return success();
}

static LogicalResult transposeInsertSlice(tensor::InsertSliceOp insert,
                                          TransposeState &state, Value c,
                                          OpBuilder &b) {
  Location loc = insert.getLoc();
  SmallVector<OpFoldResult> offsets = state.forward(insert.getMixedOffsets());
  SmallVector<OpFoldResult> sizes = state.forward(insert.getMixedSizes());
  SmallVector<OpFoldResult> strides = state.forward(insert.getMixedStrides());
  if (state.isLinear(insert.getSource())) {
    auto type =
        cast<RankedTensorType>(stripVaryEncoding(insert.getSource().getType()));
    Value slice = tensor::ExtractSliceOp::create(b, loc, type, c, offsets,
                                                 sizes, strides);
    state.accumulate(b, loc, insert.getSource(), slice);
  } else if (failed(state.requireZero(insert, 0))) {
    return failure();
  }
  if (state.isLinear(insert.getDest())) {
    Value hole = zeros(b, loc, insert.getSource().getType());
    Value rest =
        tensor::InsertSliceOp::create(b, loc, hole, c, offsets, sizes, strides);
    state.accumulate(b, loc, insert.getDest(), rest);
  } else if (failed(state.requireZero(insert, 1))) {
    return failure();
  }
  return success();
}

static LogicalResult transposeExpandShape(tensor::ExpandShapeOp expand,
                                          TransposeState &state, Value c,
                                          OpBuilder &b) {
  Location loc = expand.getLoc();
  Value collapsed = tensor::CollapseShapeOp::create(
      b, loc, stripVaryEncoding(expand.getSrc().getType()), c,
      expand.getReassociationIndices());
  state.accumulate(b, loc, expand.getSrc(), collapsed);
  return success();
}

static LogicalResult transposeCollapseShape(tensor::CollapseShapeOp collapse,
                                            TransposeState &state, Value c,
                                            OpBuilder &b) {
  Location loc = collapse.getLoc();
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, stripVaryEncoding(collapse.getSrc().getType()), c,
      collapse.getReassociationIndices());
  state.accumulate(b, loc, collapse.getSrc(), expanded);
  return success();
}

/// Padding with zeros transposes to the slice the source came from.
static LogicalResult transposePad(tensor::PadOp pad, TransposeState &state,
                                  Value c, OpBuilder &b) {
  Location loc = pad.getLoc();
  Value padding = pad.getConstantPaddingValue();
  if (!padding || !isZero(padding))
    return pad.emitOpError("pads a linear value with a value that is not "
                           "zero: the function is affine, not linear");
  auto type =
      cast<RankedTensorType>(stripVaryEncoding(pad.getSource().getType()));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? OpFoldResult(tensor::DimOp::create(
                              b, loc, state.forward(pad.getSource()), d))
                        : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  Value slice = tensor::ExtractSliceOp::create(
      b, loc, type, c, state.forward(pad.getMixedLowPad()), sizes, strides);
  state.accumulate(b, loc, pad.getSource(), slice);
  return success();
}

static LogicalResult transposeConcat(tensor::ConcatOp concat,
                                     TransposeState &state, Value c,
                                     OpBuilder &b) {
  Location loc = concat.getLoc();
  int64_t dim = concat.getDim();
  int64_t offset = 0;
  auto resultType = cast<RankedTensorType>(concat.getType());
  for (auto [i, input] : llvm::enumerate(concat.getInputs())) {
    auto type = cast<RankedTensorType>(stripVaryEncoding(input.getType()));
    if (state.isLinear(input)) {
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
      state.accumulate(b, loc, input, slice);
    } else if (failed(state.requireZero(concat, i))) {
      return failure();
    }
    offset += type.getDimSize(dim);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void registerElementwiseTransposeModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::AddFOp::attachInterface<RuleModel<arith::AddFOp, transposeAdd>>(
        *ctx);
    arith::AddIOp::attachInterface<RuleModel<arith::AddIOp, transposeAdd>>(
        *ctx);
    arith::SubFOp::attachInterface<RuleModel<arith::SubFOp, transposeSub>>(
        *ctx);
    arith::SubIOp::attachInterface<RuleModel<arith::SubIOp, transposeSub>>(
        *ctx);
    arith::NegFOp::attachInterface<RuleModel<arith::NegFOp, transposeNeg>>(
        *ctx);
    arith::MulFOp::attachInterface<RuleModel<arith::MulFOp, transposeMul>>(
        *ctx);
    arith::MulIOp::attachInterface<RuleModel<arith::MulIOp, transposeMul>>(
        *ctx);
    arith::DivFOp::attachInterface<RuleModel<arith::DivFOp, transposeDiv>>(
        *ctx);
    arith::SelectOp::attachInterface<
        RuleModel<arith::SelectOp, transposeSelect>>(*ctx);
    arith::ExtFOp::attachInterface<RuleModel<
        arith::ExtFOp, transposeCast<arith::ExtFOp, arith::TruncFOp>>>(*ctx);
    arith::TruncFOp::attachInterface<RuleModel<
        arith::TruncFOp, transposeCast<arith::TruncFOp, arith::ExtFOp>>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, trellis::TrellisDialect *) {
    trellis::ShardingConstraintOp::attachInterface<
        RuleModel<trellis::ShardingConstraintOp, transposeShardingConstraint>>(
        *ctx);
    trellis::ReshardOp::attachInterface<
        RuleModel<trellis::ReshardOp, transposeReshard>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        RuleModel<tensor::ExtractSliceOp, transposeExtractSlice>>(*ctx);
    tensor::InsertSliceOp::attachInterface<
        RuleModel<tensor::InsertSliceOp, transposeInsertSlice>>(*ctx);
    tensor::ExpandShapeOp::attachInterface<
        RuleModel<tensor::ExpandShapeOp, transposeExpandShape>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<
        RuleModel<tensor::CollapseShapeOp, transposeCollapseShape>>(*ctx);
    tensor::ConcatOp::attachInterface<
        RuleModel<tensor::ConcatOp, transposeConcat>>(*ctx);
    tensor::PadOp::attachInterface<RuleModel<tensor::PadOp, transposePad>>(
        *ctx);
  });
}

} // namespace mlir::spmd::transpose
