//===- Transpose.cpp - Transpose linear functions (seed 001) --------------===//
//
// Builds t(f) for a function f that is linear in its arguments (all but
// those marked `spmd.nonlinear`): t(f) takes the non-linear arguments and
// one cotangent per result and returns one cotangent per linear argument,
// so that <t(f)(w, y), x> = <y, f(w, x)>.
//
// Per block: values are split into linear ones (those that depend on linear
// inputs) and the rest. The rest is copied forward into the new block
// ("forward" values); linear ops are then visited in reverse, each turning
// the cotangents of its results into contributions to the cotangents of its
// linear operands. The collectives transpose per seed 001's table; a
// shard_map transposes into a shard_map with its specs swapped, and needs no
// rescaling where the device-variance types prove an output invariant. The
// naive mode reproduces the transposition JAX used before those types.
//
// The primal is typed (spmd-check-variance) on a temporary copy first; the
// result is built on plain tensor types and typed again at the end, which
// also inserts the pvarys that the new program needs.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/spmd/Transforms/ArithBuilders.h"
#include "dialects/spmd/Transforms/Passes.h"
#include "dialects/spmd/Transforms/VarianceInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDTRANSPOSE
#include "dialects/spmd/Transforms/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

constexpr StringLiteral kTransposeAttr = SpmdDialect::kTransposeAttrName;
constexpr StringLiteral kNonlinearAttr = SpmdDialect::kNonlinearAttrName;

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

bool isFloat(Type type) { return isa<FloatType>(getElementTypeOrSelf(type)); }

Value zeros(OpBuilder &b, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(stripVaryEncoding(type));
  Type element = tensor.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(), element);
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value negate(OpBuilder &b, Location loc, Value x) {
  if (isFloat(x.getType()))
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, zeros(b, loc, x.getType()), x);
}

/// `x / n` elementwise (floats only).
ArrayAttr axesAttr(OpBuilder &b, ArrayRef<StringAttr> axes) {
  return b.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));
}

/// Whether `v` is statically all zeros (through pvarys).
bool isZero(Value v) {
  while (auto pvary = v.getDefiningOp<PvaryOp>())
    v = pvary.getOperand();
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
           matchPattern(fill.getInputs()[0], m_Zero());
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

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

//===----------------------------------------------------------------------===//
// Transposer
//===----------------------------------------------------------------------===//

/// Per-block state.
struct Scope {
  /// Primal non-linear values to their copies in the new program.
  IRMapping fwd;
  /// Primal linear values to their accumulated cotangents.
  DenseMap<Value, Value> ct;
};

class Transposer {
public:
  explicit Transposer(bool naive) : naive(naive) {}

  /// Builds the transpose of `primal` (a typed function) as `name`, inserted
  /// with `b`.
  FailureOr<func::FuncOp> run(func::FuncOp primal, StringRef name,
                              OpBuilder &b);

private:
  bool isLinear(Value v) const { return linear.contains(v); }

  /// Linear values captured by `op`'s regions (defined outside `op`).
  SetVector<Value> capturedLinear(Operation *op) const {
    SetVector<Value> found;
    op->walk([&](Operation *inner) {
      if (inner == op)
        return;
      for (Value operand : inner->getOperands())
        if (isLinear(operand) &&
            !op->isAncestor(operand.getParentRegion()->getParentOp()))
          found.insert(operand);
    });
    return found;
  }

  /// Whether `op` reads a linear value (a linalg op's init counts only when
  /// its payload reads it).
  bool readsLinear(Operation *op) const {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    for (OpOperand &operand : op->getOpOperands())
      if (isLinear(operand.get()) &&
          (!linalgOp || !linalgOp.isDpsInit(&operand) ||
           linalgOp.payloadUsesValueFromOperand(&operand)))
        return true;
    return op->getNumRegions() && !capturedLinear(op).empty();
  }

  bool touchesLinear(Operation *op) const {
    return llvm::any_of(op->getResults(),
                        [&](Value v) { return isLinear(v); }) ||
           readsLinear(op);
  }

  LogicalResult analyzeBlock(Block &block);
  LogicalResult analyzeOp(Operation *op);

  LogicalResult cloneForward(Block &block, Scope &s, OpBuilder &b);
  LogicalResult transposeBackward(Block &block, Scope &s, OpBuilder &b);
  LogicalResult transposeOp(Operation *op, Scope &s, OpBuilder &b);

  Value fwd(Scope &s, Value v) { return s.fwd.lookupOrNull(v); }
  OpFoldResult fwd(Scope &s, OpFoldResult ofr) {
    if (auto v = dyn_cast<Value>(ofr))
      return fwd(s, v);
    return ofr;
  }
  SmallVector<OpFoldResult> fwd(Scope &s, ArrayRef<OpFoldResult> list) {
    return llvm::map_to_vector(list,
                               [&](OpFoldResult ofr) { return fwd(s, ofr); });
  }
  void accumulate(Scope &s, OpBuilder &b, Location loc, Value primal,
                  Value contribution) {
    Value &slot = s.ct[primal];
    slot = slot ? buildAdd(b, loc, slot, contribution) : contribution;
  }
  /// A non-linear operand of a linear op must be zero (else the function is
  /// affine, not linear).
  LogicalResult requireZero(Operation *op, unsigned operand) {
    if (isZero(op->getOperand(operand)))
      return success();
    return op->emitOpError("combines linear values with operand #")
           << operand
           << ", which does not depend on the linear arguments and is not "
              "zero: the function is affine, not linear";
  }

  LogicalResult buildBody(func::FuncOp primal, func::FuncOp t,
                          ArrayRef<unsigned> nonlinearArgs,
                          ArrayRef<unsigned> linearArgs);
  LogicalResult transposeContraction(linalg::LinalgOp op, Scope &s,
                                     OpBuilder &b);
  LogicalResult transposeCollective(CollectiveOpInterface op, Scope &s,
                                    OpBuilder &b);
  LogicalResult transposeShardMap(ShardMapOp map, Scope &s, OpBuilder &b);
  LogicalResult transposeFor(scf::ForOp loop, Scope &s, OpBuilder &b);

  bool naive;
  DenseSet<Value> linear;
};

LogicalResult Transposer::analyzeBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(analyzeOp(&op)))
      return failure();
  return success();
}

