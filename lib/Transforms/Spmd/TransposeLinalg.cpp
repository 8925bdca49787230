//===- TransposeLinalg.cpp - Transposes of linalg ops ---------------------===//
//
// spmd-transpose's rules for linalg ops: a transpose by the inverse
// permutation, a broadcast by a sum and a sum by a broadcast, a copy by
// itself, and a contraction by the contraction of the cotangent with the
// non-linear operand (a matmul stays a matmul), and any other generic that
// is linear in some inputs by a generic that scatters the cotangent back
// through each one's indexing map. The first four are TransposeOpInterface
// models; contractions and generics are any linalg op the driver finds
// without one.
//
//===----------------------------------------------------------------------===//

#include "dialects/trellis/IR/LinalgUtils.h"
#include "lib/Transforms/Spmd/Transposer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace mlir::spmd::transpose {

namespace {

/// Whether `region` is a reduction combiner `yield(a + b)` of its two
/// arguments.
bool isAddCombiner(Region &region) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return false;
  Operation &op = block.front();
  if (!isa<arith::AddFOp, arith::AddIOp>(op))
    return false;
  llvm::SmallDenseSet<Value> args(block.getArguments().begin(),
                                  block.getArguments().end());
  return args.contains(op.getOperand(0)) && args.contains(op.getOperand(1)) &&
         op.getOperand(0) != op.getOperand(1) &&
         block.getTerminator()->getOperand(0) == op.getResult(0);
}

} // namespace

static LogicalResult transposeLinalgTranspose(linalg::TransposeOp transpose,
                                              TransposeState &state, Value c,
                                              OpBuilder &b) {
  Location loc = transpose.getLoc();
  Value input = transpose.getInput();
  SmallVector<int64_t> inverse(transpose.getPermutation().size());
  for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
    inverse[p] = i;
  auto type = cast<RankedTensorType>(stripVaryEncoding(input.getType()));
  Value empty = tensor::EmptyOp::create(
      b, loc, type.getShape(), type.getElementType(), type.getEncoding());
  Value t =
      linalg::TransposeOp::create(b, loc, c, empty, inverse).getResult()[0];
  state.accumulate(b, loc, input, t);
  return success();
}

static LogicalResult transposeBroadcast(linalg::BroadcastOp broadcast,
                                        TransposeState &state, Value c,
                                        OpBuilder &b) {
  Location loc = broadcast.getLoc();
  Value input = broadcast.getInput();
  Value init = state.cotangent(input);
  if (!init)
    init = reductionZeros(b, loc, input.getType(), c);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{c}, ValueRange{init}, broadcast.getDimensions(),
      [](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, buildAdd(nb, l, args[0], args[1]));
      });
  state.setCotangent(input, reduce.getResult(0));
  return success();
}

static LogicalResult transposeReduce(linalg::ReduceOp reduce,
                                     TransposeState &state, Value c,
                                     OpBuilder &b) {
  Location loc = reduce.getLoc();
  if (reduce.getInputs().size() != 1 || !isAddCombiner(reduce.getRegion()))
    return reduce->emitOpError("is not a sum over one input; spmd-transpose "
                               "transposes sum reductions only");
  Value input = reduce.getInputs()[0];
  Value init = reduce.getInits()[0];
  if (state.isLinear(input)) {
    auto type = cast<RankedTensorType>(stripVaryEncoding(input.getType()));
    Value empty = tensor::EmptyOp::create(
        b, loc, type.getShape(), type.getElementType(), type.getEncoding());
    Value spread =
        linalg::BroadcastOp::create(b, loc, c, empty, reduce.getDimensions())
            .getResult()[0];
    state.accumulate(b, loc, input, spread);
  }
  if (state.isLinear(init))
    state.accumulate(b, loc, init, c);
  else if (failed(state.requireZero(reduce, 1)))
    return failure();
  return success();
}

static LogicalResult transposeCopy(linalg::CopyOp copy, TransposeState &state,
                                   Value c, OpBuilder &b) {
  state.accumulate(b, copy.getLoc(), copy.getInputs()[0], c);
  return success();
}

