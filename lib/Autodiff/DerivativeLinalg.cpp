//===- DerivativeLinalg.cpp - Derivatives of linalg and tensor ops --------===//
//
// The DerivativeOpInterface models of structured ops:
//  * ops linear in their data (transpose, broadcast, copy, sum reductions,
//    slices, reshapes, concatenation): the same op on the tangents;
//  * contractions (linalg.matmul and friends, generic matrix products): the
//    product rule, each term a contraction with one tangent operand;
//  * max/min reductions: the tangent where the input equals the result,
//    split evenly among ties;
//  * other linalg.generic ops (maps with broadcasts, sums over reduction
//    loops): the partial derivative of the body with respect to each input
//    is computed over the iteration space by a generic whose body is the
//    scalar rules' output, multiplied by the input's tangent broadcast to
//    the iteration space, and summed over the reduction loops. Every op the
//    tangent uses (mulf by a non-linear partial, transpose, broadcast,
//    collapse_shape, sum) has a transpose rule.
//
//===----------------------------------------------------------------------===//

#include "dialects/trellis/IR/LinalgUtils.h"
#include "dialects/trellis/IR/TrellisDialect.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "lib/Autodiff/Linearizer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace mlir::trellis::autodiff {
namespace {

/// The model that applies `Rule`, a structured op's rule (these ops have no
/// elementwise `buildTangent`).
using JvpRule = LogicalResult (*)(Operation *, JvpState &, OpBuilder &);
template <typename OpTy, JvpRule Rule>
struct RuleModel
    : DerivativeOpInterface::ExternalModel<RuleModel<OpTy, Rule>, OpTy> {
  LogicalResult jvp(Operation *op, JvpState &state, OpBuilder &b) const {
    return Rule(op, state, b);
  }
  FailureOr<Value> buildTangent(Operation *, OpBuilder &, ValueRange,
                                ValueRange, Value) const {
    return failure();
  }
};

/// An op linear in its floating-point tensor operands.
template <typename OpTy> using LinearModel = RuleModel<OpTy, linearRule>;

/// An op whose result does not depend on its operands' values (a fill).
LogicalResult constantRule(Operation *, JvpState &, OpBuilder &) {
  return success();
}

/// The product rule of a contraction: one term per input with a tangent,
/// each the contraction of that tangent with the other (primal) input.
LogicalResult contractionRule(Operation *operation, JvpState &state,
                              OpBuilder &b) {
  auto op = cast<linalg::LinalgOp>(operation);
  Location loc = op.getLoc();
  Value init = op.getDpsInitOperand(0)->get();
  Value total;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value t = state.tangent(input->get());
    if (!t)
      continue;
    // The tangent replaces this operand position only: `matmul(x, x)` has
    // the terms matmul(dx, x) and matmul(x, dx), so nothing here may be
    // keyed by the operand's value.
    Value zeros = zerosOf(b, loc, init.getType());
    Operation *term =
        cloneWith(b, op, [&](Value v) -> Value { return state.primal(v); });
    term->setOperand(input->getOperandNumber(), t);
    term->setOperand(op.getDpsInitOperand(0)->getOperandNumber(), zeros);
    total = addTangents(b, loc, total, term->getResult(0));
  }
  total = addTangents(b, loc, total, state.tangent(init));
  state.setTangent(op->getResult(0), total);
  return success();
}

template <typename OpTy>
using ContractionModel = RuleModel<OpTy, contractionRule>;

RankedTensorType plainTensor(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element);
}

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type element) {
  return tensor::EmptyOp::create(b, loc, shape, element);
}

/// Sum of `t` over `dims`.
Value sumOver(OpBuilder &b, Location loc, Value t, ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(t.getType());
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      shape.push_back(size);
  Value init = zerosOf(b, loc, plainTensor(shape, type.getElementType()));
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{t}, ValueRange{init}, dims,
      [](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, Value(arith::AddFOp::create(nb, l, args[0], args[1])));
      });
  return reduce.getResult(0);
}