LogicalResult Transposer::analyzeOp(Operation *op) {
  if (auto map = dyn_cast<ShardMapOp>(op)) {
    for (auto [operand, arg] :
         llvm::zip(map.getInputs(), map.getBodyBlock().getArguments()))
      if (isLinear(operand))
        linear.insert(arg);
    if (failed(analyzeBlock(map.getBodyBlock())))
      return failure();
    bool anyLinear = false;
    for (auto [result, value] :
         llvm::zip(map.getResults(),
                   map.getBodyBlock().getTerminator()->getOperands()))
      if (isLinear(value)) {
        linear.insert(result);
        anyLinear = true;
      }
    // Its non-linear outputs would have to be computed forward, by a
    // shard_map that also computes the linear ones.
    if (anyLinear)
      for (auto [j, result] : llvm::enumerate(map.getResults()))
        if (!isLinear(result) && !result.use_empty())
          return map.emitOpError("output #")
                 << j
                 << " does not depend on the linear arguments but is used, "
                    "while other outputs do; spmd-transpose needs the used "
                    "outputs of such a shard_map to be all linear (split it)";
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    while (true) {
      for (auto [init, arg] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
        if (isLinear(init))
          linear.insert(arg);
      if (failed(analyzeBlock(*loop.getBody())))
        return failure();
      bool changed = false;
      for (auto [value, arg] :
           llvm::zip(yield.getOperands(), loop.getRegionIterArgs()))
        if (isLinear(value) && !isLinear(arg)) {
          linear.insert(arg);
          changed = true;
        }
      if (!changed)
        break;
    }
    bool anyLinear = llvm::any_of(loop.getRegionIterArgs(),
                                  [&](Value v) { return isLinear(v); });
    for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (isLinear(arg))
        linear.insert(loop.getResult(k));
      else if (anyLinear)
        return loop.emitOpError("carries value #")
               << k
               << ", which does not depend on the linear arguments, beside "
                  "linear ones; spmd-transpose transposes loops whose "
                  "carried values are all linear";
    }
    return success();
  }
  // An init that a linalg payload does not read (fill, transpose,
  // broadcast, a generic that overwrites) does not make the result linear.
  if (readsLinear(op))
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        return op->emitOpError(
                   "computes a non-tensor value from the linear arguments; ")
               << "spmd-transpose transposes functions that are linear in "
                  "tensors";
      if (!type.hasStaticShape())
        return op->emitOpError("computes a dynamically shaped value from the "
                               "linear arguments; spmd-transpose needs static "
                               "shapes");
      linear.insert(result);
    }
  return success();
}