static LogicalResult transposeContraction(linalg::LinalgOp op,
                                          TransposeState &state, OpBuilder &b) {
  Location loc = op.getLoc();
  Value c = state.cotangent(op->getResult(0));
  OpOperand *in0 = op.getDpsInputOperand(0);
  OpOperand *in1 = op.getDpsInputOperand(1);
  OpOperand *init = op.getDpsInitOperand(0);
  bool l0 = state.isLinear(in0->get()), l1 = state.isLinear(in1->get());
  if (l0 && l1)
    return op->emitOpError("multiplies two linear values: the function is not "
                           "linear");
  if (state.isLinear(init->get()))
    state.accumulate(b, loc, init->get(), c);
  else if (failed(state.requireZero(op, init->getOperandNumber())))
    return failure();
  if (!l0 && !l1)
    return success();
  OpOperand *lin = l0 ? in0 : in1;
  OpOperand *other = l0 ? in1 : in0;
  Type element = getElementTypeOrSelf(lin->get().getType());
  if (getElementTypeOrSelf(other->get().getType()) != element ||
      getElementTypeOrSelf(init->get().getType()) != element)
    return op->emitOpError("mixes element types; spmd-transpose transposes "
                           "contractions on one element type");
  AffineMap mapL = op.getMatchingIndexingMap(lin);
  AffineMap mapN = op.getMatchingIndexingMap(other);
  // (isaContractionOpInterface guarantees projected permutations.)
  AffineMap mapO = op.getMatchingIndexingMap(init);

  // Renumber the loops: the linear operand's dimensions first (they are the
  // new output), then the others in order.
  unsigned n = op.getNumLoops();
  SmallVector<unsigned> order;
  for (AffineExpr e : mapL.getResults())
    order.push_back(cast<AffineDimExpr>(e).getPosition());
  for (unsigned d = 0; d < n; ++d)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  SmallVector<AffineExpr> rename(n);
  for (auto [pos, old] : llvm::enumerate(order))
    rename[old] = b.getAffineDimExpr(pos);
  auto renamed = [&](AffineMap m) {
    return m.replaceDimsAndSymbols(rename, {}, n, 0);
  };
  AffineMap outMap = renamed(mapL), ctMap = renamed(mapO),
            otherMap = renamed(mapN);
  unsigned outRank = mapL.getNumResults();

  Value acc = state.cotangent(lin->get());
  Value weights = state.forward(other->get());
  if (!acc)
    acc = reductionZeros(b, loc, lin->get().getType(), {c, weights});
  Type resultType = stripVaryEncoding(lin->get().getType());

  // A plain matrix product (possibly with transposed operands) stays a
  // linalg.matmul, so that transposing twice gives back the original op.
  auto hasDim = [&](AffineMap m, unsigned d) {
    return llvm::any_of(m.getResults(), [&](AffineExpr e) {
      return cast<AffineDimExpr>(e).getPosition() == d;
    });
  };
  if (n == 3 && outRank == 2 && ctMap.getNumResults() == 2 &&
      otherMap.getNumResults() == 2 && hasDim(ctMap, 2) &&
      hasDim(otherMap, 2) && (hasDim(ctMap, 0) != hasDim(otherMap, 0)) &&
      (hasDim(ctMap, 1) != hasDim(otherMap, 1)) &&
      hasDim(ctMap, 0) != hasDim(ctMap, 1)) {
    bool ctFirst = hasDim(ctMap, 0);
    Value lhs = ctFirst ? c : weights, rhs = ctFirst ? weights : c;
    AffineMap lhsMap = ctFirst ? ctMap : otherMap;
    AffineMap rhsMap = ctFirst ? otherMap : ctMap;
    auto matmul = linalg::MatmulOp::create(
        b, loc, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{acc});
    SmallVector<AffineMap> maps = {lhsMap, rhsMap, outMap};
    ArrayAttr mapsAttr = b.getAffineMapArrayAttr(maps);
    if (!linalg::MatmulOp::isDefaultIndexingMaps(mapsAttr))
      matmul.setIndexingMapsAttr(mapsAttr);
    state.setCotangent(lin->get(), matmul.getResult(0));
    return success();
  }

  SmallVector<utils::IteratorType> iterators;
  for (unsigned d = 0; d < n; ++d)
    iterators.push_back(d < outRank ? utils::IteratorType::parallel
                                    : utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{c, weights}, ValueRange{acc},
      ArrayRef<AffineMap>{ctMap, otherMap, outMap}, iterators,
      [](OpBuilder &nb, Location l, ValueRange args) {
        Value product = mul(nb, l, args[0], args[1]);
        linalg::YieldOp::create(nb, l, buildAdd(nb, l, args[2], product));
      });
  state.setCotangent(lin->get(), generic.getResult(0));
  return success();
}