/// `t` (indexed by `map` over a loop nest of sizes `loops`) broadcast to the
/// whole loop nest, its dimensions in loop order.
FailureOr<Value> expandToLoops(OpBuilder &b, Location loc, Value t,
                               AffineMap map, ArrayRef<int64_t> loops,
                               Operation *op) {
  auto type = cast<RankedTensorType>(t.getType());
  Type element = type.getElementType();
  // Unit dimensions indexed by a constant 0 go first.
  SmallVector<unsigned> dims;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  bool anyConstant = false;
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      pending.push_back(k);
      groups.push_back(pending);
      pending.clear();
      dims.push_back(dim.getPosition());
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0 || type.getDimSize(k) != 1)
      return op->emitOpError("indexes an input by ")
             << AffineMapAttr::get(map)
             << "; trellis-grad differentiates generics whose input maps "
                "are projected permutations (and constant 0 on unit "
                "dimensions)";
    anyConstant = true;
    pending.push_back(k);
  }
  if (!pending.empty() && !groups.empty())
    groups.back().append(pending.begin(), pending.end());
  if (anyConstant) {
    SmallVector<int64_t> shape;
    for (unsigned d : dims)
      shape.push_back(loops[d]);
    t = tensor::CollapseShapeOp::create(b, loc, plainTensor(shape, element), t,
                                        groups);
  }
  // Then a transpose into loop order.
  SmallVector<int64_t> perm(dims.size());
  for (unsigned k = 0; k < dims.size(); ++k)
    perm[k] = k;
  llvm::sort(perm, [&](int64_t p, int64_t q) { return dims[p] < dims[q]; });
  if (!llvm::is_sorted(dims)) {
    SmallVector<int64_t> shape;
    for (int64_t p : perm)
      shape.push_back(loops[dims[p]]);
    Value init = emptyTensor(b, loc, shape, element);
    t = linalg::TransposeOp::create(b, loc, t, init, perm).getResult()[0];
  }
  // Then a broadcast along the loops it does not depend on.
  SmallVector<int64_t> missing;
  for (unsigned d = 0; d < loops.size(); ++d)
    if (!llvm::is_contained(dims, d))
      missing.push_back(d);
  if (!missing.empty()) {
    Value init = emptyTensor(b, loc, loops, element);
    t = linalg::BroadcastOp::create(b, loc, t, init, missing).getResult()[0];
  }
  return t;
}

/// Values of `body` that depend on `v`.
DenseSet<Value> dependents(Block &body, Value v) {
  DenseSet<Value> found = {v};
  for (Operation &op : body)
    if (llvm::any_of(op.getOperands(),
                     [&](Value x) { return found.contains(x); }))
      for (Value r : op.getResults())
        found.insert(r);
  return found;
}