LogicalResult Transposer::cloneForward(Block &block, Scope &s, OpBuilder &b) {
  for (Operation &op : block.without_terminator()) {
    if (touchesLinear(&op))
      continue;
    // A linalg op may overwrite a linear init without reading it (a fill);
    // its copy writes into a fresh tensor instead.
    IRMapping local = s.fwd;
    for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
      if (!isLinear(operand)) {
        if (!s.fwd.contains(operand))
          return op.emitOpError("operand #")
                 << i
                 << " does not depend on the linear arguments but is "
                    "computed by an op that spmd-transpose transposes; it "
                    "cannot be recomputed forward";
        continue;
      }
      auto type = cast<RankedTensorType>(stripVaryEncoding(operand.getType()));
      local.map(operand,
                tensor::EmptyOp::create(b, op.getLoc(), type.getShape(),
                                        type.getElementType()));
    }
    Operation *copy = b.clone(op, local);
    for (auto [old, now] : llvm::zip(op.getResults(), copy->getResults()))
      s.fwd.map(old, now);
  }
  return success();
}

LogicalResult Transposer::transposeBackward(Block &block, Scope &s,
                                            OpBuilder &b) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    if (touchesLinear(&op))
      ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    // A result with no cotangent contributes nothing.
    if (llvm::none_of(op->getResults(), [&](Value v) { return s.ct.count(v); }))
      continue;
    if (failed(transposeOp(op, s, b)))
      return failure();
  }
  return success();
}