namespace {

/// How a scalar of a linalg.generic body depends on the linear inputs.
enum class Degree { Constant, Linear, Bad };

/// Classifies the scalars of a generic's body: Linear where they are
/// homogeneous of degree one in the linear inputs' scalars (sums of linear
/// terms, products and quotients with constant factors, selects on
/// constant conditions, conversions), Constant where they read none, Bad
/// otherwise (a product of two linear values, a linear value plus a
/// constant, a non-linear function of one).
struct BodyDegrees {
  DenseMap<Value, Degree> degree;

  Degree of(Value v) const { return degree.lookup(v); }

  void run(Block &body) {
    for (Operation &op : body.without_terminator()) {
      Degree d = Degree::Constant;
      bool anyLinear = false, anyBad = false;
      for (Value operand : op.getOperands()) {
        anyLinear |= of(operand) == Degree::Linear;
        anyBad |= of(operand) == Degree::Bad;
      }
      // A linear or bad value used inside the op's regions: not modelled.
      op.walk([&](Operation *inner) {
        if (inner != &op)
          for (Value v : inner->getOperands())
            anyBad |= of(v) != Degree::Constant;
      });
      if (anyBad) {
        d = Degree::Bad;
      } else if (!anyLinear) {
        d = Degree::Constant;
      } else if (isa<arith::AddFOp, arith::SubFOp>(op)) {
        // Both linear, or one linear and the other a constant zero.
        bool ok = true;
        for (Value operand : op.getOperands())
          ok &= of(operand) == Degree::Linear || isZero(operand);
        d = ok ? Degree::Linear : Degree::Bad;
      } else if (isa<arith::MulFOp>(op)) {
        d = of(op.getOperand(0)) == Degree::Linear &&
                    of(op.getOperand(1)) == Degree::Linear
                ? Degree::Bad
                : Degree::Linear;
      } else if (isa<arith::DivFOp>(op)) {
        d = of(op.getOperand(1)) == Degree::Linear ? Degree::Bad
                                                   : Degree::Linear;
      } else if (isa<arith::NegFOp, arith::ExtFOp, arith::TruncFOp>(op)) {
        d = Degree::Linear;
      } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
        bool ok = of(select.getCondition()) == Degree::Constant;
        for (Value branch : {select.getTrueValue(), select.getFalseValue()})
          ok &= of(branch) == Degree::Linear || isZero(branch);
        d = ok ? Degree::Linear : Degree::Bad;
      } else {
        d = Degree::Bad;
      }
      for (Value result : op.getResults())
        degree[result] = d;
    }
  }
};

} // namespace