/// The partial derivative of `g` (a value of `op`'s body) with respect to
/// the body argument of input #`input`, at every point of the loop nest, as
/// a generic over it. Null when it is the constant 1; the constant 0 when
/// `g` does not depend on the input. With `input` negative, `g` itself.
FailureOr<Value> buildPartial(linalg::LinalgOp op, int input, Value g,
                              const DenseSet<Value> &skip,
                              ArrayRef<int64_t> loops, JvpState &state,
                              OpBuilder &b, bool &zero) {
  Location loc = op.getLoc();
  Block &body = *op.getBlock();
  Type element = g.getType();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands()) {
    inputs.push_back(state.primal(in->get()));
    maps.push_back(op.getMatchingIndexingMap(in));
  }
  maps.push_back(
      AffineMap::getMultiDimIdentityMap(loops.size(), b.getContext()));
  SmallVector<utils::IteratorType> iterators(loops.size(),
                                             utils::IteratorType::parallel);
  Value init = emptyTensor(b, loc, loops, element);
  LogicalResult status = success();
  Value yielded;
  auto partial = linalg::GenericOp::create(
      b, loc, TypeRange{plainTensor(loops, element)}, inputs, ValueRange{init},
      maps, iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        IRMapping m;
        DenseMap<Value, Value> d;
        for (unsigned k = 0; k < inputs.size(); ++k)
          m.map(body.getArgument(k), args[k]);
        // Values the body captures (constants that canonicalization hoisted)
        // come from the new program.
        for (Operation &inner : body)
          for (Value v : inner.getOperands())
            if (!op->isAncestor(v.getParentRegion()->getParentOp()))
              m.map(v, state.primal(v));
        if (input >= 0) {
          BlockArgument wrt = body.getArgument(input);
          d[wrt] = constantLike(nb, l, wrt.getType(), 1.0);
        }
        for (Operation &inner : body.without_terminator()) {
          if (llvm::any_of(inner.getResults(),
                           [&](Value r) { return skip.contains(r); }))
            continue;
          Operation *copy = nb.clone(inner, m);
          SmallVector<Value> tangents;
          bool any = false;
          for (Value v : inner.getOperands()) {
            tangents.push_back(d.lookup(v));
            any |= static_cast<bool>(tangents.back());
          }
          if (!any || inner.getNumResults() != 1 ||
              !isFloatLike(inner.getResult(0).getType()))
            continue;
          auto rule = dyn_cast<DerivativeOpInterface>(&inner);
          FailureOr<Value> t = failure();
          if (rule)
            t = rule.buildTangent(nb, copy->getOperands(), tangents,
                                  copy->getResult(0));
          if (failed(t)) {
            status = inner.emitOpError(
                "has no derivative rule, but trellis-grad needs one to "
                "differentiate the body of a linalg.generic");
            break;
          }
          if (*t)
            d[inner.getResult(0)] = *t;
        }
        yielded = input >= 0 ? d.lookup(g) : m.lookupOrDefault(g);
        if (!yielded)
          yielded = constantLike(nb, l, element, 0.0);
        linalg::YieldOp::create(nb, l, yielded);
      });
  if (failed(status)) {
    partial.erase();
    return failure();
  }
  if (input < 0)
    return partial.getResult(0);
  zero = isConstant(yielded, 0.0);
  if (zero || isConstant(yielded, 1.0)) {
    partial.erase();
    return Value();
  }
  return partial.getResult(0);
}