LogicalResult Transposer::transposeOp(Operation *op, Scope &s, OpBuilder &b) {
  Location loc = op->getLoc();
  // Every non-linear operand must have been computed forward.
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (!isLinear(operand) && !s.fwd.contains(operand))
      return op->emitOpError("operand #")
             << i
             << " does not depend on the linear arguments but is computed "
                "by an op that spmd-transpose transposes; it cannot be "
                "recomputed forward";
  auto linearOperand = [&](unsigned i) { return isLinear(op->getOperand(i)); };
  Value c = op->getNumResults() ? s.ct.lookup(op->getResult(0)) : Value();

  if (isa<arith::AddFOp, arith::AddIOp>(op)) {
    for (unsigned i = 0; i < 2; ++i) {
      if (linearOperand(i))
        accumulate(s, b, loc, op->getOperand(i), c);
      else if (failed(requireZero(op, i)))
        return failure();
    }
    return success();
  }
  if (isa<arith::SubFOp, arith::SubIOp>(op)) {
    if (linearOperand(0))
      accumulate(s, b, loc, op->getOperand(0), c);
    else if (failed(requireZero(op, 0)))
      return failure();
    if (linearOperand(1))
      accumulate(s, b, loc, op->getOperand(1), negate(b, loc, c));
    else if (failed(requireZero(op, 1)))
      return failure();
    return success();
  }
  if (auto neg = dyn_cast<arith::NegFOp>(op)) {
    accumulate(s, b, loc, neg.getOperand(), negate(b, loc, c));
    return success();
  }
  if (isa<arith::MulFOp, arith::MulIOp>(op)) {
    if (linearOperand(0) && linearOperand(1))
      return op->emitOpError("multiplies two linear values: the function is "
                             "not linear");
    unsigned l = linearOperand(0) ? 0 : 1;
    accumulate(s, b, loc, op->getOperand(l),
               mul(b, loc, c, fwd(s, op->getOperand(1 - l))));
    return success();
  }
  if (auto div = dyn_cast<arith::DivFOp>(op)) {
    if (linearOperand(1))
      return op->emitOpError("divides by a linear value: the function is not "
                             "linear");
    accumulate(s, b, loc, div.getLhs(),
               arith::DivFOp::create(b, loc, c, fwd(s, div.getRhs())));
    return success();
  }

  // Structured ops.
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    Value input = transpose.getInput();
    SmallVector<int64_t> inverse(transpose.getPermutation().size());
    for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
      inverse[p] = i;
    auto type = cast<RankedTensorType>(stripVaryEncoding(input.getType()));
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    Value t =
        linalg::TransposeOp::create(b, loc, c, empty, inverse).getResult()[0];
    accumulate(s, b, loc, input, t);
    return success();
  }
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    Value input = broadcast.getInput();
    Value init = s.ct.lookup(input);
    if (!init)
      init = zeros(b, loc, input.getType());
    auto reduce = linalg::ReduceOp::create(
        b, loc, ValueRange{c}, ValueRange{init}, broadcast.getDimensions(),
        [](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(nb, l, buildAdd(nb, l, args[0], args[1]));
        });
    s.ct[input] = reduce.getResult(0);
    return success();
  }
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op)) {
    if (reduce.getInputs().size() != 1 || !isAddCombiner(reduce.getRegion()))
      return op->emitOpError("is not a sum over one input; spmd-transpose "
                             "transposes sum reductions only");
    Value input = reduce.getInputs()[0];
    Value init = reduce.getInits()[0];
    if (isLinear(input)) {
      auto type = cast<RankedTensorType>(stripVaryEncoding(input.getType()));
      Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                            type.getElementType());
      Value spread =
          linalg::BroadcastOp::create(b, loc, c, empty, reduce.getDimensions())
              .getResult()[0];
      accumulate(s, b, loc, input, spread);
    }
    if (isLinear(init))
      accumulate(s, b, loc, init, c);
    else if (failed(requireZero(op, 1)))
      return failure();
    return success();
  }
  if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    accumulate(s, b, loc, copy.getInputs()[0], c);
    return success();
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (linalg::isaContractionOpInterface(linalgOp))
      return transposeContraction(linalgOp, s, b);
    return op->emitOpError(
        "is linear in its operands but is not a contraction; "
        "spmd-transpose transposes linalg contractions (matmul, generic "
        "mul-add), transpose, broadcast, sum reductions and copies");
  }

  // Tensor ops.
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
    Value source = extract.getSource();
    Value into = zeros(b, loc, source.getType());
    Value inserted = tensor::InsertSliceOp::create(
        b, loc, c, into, fwd(s, extract.getMixedOffsets()),
        fwd(s, extract.getMixedSizes()), fwd(s, extract.getMixedStrides()));
    accumulate(s, b, loc, source, inserted);
    return success();
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    SmallVector<OpFoldResult> offsets = fwd(s, insert.getMixedOffsets());
    SmallVector<OpFoldResult> sizes = fwd(s, insert.getMixedSizes());
    SmallVector<OpFoldResult> strides = fwd(s, insert.getMixedStrides());
    if (isLinear(insert.getSource())) {
      auto type = cast<RankedTensorType>(
          stripVaryEncoding(insert.getSource().getType()));
      Value slice = tensor::ExtractSliceOp::create(b, loc, type, c, offsets,
                                                   sizes, strides);
      accumulate(s, b, loc, insert.getSource(), slice);
    } else if (failed(requireZero(op, 0))) {
      return failure();
    }
    if (isLinear(insert.getDest())) {
      Value hole = zeros(b, loc, insert.getSource().getType());
      Value rest = tensor::InsertSliceOp::create(b, loc, hole, c, offsets,
                                                 sizes, strides);
      accumulate(s, b, loc, insert.getDest(), rest);
    } else if (failed(requireZero(op, 1))) {
      return failure();
    }
    return success();
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    Value collapsed = tensor::CollapseShapeOp::create(
        b, loc, stripVaryEncoding(expand.getSrc().getType()), c,
        expand.getReassociationIndices());
    accumulate(s, b, loc, expand.getSrc(), collapsed);
    return success();
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    Value expanded = tensor::ExpandShapeOp::create(
        b, loc, stripVaryEncoding(collapse.getSrc().getType()), c,
        collapse.getReassociationIndices());
    accumulate(s, b, loc, collapse.getSrc(), expanded);
    return success();
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
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
      } else if (failed(requireZero(op, i))) {
        return failure();
      }
      offset += type.getDimSize(dim);
    }
    return success();
  }

  // Typed collectives (the asynchronous halves are not: they come later).
  if (auto collective = dyn_cast<CollectiveOpInterface>(op))
    if (op->getNumOperands() == 1 && collective.getVarianceRule())
      return transposeCollective(collective, s, b);
  if (auto map = dyn_cast<ShardMapOp>(op))
    return transposeShardMap(map, s, b);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return transposeFor(loop, s, b);

  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (isLinear(operand))
      return op->emitOpError("takes linear operand #")
             << i
             << ", but spmd-transpose has no rule to transpose it (it may "
                "not be linear)";
  return op->emitOpError("uses linear values in its regions, but "
                         "spmd-transpose has no rule to transpose it");
}