/// A linalg.generic linear in some inputs: each output element is a linear
/// expression of the linear inputs' elements with coefficients computed
/// from the non-linear ones, written into the output (a map) or added to
/// it over reduction loops (`yield acc + g`). The cotangent of linear
/// input L at element i is the sum, over the loop points that read i, of
/// the output's cotangent times the coefficient of L there: a generic with
/// L's indexing map as output, every other loop a reduction, and the body
/// evaluated with L's scalar set to 1 and the other linear ones to 0.
static LogicalResult transposeLinearGeneric(linalg::GenericOp op,
                                            TransposeState &state,
                                            OpBuilder &b) {
  Location loc = op.getLoc();
  if (op.getNumDpsInits() != 1 || op.getNumResults() != 1)
    return op->emitOpError("is a linalg.generic with several outputs; "
                           "spmd-transpose transposes generics with one");
  Block &body = op.getRegion().front();
  OpOperand *init = op.getDpsInitOperand(0);
  BlockArgument acc = op.getMatchingBlockArgument(init);
  Value yielded = body.getTerminator()->getOperand(0);
  Value c = state.cotangent(op->getResult(0));

  // The value added to the output (a sum) or written (a map).
  Value term = yielded;
  bool sum = false;
  if (!acc.use_empty()) {
    auto add = yielded.getDefiningOp<arith::AddFOp>();
    if (!add || add->getBlock() != &body ||
        !llvm::is_contained(add->getOperands(), acc) ||
        add.getLhs() == add.getRhs() || !acc.hasOneUse())
      return op->emitOpError(
          "reads its output other than by adding to it; spmd-transpose "
          "transposes generics that write or sum into their output");
    term = add.getLhs() == acc ? add.getRhs() : add.getLhs();
    sum = true;
  }
  BodyDegrees degrees;
  for (OpOperand *input : op.getDpsInputOperands())
    degrees.degree[op.getMatchingBlockArgument(input)] =
        state.isLinear(input->get()) ? Degree::Linear : Degree::Constant;
  degrees.degree[acc] = Degree::Bad;
  // Linear values the body reads from outside (a scalar extracted from a
  // linear tensor) are not inputs: not modelled.
  body.walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (!op->isAncestor(v.getParentRegion()->getParentOp()) &&
          state.isLinear(v))
        degrees.degree[v] = Degree::Bad;
  });
  degrees.run(body);
  if (degrees.of(term) != Degree::Linear)
    return op->emitOpError(
        "computes its result from the linear values other than linearly "
        "(a product of two of them, a constant added, or a non-linear "
        "function of one): the function is not linear");
  if (!isa<FloatType>(getElementTypeOrSelf(c.getType())))
    return op->emitOpError("is a linear generic on integers; spmd-transpose "
                           "transposes floating-point ones");

  // The output's own cotangent: a sum passes it to a linear init; a map
  // overwrites the init.
  if (sum) {
    if (state.isLinear(init->get()))
      state.accumulate(b, loc, init->get(), c);
    else if (failed(state.requireZero(op, init->getOperandNumber())))
      return failure();
  }

  AffineMap outMap = op.getMatchingIndexingMap(init);
  unsigned numLoops = op.getNumLoops();
  // A map (the output not read) must write each element once: with a loop
  // its output map drops, the last write wins and the others' inputs get
  // no cotangent.
  if (!sum && !outMap.isPermutation())
    return op->emitOpError("overwrites output elements over loops its output "
                           "map drops (the last write wins); spmd-transpose "
                           "transposes maps that write each element once");
  // Every loop of the transposed generic needs a bound from one of its
  // operands: the cotangent, the non-linear inputs or the linear input.
  for (OpOperand *lin : op.getDpsInputOperands()) {
    if (!state.isLinear(lin->get()))
      continue;
    llvm::SmallBitVector bound(numLoops);
    auto mark = [&](AffineMap map) {
      for (AffineExpr e : map.getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          bound.set(dim.getPosition());
    };
    mark(outMap);
    mark(op.getMatchingIndexingMap(lin));
    for (OpOperand *input : op.getDpsInputOperands())
      if (!state.isLinear(input->get()))
        mark(op.getMatchingIndexingMap(input));
    if (!bound.all())
      return op->emitOpError("has a loop that only another linear operand "
                             "than #")
             << lin->getOperandNumber()
             << " indexes; spmd-transpose cannot bound it in the transpose";
  }
  for (OpOperand *lin : op.getDpsInputOperands()) {
    if (!state.isLinear(lin->get()))
      continue;
    AffineMap linMap = op.getMatchingIndexingMap(lin);
    if (!linMap.isProjectedPermutation())
      return op->emitOpError("reads linear operand #")
             << lin->getOperandNumber()
             << " through an indexing map that is not a projected "
                "permutation; spmd-transpose cannot scatter its cotangent";
    SmallVector<Value> ins = {c};
    SmallVector<AffineMap> maps = {outMap};
    SmallVector<OpOperand *> nonlinear;
    for (OpOperand *input : op.getDpsInputOperands())
      if (!state.isLinear(input->get())) {
        nonlinear.push_back(input);
        ins.push_back(state.forward(input->get()));
        maps.push_back(op.getMatchingIndexingMap(input));
      }
    maps.push_back(linMap);
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::reduction);
    for (AffineExpr e : linMap.getResults())
      iterators[cast<AffineDimExpr>(e).getPosition()] =
          utils::IteratorType::parallel;
    Value into = state.cotangent(lin->get());
    if (!into)
      into = reductionZeros(b, loc, lin->get().getType(), ins);
    auto t = linalg::GenericOp::create(
        b, loc, TypeRange{into.getType()}, ins, ValueRange{into}, maps,
        iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
          IRMapping m;
          // Values the body reads from outside: their forward copies.
          body.walk([&](Operation *inner) {
            for (Value v : inner->getOperands())
              if (!op->isAncestor(v.getParentRegion()->getParentOp()))
                if (Value f = state.forward(v))
                  m.map(v, f);
          });
          for (auto [idx, input] : llvm::enumerate(nonlinear))
            m.map(op.getMatchingBlockArgument(input), args[1 + idx]);
          for (OpOperand *input : op.getDpsInputOperands()) {
            if (!state.isLinear(input->get()))
              continue;
            BlockArgument arg = op.getMatchingBlockArgument(input);
            double one = input == lin ? 1.0 : 0.0;
            m.map(arg, arith::ConstantOp::create(
                           nb, l, nb.getFloatAttr(arg.getType(), one)));
          }
          for (Operation &inner : body.without_terminator())
            if (llvm::none_of(inner.getResults(), [&](Value r) {
                  return degrees.of(r) == Degree::Bad;
                }))
              nb.clone(inner, m);
          Value coefficient = m.lookup(term);
          Value scaled = arith::MulFOp::create(nb, l, args[0], coefficient);
          // The input's element type may differ from the output's (a body
          // that converts it).
          auto want = cast<FloatType>(args.back().getType());
          auto have = cast<FloatType>(scaled.getType());
          if (have.getWidth() > want.getWidth())
            scaled = arith::TruncFOp::create(nb, l, want, scaled);
          else if (have != want)
            scaled = arith::ExtFOp::create(nb, l, want, scaled);
          linalg::YieldOp::create(nb, l, buildAdd(nb, l, args.back(), scaled));
        });
    state.setCotangent(lin->get(), t.getResult(0));
  }
  return success();
}

LogicalResult transposeLinalg(linalg::LinalgOp op, TransposeState &state,
                              OpBuilder &b) {
  if (trellis::isPlainContraction(op))
    return transposeContraction(op, state, b);
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return transposeLinearGeneric(generic, state, b);
  return op->emitOpError(
      "is linear in its operands but is not a contraction; "
      "spmd-transpose transposes linalg contractions (matmul, generic "
      "mul-add), linear generics, transpose, broadcast, sum reductions and "
      "copies");
}

void registerLinalgTransposeModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    linalg::TransposeOp::attachInterface<
        RuleModel<linalg::TransposeOp, transposeLinalgTranspose>>(*ctx);
    linalg::BroadcastOp::attachInterface<
        RuleModel<linalg::BroadcastOp, transposeBroadcast>>(*ctx);
    linalg::ReduceOp::attachInterface<
        RuleModel<linalg::ReduceOp, transposeReduce>>(*ctx);
    linalg::CopyOp::attachInterface<RuleModel<linalg::CopyOp, transposeCopy>>(
        *ctx);
  });
}

} // namespace mlir::spmd::transpose