LogicalResult genericRule(Operation *operation, JvpState &state, OpBuilder &b) {
  auto op = cast<linalg::LinalgOp>(operation);
  // Contractions whose body has more than the product (an exp on a
  // factor) are not bilinear: the general rule below differentiates them.
  if (trellis::isPlainContraction(op))
    return contractionRule(op, state, b);
  Location loc = op.getLoc();
  if (op.getNumDpsInits() != 1)
    return op.emitOpError("has ")
           << op.getNumDpsInits()
           << " outputs; trellis-grad differentiates generics with one";
  Value result = op->getResult(0);
  auto resultType = cast<RankedTensorType>(result.getType());
  Type element = resultType.getElementType();
  if (!isa<FloatType>(element))
    return success();
  Block &body = *op.getBlock();
  OpOperand *init = op.getDpsInitOperand(0);
  BlockArgument acc = op.getMatchingBlockArgument(init);
  Value e = body.getTerminator()->getOperand(0);
  SmallVector<unsigned> reductions;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray()))
    if (it == utils::IteratorType::reduction)
      reductions.push_back(d);

  // The body is g(inputs) (a map) or acc + g(inputs) (a sum).
  DenseSet<Value> fromAcc = dependents(body, acc);
  Value g = e;
  bool sum = false, extremum = false;
  if (fromAcc.contains(e)) {
    Operation *combine = e.getDefiningOp();
    Value other;
    if (combine && combine->getNumOperands() == 2 &&
        isa<arith::AddFOp, arith::MaximumFOp, arith::MaxNumFOp,
            arith::MinimumFOp, arith::MinNumFOp>(combine)) {
      if (combine->getOperand(0) == acc)
        other = combine->getOperand(1);
      else if (combine->getOperand(1) == acc)
        other = combine->getOperand(0);
    }
    if (!other || fromAcc.contains(other))
      return op.emitOpError("combines its output with the rest of its body "
                            "other than by a sum, max or min; trellis-grad "
                            "differentiates maps and such reductions");
    g = other;
    sum = isa<arith::AddFOp>(combine);
    extremum = !sum;
    if (extremum && state.tangent(init->get()))
      return op.emitOpError("takes the extremum with a differentiated "
                            "initial value; trellis-grad differentiates only "
                            "the inputs");
  } else if (!reductions.empty()) {
    return op.emitOpError("has reduction loops but does not read its output; "
                          "trellis-grad cannot differentiate it");
  }
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  if (llvm::any_of(loops, ShapedType::isDynamic))
    return op.emitOpError("has dynamic loop sizes; trellis-grad needs static "
                          "ones");

  Value total;
  for (auto [i, input] : llvm::enumerate(op.getDpsInputOperands())) {
    Value t = state.tangent(input->get());
    if (!t || !isFloatTensor(input->get().getType()))
      continue;
    bool zero = false;
    FailureOr<Value> partial =
        buildPartial(op, i, g, fromAcc, loops, state, b, zero);
    if (failed(partial))
      return failure();
    if (zero)
      continue;
    FailureOr<Value> expanded =
        expandToLoops(b, loc, t, op.getMatchingIndexingMap(input), loops, op);
    if (failed(expanded))
      return failure();
    Value term = *expanded;
    auto termType = cast<RankedTensorType>(term.getType());
    if (termType.getElementType() != element) {
      auto to = plainTensor(termType.getShape(), element);
      term = element.getIntOrFloatBitWidth() >
                     termType.getElementType().getIntOrFloatBitWidth()
                 ? Value(arith::ExtFOp::create(b, loc, to, term))
                 : Value(arith::TruncFOp::create(b, loc, to, term));
    }
    term = *partial ? scaleTangent(b, loc, *partial, term) : term;
    total = addTangents(b, loc, total, term);
  }
  if (!total && !(sum && state.tangent(init->get())))
    return success();

  if (total) {
    SmallVector<int64_t> dims(reductions.begin(), reductions.end());
    if (extremum) {
      // The tangent where g equals the result, divided by the number of
      // such points (ties split evenly, as for linalg.reduce).
      bool zero = false;
      FailureOr<Value> values =
          buildPartial(op, -1, g, fromAcc, loops, state, b, zero);
      if (failed(values))
        return failure();
      FailureOr<Value> y =
          expandToLoops(b, loc, state.primal(result),
                        op.getMatchingIndexingMap(init), loops, op);
      if (failed(y))
        return failure();
      Type plain = plainTensor(loops, element);
      Value eq =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, *values, *y);
      Value hits =
          arith::SelectOp::create(b, loc, eq, constantLike(b, loc, plain, 1.0),
                                  constantLike(b, loc, plain, 0.0));
      Value count = sumOver(b, loc, hits, dims);
      count = arith::MaximumFOp::create(
          b, loc, count, constantLike(b, loc, count.getType(), 1.0));
      Value mine =
          arith::SelectOp::create(b, loc, eq, total, zerosOf(b, loc, plain));
      total = arith::DivFOp::create(b, loc, sumOver(b, loc, mine, dims), count);
    } else if (!reductions.empty()) {
      total = sumOver(b, loc, total, dims);
    }
    // Now indexed by the parallel loops in order; the output map names them
    // in its own order.
    SmallVector<unsigned> parallel;
    for (unsigned d = 0; d < loops.size(); ++d)
      if (!llvm::is_contained(reductions, d))
        parallel.push_back(d);
    AffineMap outMap = op.getMatchingIndexingMap(init);
    SmallVector<int64_t> perm;
    for (AffineExpr expr : outMap.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        return op.emitOpError("writes its output through ")
               << AffineMapAttr::get(outMap)
               << "; trellis-grad needs an output map of loop dimensions";
      perm.push_back(llvm::find(parallel, dim.getPosition()) -
                     parallel.begin());
    }
    if (perm.size() != parallel.size())
      return op.emitOpError("has an output map that skips parallel loops");
    if (!llvm::is_sorted(perm)) {
      Value into = emptyTensor(b, loc, resultType.getShape(),
                               resultType.getElementType());
      total =
          linalg::TransposeOp::create(b, loc, total, into, perm).getResult()[0];
    }
  }
  if (sum)
    total = addTangents(b, loc, total, state.tangent(init->get()));
  state.setTangent(result, total);
  return success();
}