LogicalResult Transposer::transposeContraction(linalg::LinalgOp op, Scope &s,
                                               OpBuilder &b) {
  Location loc = op.getLoc();
  Value c = s.ct.lookup(op->getResult(0));
  OpOperand *in0 = op.getDpsInputOperand(0);
  OpOperand *in1 = op.getDpsInputOperand(1);
  OpOperand *init = op.getDpsInitOperand(0);
  bool l0 = isLinear(in0->get()), l1 = isLinear(in1->get());
  if (l0 && l1)
    return op->emitOpError("multiplies two linear values: the function is not "
                           "linear");
  if (isLinear(init->get()))
    accumulate(s, b, loc, init->get(), c);
  else if (failed(requireZero(op, init->getOperandNumber())))
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

  Value acc = s.ct.lookup(lin->get());
  if (!acc)
    acc = zeros(b, loc, lin->get().getType());
  Value weights = fwd(s, other->get());
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
    s.ct[lin->get()] = matmul.getResult(0);
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
  s.ct[lin->get()] = generic.getResult(0);
  return success();
}

LogicalResult Transposer::transposeCollective(CollectiveOpInterface op,
                                              Scope &s, OpBuilder &b) {
  Value operand = op->getOperand(0);
  Value c = s.ct.lookup(op->getResult(0));
  FailureOr<Value> t =
      op.buildTranspose(b, c, stripVaryEncoding(operand.getType()), naive);
  if (failed(t))
    return failure();
  accumulate(s, b, op.getLoc(), operand, *t);
  return success();
}