/// linalg.generic and the named elementwise ops (whose bodies are the same
/// scalar ops).
template <typename OpTy> using GenericModel = RuleModel<OpTy, genericRule>;

/// linalg.reduce: a sum is linear; max/min pass the tangent where the input
/// equals the result, divided by the number of such places.
LogicalResult reduceRule(Operation *operation, JvpState &state, OpBuilder &b) {
  auto op = cast<linalg::ReduceOp>(operation);
  Block &body = op.getRegion().front();
  Operation *combiner = body.getTerminator()->getOperand(0).getDefiningOp();
  if (op.getNumDpsInputs() != 1 || !combiner ||
      &combiner->getParentRegion()->front() != &body ||
      std::next(body.begin()) != std::prev(body.end()))
    return op.emitOpError("has a combiner trellis-grad has no rule for "
                          "(it differentiates one-input sums, max and min)");
  if (isa<arith::AddFOp>(combiner))
    return linearRule(op, state, b);
  if (!isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
           arith::MinNumFOp>(combiner))
    return op.emitOpError("combines with ")
           << combiner->getName()
           << "; trellis-grad differentiates sums, max and min reductions";
  Location loc = op.getLoc();
  Value x = op.getInputs()[0];
  if (state.tangent(op.getInits()[0]))
    return op.emitOpError("takes the extremum with a differentiated initial "
                          "value; trellis-grad differentiates only the input");
  Value dx = state.tangent(x);
  if (!dx)
    return success();
  auto xType = cast<RankedTensorType>(x.getType());
  Type element = xType.getElementType();
  Value xp = state.primal(x), y = state.primal(op->getResult(0));
  Value yb = linalg::BroadcastOp::create(
                 b, loc, y, emptyTensor(b, loc, xType.getShape(), element),
                 op.getDimensions())
                 .getResult()[0];
  Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, xp, yb);
  Type plain = plainTensor(xType.getShape(), element);
  Value hits =
      arith::SelectOp::create(b, loc, eq, constantLike(b, loc, plain, 1),
                              constantLike(b, loc, plain, 0));
  Value count = sumOver(b, loc, hits, op.getDimensions());
  // An initial value that wins has no input to pass the tangent to.
  count = arith::MaximumFOp::create(b, loc, count,
                                    constantLike(b, loc, count.getType(), 1.0));
  Value mine = arith::SelectOp::create(b, loc, eq, dx, zerosOf(b, loc, plain));
  Value sum = sumOver(b, loc, mine, op.getDimensions());
  state.setTangent(op->getResult(0), arith::DivFOp::create(b, loc, sum, count));
  return success();
}

/// tensor.pad: the tangent is padded with zeros (the padding value does not
/// depend on the source).
LogicalResult padRule(Operation *op, JvpState &state, OpBuilder &b) {
  auto pad = cast<tensor::PadOp>(op);
  Value t = state.tangent(pad.getSource());
  Value padding = pad.getConstantPaddingValue();
  if (!padding)
    return pad.emitOpError("pads with a value computed per position; "
                           "trellis-grad differentiates constant padding");
  if (state.tangent(padding))
    return pad.emitOpError("pads with a differentiated value; trellis-grad "
                           "differentiates the source only");
  if (!t)
    return success();
  Location loc = pad.getLoc();
  auto type = cast<RankedTensorType>(pad.getType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  auto padded = tensor::PadOp::create(
      b, loc, type, t, state.primal(pad.getMixedLowPad()),
      state.primal(pad.getMixedHighPad()), zero, pad.getNofold());
  state.setTangent(pad.getResult(), padded);
  return success();
}

} // namespace

void registerLinalgDerivativeModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    linalg::GenericOp::attachInterface<GenericModel<linalg::GenericOp>>(*ctx);
    linalg::AddOp::attachInterface<GenericModel<linalg::AddOp>>(*ctx);
    linalg::SubOp::attachInterface<GenericModel<linalg::SubOp>>(*ctx);
    linalg::MulOp::attachInterface<GenericModel<linalg::MulOp>>(*ctx);
    linalg::DivOp::attachInterface<GenericModel<linalg::DivOp>>(*ctx);
    linalg::MaxOp::attachInterface<GenericModel<linalg::MaxOp>>(*ctx);
    linalg::MinOp::attachInterface<GenericModel<linalg::MinOp>>(*ctx);
    linalg::ExpOp::attachInterface<GenericModel<linalg::ExpOp>>(*ctx);
    linalg::LogOp::attachInterface<GenericModel<linalg::LogOp>>(*ctx);
    linalg::AbsOp::attachInterface<GenericModel<linalg::AbsOp>>(*ctx);
    linalg::NegFOp::attachInterface<GenericModel<linalg::NegFOp>>(*ctx);
    linalg::SqrtOp::attachInterface<GenericModel<linalg::SqrtOp>>(*ctx);
    linalg::RsqrtOp::attachInterface<GenericModel<linalg::RsqrtOp>>(*ctx);
    linalg::TanhOp::attachInterface<GenericModel<linalg::TanhOp>>(*ctx);
    linalg::ErfOp::attachInterface<GenericModel<linalg::ErfOp>>(*ctx);
    linalg::SquareOp::attachInterface<GenericModel<linalg::SquareOp>>(*ctx);
    linalg::ReciprocalOp::attachInterface<GenericModel<linalg::ReciprocalOp>>(
        *ctx);
    linalg::PowFOp::attachInterface<GenericModel<linalg::PowFOp>>(*ctx);
    linalg::ReduceOp::attachInterface<RuleModel<linalg::ReduceOp, reduceRule>>(
        *ctx);
    linalg::MatmulOp::attachInterface<ContractionModel<linalg::MatmulOp>>(*ctx);
    linalg::BatchMatmulOp::attachInterface<
        ContractionModel<linalg::BatchMatmulOp>>(*ctx);
    linalg::MatvecOp::attachInterface<ContractionModel<linalg::MatvecOp>>(*ctx);
    linalg::VecmatOp::attachInterface<ContractionModel<linalg::VecmatOp>>(*ctx);
    linalg::DotOp::attachInterface<ContractionModel<linalg::DotOp>>(*ctx);
    linalg::TransposeOp::attachInterface<LinearModel<linalg::TransposeOp>>(
        *ctx);
    linalg::BroadcastOp::attachInterface<LinearModel<linalg::BroadcastOp>>(
        *ctx);
    linalg::CopyOp::attachInterface<LinearModel<linalg::CopyOp>>(*ctx);
    linalg::FillOp::attachInterface<RuleModel<linalg::FillOp, constantRule>>(
        *ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, TrellisDialect *) {
    ShardingConstraintOp::attachInterface<LinearModel<ShardingConstraintOp>>(
        *ctx);
    ReshardOp::attachInterface<LinearModel<ReshardOp>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        LinearModel<tensor::ExtractSliceOp>>(*ctx);
    tensor::InsertSliceOp::attachInterface<LinearModel<tensor::InsertSliceOp>>(
        *ctx);
    tensor::ExpandShapeOp::attachInterface<LinearModel<tensor::ExpandShapeOp>>(
        *ctx);
    tensor::CollapseShapeOp::attachInterface<
        LinearModel<tensor::CollapseShapeOp>>(*ctx);
    tensor::ConcatOp::attachInterface<LinearModel<tensor::ConcatOp>>(*ctx);
    tensor::PadOp::attachInterface<RuleModel<tensor::PadOp, padRule>>(*ctx);
  });
}

} // namespace mlir::trellis::autodiff