LogicalResult Transposer::transposeShardMap(ShardMapOp map, Scope &s,
                                            OpBuilder &b) {
  Location loc = map.getLoc();
  Block &body = map.getBodyBlock();
  Operation *yield = body.getTerminator();
  trellis::MeshOp mesh = map.getMeshOp();
  SmallVector<StringAttr> own = map.getOwnManualAxes();

  SmallVector<Value> inputs;
  SmallVector<Attribute> inSpecs, outSpecs;
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<unsigned> nonlinearArgs, cotangentResults, linearArgs;
  for (auto [k, operand] : llvm::enumerate(map.getInputs())) {
    if (isLinear(operand)) {
      linearArgs.push_back(k);
      resultTypes.push_back(stripVaryEncoding(operand.getType()));
      outSpecs.push_back(map.getInSpecs()[k]);
      continue;
    }
    nonlinearArgs.push_back(k);
    inputs.push_back(fwd(s, operand));
    inSpecs.push_back(map.getInSpecs()[k]);
    argTypes.push_back(stripVaryEncoding(body.getArgument(k).getType()));
  }
  for (auto [j, result] : llvm::enumerate(map.getResults())) {
    Value c = s.ct.lookup(result);
    if (!c)
      continue;
    cotangentResults.push_back(j);
    inputs.push_back(c);
    inSpecs.push_back(map.getOutSpecs()[j]);
    argTypes.push_back(stripVaryEncoding(yield->getOperand(j).getType()));
  }
  if (linearArgs.empty())
    return success();

  auto t = ShardMapOp::create(b, loc, resultTypes, map.getMeshAttr(),
                              b.getArrayAttr(inSpecs), b.getArrayAttr(outSpecs),
                              map.getManualAxesAttr(), map.getCheckVmaAttr(),
                              inputs);
  auto *block = new Block();
  t.getBody().push_back(block);
  for (Type type : argTypes)
    block->addArgument(type, loc);
  OpBuilder inner = OpBuilder::atBlockBegin(block);
  Scope is;
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    is.fwd.map(body.getArgument(k), block->getArgument(idx));
  if (failed(cloneForward(body, is, inner)))
    return failure();

  // Cotangents of the outputs. An output spec that omits axis `a` means one
  // copy of the (equal) blocks is the result; one that maps an axis the
  // value is invariant over makes copies of it.
  for (auto [idx, j] : llvm::enumerate(cotangentResults)) {
    Value yielded = yield->getOperand(j); // linear: its result has a ct
    Value c = block->getArgument(nonlinearArgs.size() + idx);
    SmallVector<StringAttr> vary;
    if (VaryAttr attr = getVaryEncoding(yielded.getType()))
      vary = llvm::to_vector(attr.getAxes());
    SmallVector<StringAttr> mapped =
        cast<trellis::SpecAttr>(map.getOutSpecs()[j]).getAllAxes();
    SmallVector<StringAttr> divide, copies;
    for (StringAttr axis : own) {
      bool isMapped = llvm::is_contained(mapped, axis);
      bool varies = llvm::is_contained(vary, axis);
      // Naive: divide by every unmapped axis (today's JAX). Efficient: only
      // where the types cannot prove the blocks equal (check_vma = false).
      if (!isMapped && (naive || varies))
        divide.push_back(axis);
      if (isMapped && !varies)
        copies.push_back(axis);
    }
    if (!divide.empty()) {
      if (!isFloat(c.getType()))
        return map.emitOpError("output #")
               << j
               << " needs rescaling to be transposed, which needs a "
                  "floating-point element type";
      c = buildDivideBy(inner, loc, c, mesh.getAxesSize(divide));
    }
    // The copies' cotangents add up (in naive mode the per-device parts
    // stand for their sum already).
    if (!copies.empty() && !naive)
      c = PsumOp::create(inner, loc, c.getType(), c, axesAttr(inner, copies));
    accumulate(is, inner, loc, yielded, c);
  }

  if (failed(transposeBackward(body, is, inner)))
    return failure();

  SmallVector<Value> results;
  for (unsigned k : linearArgs) {
    BlockArgument arg = body.getArgument(k);
    Value c = is.ct.lookup(arg);
    if (!c)
      c = zeros(inner, loc, arg.getType());
    if (naive) {
      // Per-device parts of an input's cotangent along axes it is not split
      // over are summed (today's JAX psums unmapped inputs' cotangents).
      SmallVector<StringAttr> mapped =
          cast<trellis::SpecAttr>(map.getInSpecs()[k]).getAllAxes();
      SmallVector<StringAttr> unmapped;
      for (StringAttr axis : own)
        if (!llvm::is_contained(mapped, axis))
          unmapped.push_back(axis);
      if (!unmapped.empty())
        c = PsumOp::create(inner, loc, c.getType(), c,
                           axesAttr(inner, unmapped));
    }
    results.push_back(c);
  }
  YieldOp::create(inner, loc, results);

  for (auto [idx, k] : llvm::enumerate(linearArgs))
    accumulate(s, b, loc, map.getInputs()[k], t.getResult(idx));
  return success();
}

LogicalResult Transposer::transposeFor(scf::ForOp loop, Scope &s,
                                       OpBuilder &b) {
  Location loc = loop.getLoc();
  SetVector<Value> captured = capturedLinear(loop);
  unsigned numCarried = loop.getNumRegionIterArgs();

  // Iteration k of the new loop runs iteration n-1-k of the old one.
  Value lb = fwd(s, loop.getLowerBound());
  Value ub = fwd(s, loop.getUpperBound());
  Value step = fwd(s, loop.getStep());
  Type it = lb.getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, 0));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, 1));
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value count = arith::CeilDivSIOp::create(b, loc, span, step);

  SmallVector<Value> inits;
  for (auto [k, result] : llvm::enumerate(loop.getResults())) {
    Value c = s.ct.lookup(result);
    inits.push_back(c ? c : zeros(b, loc, result.getType()));
  }
  for (Value value : captured)
    inits.push_back(zeros(b, loc, value.getType()));

  LogicalResult status = success();
  auto t = scf::ForOp::create(
      b, loc, zero, count, one, inits,
      [&](OpBuilder &nb, Location l, Value k, ValueRange args) {
        Value last = arith::SubIOp::create(nb, l, count, one);
        Value rev = arith::SubIOp::create(nb, l, last, k);
        Value offset = arith::MulIOp::create(nb, l, rev, step);
        Value iv = arith::AddIOp::create(nb, l, lb, offset);
        Scope child;
        child.fwd = s.fwd;
        child.fwd.map(loop.getInductionVar(), iv);
        Block *body = loop.getBody();
        if (failed(cloneForward(*body, child, nb))) {
          status = failure();
          return;
        }
        Operation *yield = body->getTerminator();
        for (auto [j, value] : llvm::enumerate(yield->getOperands())) {
          if (isLinear(value))
            accumulate(child, nb, l, value, args[j]);
          else if (!isZero(value)) {
            status = yield->emitOpError("yields value #")
                     << j
                     << ", which does not depend on the linear arguments, "
                        "as a linear loop-carried value: the loop is affine, "
                        "not linear";
            return;
          }
        }
        if (failed(transposeBackward(*body, child, nb))) {
          status = failure();
          return;
        }
        SmallVector<Value> next;
        for (BlockArgument arg : loop.getRegionIterArgs()) {
          Value c = child.ct.lookup(arg);
          next.push_back(c ? c : zeros(nb, l, arg.getType()));
        }
        for (auto [j, value] : llvm::enumerate(captured)) {
          Value acc = args[numCarried + j];
          Value c = child.ct.lookup(value);
          next.push_back(c ? buildAdd(nb, l, acc, c) : acc);
        }
        scf::YieldOp::create(nb, l, next);
      });
  if (failed(status))
    return failure();

  for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
    if (isLinear(init))
      accumulate(s, b, loc, init, t.getResult(k));
    else if (!isZero(init))
      return loop.emitOpError("starts linear loop-carried value #")
             << k
             << " from a value that does not depend on the linear "
                "arguments and is not zero: the loop is affine, not linear";
  }
  for (auto [j, value] : llvm::enumerate(captured))
    accumulate(s, b, loc, value, t.getResult(numCarried + j));
  return success();
}

FailureOr<func::FuncOp> Transposer::run(func::FuncOp primal, StringRef name,
                                        OpBuilder &b) {
  if (primal.isExternal())
    return primal.emitOpError("has no body to transpose");
  if (!primal.getBody().hasOneBlock())
    return primal.emitOpError("has more than one block; spmd-transpose "
                              "transposes single-block functions");
  Block &body = primal.getBody().front();
  SmallVector<unsigned> nonlinearArgs, linearArgs;
  for (BlockArgument arg : body.getArguments()) {
    if (primal.getArgAttr(arg.getArgNumber(), kNonlinearAttr)) {
      nonlinearArgs.push_back(arg.getArgNumber());
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return primal.emitOpError("argument #")
             << arg.getArgNumber()
             << " is not a statically shaped tensor; spmd-transpose needs "
                "one for every linear argument (mark others spmd.nonlinear)";
    linearArgs.push_back(arg.getArgNumber());
    linear.insert(arg);
  }
  if (failed(analyzeBlock(body)))
    return failure();

  SmallVector<Type> inputs, results;
  for (unsigned k : nonlinearArgs)
    inputs.push_back(body.getArgument(k).getType());
  for (Type type : primal.getResultTypes())
    inputs.push_back(type);
  for (unsigned k : linearArgs)
    results.push_back(body.getArgument(k).getType());
  auto t = func::FuncOp::create(b, primal.getLoc(), name,
                                b.getFunctionType(inputs, results));
  for (StringRef attr :
       {SpmdDialect::kMeshAttrName, SpmdDialect::kManualAxesAttrName})
    if (Attribute value = primal->getAttr(attr))
      t->setAttr(attr, value);
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    if (DictionaryAttr attrs = primal.getArgAttrDict(k))
      cast<FunctionOpInterface>(t.getOperation()).setArgAttrs(idx, attrs);
  if (failed(buildBody(primal, t, nonlinearArgs, linearArgs))) {
    t.erase();
    return failure();
  }
  return t;
}

LogicalResult Transposer::buildBody(func::FuncOp primal, func::FuncOp t,
                                    ArrayRef<unsigned> nonlinearArgs,
                                    ArrayRef<unsigned> linearArgs) {
  Block &body = primal.getBody().front();
  Block *entry = t.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockBegin(entry);
  Scope s;
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    s.fwd.map(body.getArgument(k), entry->getArgument(idx));
  if (failed(cloneForward(body, s, fb)))
    return failure();
  Operation *ret = body.getTerminator();
  for (auto [j, value] : llvm::enumerate(ret->getOperands())) {
    if (!isLinear(value))
      return primal.emitOpError("result #")
             << j << " does not depend on the linear arguments";
    accumulate(s, fb, primal.getLoc(), value,
               entry->getArgument(nonlinearArgs.size() + j));
  }
  if (failed(transposeBackward(body, s, fb)))
    return failure();
  SmallVector<Value> cotangents;
  for (unsigned k : linearArgs) {
    Value c = s.ct.lookup(body.getArgument(k));
    cotangents.push_back(
        c ? c : zeros(fb, primal.getLoc(), body.getArgument(k).getType()));
  }
  func::ReturnOp::create(fb, primal.getLoc(), cotangents);
  return success();
}

/// Drops `#spmd.vary` from every type inside `func`'s body (but not from its
/// arguments when `keepArguments`) and from constants.
void stripVarianceInside(func::FuncOp func, bool keepArguments) {
  func.walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      result.setType(stripVaryEncoding(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!(keepArguments && &block == &func.getBody().front()))
          for (BlockArgument arg : block.getArguments())
            arg.setType(stripVaryEncoding(arg.getType()));
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        constant.setValueAttr(dense.reshape(
            cast<ShapedType>(stripVaryEncoding(dense.getType()))));
  });
  if (!keepArguments)
    for (BlockArgument arg : func.getArguments())
      arg.setType(stripVaryEncoding(arg.getType()));
  Block &entry = func.getBody().front();
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 entry.getTerminator()->getOperandTypes()));
}

/// Erases ops without uses or side effects (collectives stay).
void eraseDeadOps(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    func.walk([&](Operation *op) {
      if (op != func && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead))
      if (isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
  }
}

struct TransposePass : spmd::impl::SpmdTransposeBase<TransposePass> {
  using SpmdTransposeBase::SpmdTransposeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> todo;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kTransposeAttr) ||
          llvm::is_contained(funcs, func.getSymName()))
        todo.push_back(func);
    for (const std::string &name : funcs)
      if (!symbols.lookup<func::FuncOp>(name)) {
        module.emitError() << "spmd-transpose: no function named @" << name;
        return signalPassFailure();
      }
    for (func::FuncOp func : todo) {
      // A marked function whose transpose exists was transposed by an
      // earlier run (the marker stays on the input).
      if (!llvm::is_contained(funcs, func.getSymName()) &&
          symbols.lookup((func.getSymName() + suffix).str()))
        continue;
      if (failed(transpose(func, symbols)))
        return signalPassFailure();
    }
  }

  LogicalResult transpose(func::FuncOp primal, SymbolTable &symbols) {
    std::string name = (primal.getSymName() + suffix).str();
    if (symbols.lookup(name))
      return primal.emitOpError("cannot be transposed into @")
             << name << ": that symbol exists already";
    bool device = primal->hasAttr(SpmdDialect::kMeshAttrName);

    // Type a copy of the primal: the rules read the variance of outputs.
    OpBuilder b(primal);
    auto typed = cast<func::FuncOp>(b.clone(*primal));
    symbols.insert(typed);
    VarianceOptions options;
    LogicalResult ok = device ? inferVariance(typed, options)
                              : inferVarianceIn(typed, options);
    FailureOr<func::FuncOp> t = failure();
    if (succeeded(ok)) {
      b.setInsertionPointAfter(primal);
      Transposer transposer(naive);
      t = transposer.run(typed, name, b);
    }
    symbols.erase(typed);
    if (failed(t))
      return failure();
    symbols.insert(*t);
    (*t)->removeAttr(kTransposeAttr);

    // Forward values that only the skipped (zero-cotangent) parts needed.
    eraseDeadOps(*t);
    // Type the result from scratch: this inserts the pvarys it needs and
    // checks it like any program.
    stripVarianceInside(*t, /*keepArguments=*/device);
    LogicalResult typedResult =
        device ? inferVariance(*t, options) : inferVarianceIn(*t, options);
    if (failed(typedResult))
      return (*t)->emitOpError("(the transpose of @")
             << primal.getSymName()
             << ") fails the variance check; this is a bug in spmd-transpose";
    return success();
  }
};

} // namespace
