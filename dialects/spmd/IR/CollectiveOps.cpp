//===- CollectiveOps.cpp - What each collective means ---------------------===//
//
// The CollectiveOpInterface of every spmd collective: seed 001's variance
// rule, the reduction, the bytes each device sends, and the transpose.
// Passes ask these instead of listing op types.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Runtime/CommCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::spmd;

#include "dialects/spmd/IR/CollectiveOpInterface.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

int64_t mlir::spmd::detail::groupSizeOf(Operation *op,
                                        ArrayRef<StringAttr> axes) {
  std::optional<ManualContext> ctx = getManualContext(op);
  return ctx ? ctx->getGroupSize(axes) : 1;
}

FailureOr<SmallVector<StringAttr>>
VarianceRule::apply(ArrayRef<StringAttr> operandVary, ArrayRef<StringAttr> axes,
                    std::string &reason) const {
  auto varies = [&](StringAttr axis) {
    return llvm::is_contained(operandVary, axis);
  };
  for (StringAttr axis : axes) {
    if (need == Need::Varying && !varies(axis)) {
      reason =
          ("needs an operand that varies over mesh axis \"" + axis.getValue() +
           "\", but it is invariant there; insert "
           "spmd.pvary over it (spmd-check-variance does so "
           "automatically)")
              .str();
      return failure();
    }
    if (need == Need::Invariant && varies(axis)) {
      reason = ("needs an operand that is invariant over mesh axis \"" +
                axis.getValue() + "\", but it already varies there")
                   .str();
      return failure();
    }
  }
  SmallVector<StringAttr> result;
  for (StringAttr axis : operandVary)
    if (effect != Effect::Remove || !llvm::is_contained(axes, axis))
      result.push_back(axis);
  if (effect == Effect::Add)
    for (StringAttr axis : axes)
      if (!llvm::is_contained(result, axis))
        result.push_back(axis);
  return result;
}

namespace {
// The rules the synchronous collectives and their starts share.
constexpr VarianceRule kMovesVarying{VarianceRule::Need::Varying,
                                     VarianceRule::Effect::Keep};
constexpr VarianceRule kReducesVarying{VarianceRule::Need::Varying,
                                       VarianceRule::Effect::Remove};

/// The rule of the synchronous form of `op`, when it is the start of an
/// asynchronous ppermute, all_gather, psum_scatter, psum or all_to_all.
std::optional<VarianceRule> startedVarianceRule(Operation *op) {
  if (isa<PpermuteStartOp>(op))
    return VarianceRule{VarianceRule::Need::Varying,
                        VarianceRule::Effect::Keep};
  if (isa<AllGatherStartOp, PsumScatterStartOp, AllToAllStartOp>(op))
    return kMovesVarying;
  if (isa<PsumStartOp>(op))
    return kReducesVarying;
  return std::nullopt;
}
} // namespace

FailureOr<SmallVector<StringAttr>> mlir::spmd::inferCollectiveVariance(
    Operation *op, ArrayRef<StringAttr> operandVary, std::string &reason) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  if (!collective) {
    reason = "is not a collective";
    return failure();
  }
  std::optional<VarianceRule> rule = collective.getVarianceRule();
  // A start is not typed itself; its future holds what its synchronous
  // form gives.
  if (!rule)
    rule = startedVarianceRule(op);
  if (!rule) {
    reason = "has no variance rule";
    return failure();
  }
  return rule->apply(operandVary, collective.getAxisList(), reason);
}

namespace {
using Need = VarianceRule::Need;
using Effect = VarianceRule::Effect;

/// Bytes of a static tensor, -1 for a dynamic one.
int64_t bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return -1;
  return tensor.getNumElements() *
         trellis::elementBytes(tensor.getElementType());
}

/// Bytes one device sends all-reducing `type` over n devices (CommCost.h);
/// -1 for a dynamic tensor.
int64_t allReduceBytesOf(Type type, int64_t n) {
  int64_t bytes = bytesOf(type);
  return bytes < 0 ? -1 : trellis::rt::allReduceBytes(bytes, n);
}

/// Bytes one device sends in a reduce-scatter or all_to_all of `type`.
int64_t shareBytesOf(Type type, int64_t n) {
  int64_t bytes = bytesOf(type);
  return bytes < 0 ? -1 : trellis::rt::ringShareBytes(bytes, n);
}

/// A gather of a `shard` sends it to every other device of the group: the
/// ring share of the n shards gathered.
int64_t gatherBytesOf(Type shard, int64_t n) {
  int64_t bytes = bytesOf(shard);
  return bytes < 0 ? -1 : trellis::rt::ringShareBytes(bytes * n, n);
}

/// A ppermute sends its payload once, unless every pair is a self-pair.
template <typename OpTy> int64_t permuteBytesOf(OpTy op, Type sent) {
  bool moves = llvm::any_of(
      op.getPairList(), [](auto pair) { return pair.first != pair.second; });
  return trellis::rt::permuteBytes(bytesOf(sent), moves);
}

/// Transposes that divide by the group size need floats.
LogicalResult needFloat(Operation *op, Type type) {
  if (isa<FloatType>(getElementTypeOrSelf(type)))
    return success();
  return op->emitOpError("needs a floating-point element type to be "
                         "transposed (its transpose divides by the group "
                         "size)");
}

} // namespace

Value mlir::spmd::buildDivideBy(OpBuilder &b, Location loc, Value x,
                                int64_t n) {
  auto type = cast<RankedTensorType>(stripVaryEncoding(x.getType()));
  auto splat = DenseElementsAttr::get(
      type, b.getFloatAttr(type.getElementType(), static_cast<double>(n)));
  Value divisor = arith::ConstantOp::create(b, loc, type, splat);
  return arith::DivFOp::create(b, loc, x, divisor);
}

//===----------------------------------------------------------------------===//
// All-reduces
//===----------------------------------------------------------------------===//

#define SPMD_REDUCE_OP(OP, KIND)                                               \
  std::optional<VarianceRule> OP::getVarianceRule() {                          \
    return kReducesVarying;                                                    \
  }                                                                            \
  std::optional<ReductionKind> OP::getReduction() {                            \
    return ReductionKind::KIND;                                                \
  }                                                                            \
  int64_t OP::getBytesSentPerDevice() {                                        \
    return allReduceBytesOf(getOperand().getType(), getGroupSize());           \
  }
SPMD_REDUCE_OP(PsumOp, Sum)
SPMD_REDUCE_OP(PmaxOp, Max)
SPMD_REDUCE_OP(PminOp, Min)
SPMD_REDUCE_OP(PmeanOp, Mean)
#undef SPMD_REDUCE_OP

// Efficient transposes rely on the cotangent being invariant over the axes,
// so they need no communication; naive ones (JAX before variance types)
// reduce again.
FailureOr<Value> PsumOp::buildTranspose(OpBuilder &b, Value cotangent,
                                        Type type, bool naive) {
  if (naive)
    return PsumOp::create(b, getLoc(), type, cotangent, getAxes()).getResult();
  return PvaryOp::create(b, getLoc(), type, cotangent, getAxes()).getResult();
}

FailureOr<Value> PmeanOp::buildTranspose(OpBuilder &b, Value cotangent,
                                         Type type, bool naive) {
  if (failed(needFloat(*this, type)))
    return failure();
  if (naive)
    return PmeanOp::create(b, getLoc(), type, cotangent, getAxes()).getResult();
  Value spread = PvaryOp::create(b, getLoc(), type, cotangent, getAxes());
  return buildDivideBy(b, getLoc(), spread, getGroupSize());
}

FailureOr<Value> PmaxOp::buildTranspose(OpBuilder &, Value, Type, bool) {
  return emitOpError("is not linear; spmd-transpose cannot transpose it");
}

FailureOr<Value> PminOp::buildTranspose(OpBuilder &, Value, Type, bool) {
  return emitOpError("is not linear; spmd-transpose cannot transpose it");
}

//===----------------------------------------------------------------------===//
// pvary
//===----------------------------------------------------------------------===//

std::optional<VarianceRule> PvaryOp::getVarianceRule() {
  return VarianceRule{Need::Invariant, Effect::Add};
}

FailureOr<Value> PvaryOp::buildTranspose(OpBuilder &b, Value cotangent,
                                         Type type, bool naive) {
  // Naive mode represents the cotangent of an invariant value by per-device
  // parts that sum to it, so a pvary transposes to nothing there.
  if (naive)
    return cotangent;
  return PsumOp::create(b, getLoc(), type, cotangent, getAxes()).getResult();
}

//===----------------------------------------------------------------------===//
// Gathers and scatters
//===----------------------------------------------------------------------===//

std::optional<VarianceRule> AllGatherOp::getVarianceRule() {
  return kMovesVarying;
}

int64_t AllGatherOp::getBytesSentPerDevice() {
  return gatherBytesOf(getOperand().getType(), getGroupSize());
}

FailureOr<Value> AllGatherOp::buildTranspose(OpBuilder &b, Value cotangent,
                                             Type type, bool) {
  return PsumScatterOp::create(b, getLoc(), type, cotangent, getAxes(),
                               getDimAttr(), getTiledAttr())
      .getResult();
}

std::optional<VarianceRule> AllGatherInvariantOp::getVarianceRule() {
  return VarianceRule{Need::Varying, Effect::Remove};
}

int64_t AllGatherInvariantOp::getBytesSentPerDevice() {
  return gatherBytesOf(getOperand().getType(), getGroupSize());
}

FailureOr<Value> AllGatherInvariantOp::buildTranspose(OpBuilder &b,
                                                      Value cotangent,
                                                      Type type, bool naive) {
  if (naive)
    return PsumScatterOp::create(b, getLoc(), type, cotangent, getAxes(),
                                 getDimAttr(), getTiledAttr())
        .getResult();
  return PscatterOp::create(b, getLoc(), type, cotangent, getAxes(),
                            getDimAttr(), getTiledAttr())
      .getResult();
}

std::optional<VarianceRule> PsumScatterOp::getVarianceRule() {
  return kMovesVarying;
}

std::optional<ReductionKind> PsumScatterOp::getReduction() {
  return ReductionKind::Sum;
}

int64_t PsumScatterOp::getBytesSentPerDevice() {
  return shareBytesOf(getOperand().getType(), getGroupSize());
}

FailureOr<Value> PsumScatterOp::buildTranspose(OpBuilder &b, Value cotangent,
                                               Type type, bool) {
  return AllGatherOp::create(b, getLoc(), type, cotangent, getAxes(),
                             getDimAttr(), getTiledAttr())
      .getResult();
}

std::optional<VarianceRule> PscatterOp::getVarianceRule() {
  return VarianceRule{Need::Invariant, Effect::Add};
}

FailureOr<Value> PscatterOp::buildTranspose(OpBuilder &b, Value cotangent,
                                            Type type, bool naive) {
  Value gathered = AllGatherInvariantOp::create(
      b, getLoc(), type, cotangent, getAxes(), getDimAttr(), getTiledAttr());
  if (!naive)
    return gathered;
  if (failed(needFloat(*this, type)))
    return failure();
  return buildDivideBy(b, getLoc(), gathered, getGroupSize());
}

//===----------------------------------------------------------------------===//
// all_to_all and the ppermutes
//===----------------------------------------------------------------------===//

std::optional<VarianceRule> AllToAllOp::getVarianceRule() {
  return kMovesVarying;
}

int64_t AllToAllOp::getBytesSentPerDevice() {
  return shareBytesOf(getOperand().getType(), getGroupSize());
}

FailureOr<Value> AllToAllOp::buildTranspose(OpBuilder &b, Value cotangent,
                                            Type type, bool) {
  return AllToAllOp::create(b, getLoc(), type, cotangent, getAxes(),
                            getConcatDimAttr(), getSplitDimAttr())
      .getResult();
}

std::optional<VarianceRule> PpermuteOp::getVarianceRule() {
  return VarianceRule{Need::Varying, Effect::Keep};
}

int64_t PpermuteOp::getBytesSentPerDevice() {
  return permuteBytesOf(*this, getOperand().getType());
}

FailureOr<Value> PpermuteOp::buildTranspose(OpBuilder &b, Value cotangent,
                                            Type type, bool) {
  SmallVector<int64_t> inverse;
  for (auto [source, target] : getPairList()) {
    inverse.push_back(target);
    inverse.push_back(source);
  }
  return PpermuteOp::create(b, getLoc(), type, cotangent, getAxes(),
                            b.getDenseI64ArrayAttr(inverse))
      .getResult();
}

bool mlir::spmd::isCollectiveStart(Operation *op) {
  return isa<PpermuteStartOp, AllGatherStartOp, PsumScatterStartOp, PsumStartOp,
             AllToAllStartOp>(op);
}

Value mlir::spmd::buildCollectiveStart(OpBuilder &b, Operation *collective,
                                       Value operand) {
  Location loc = collective->getLoc();
  auto type =
      FutureType::get(b.getContext(), collective->getResult(0).getType());
  if (auto gather = dyn_cast<AllGatherOp>(collective))
    return AllGatherStartOp::create(b, loc, type, operand, gather.getAxes(),
                                    gather.getDimAttr(), gather.getTiledAttr());
  if (auto scatter = dyn_cast<PsumScatterOp>(collective))
    return PsumScatterStartOp::create(b, loc, type, operand, scatter.getAxes(),
                                      scatter.getDimAttr(),
                                      scatter.getTiledAttr());
  if (auto psum = dyn_cast<PsumOp>(collective))
    return PsumStartOp::create(b, loc, type, operand, psum.getAxes());
  auto allToAll = cast<AllToAllOp>(collective);
  return AllToAllStartOp::create(b, loc, type, operand, allToAll.getAxes(),
                                 allToAll.getSplitDimAttr(),
                                 allToAll.getConcatDimAttr());
}

// A start has no rule of its own (its result is a future, not a tensor):
// spmd-check-variance types the future with its synchronous form's rule
// (startedVarianceRule). A start sends at once; the wait moves nothing.
std::optional<VarianceRule> PpermuteStartOp::getVarianceRule() {
  return std::nullopt;
}

int64_t PpermuteStartOp::getBytesSentPerDevice() {
  return permuteBytesOf(*this, getOperand().getType());
}

// The starts of the other collectives: typed like ppermute_start; each
// sends what its synchronous form sends.
#define SPMD_START_OP(OP, REDUCTION, BYTES)                                    \
  std::optional<VarianceRule> OP::getVarianceRule() { return std::nullopt; }   \
  std::optional<ReductionKind> OP::getReduction() { return REDUCTION; }        \
  int64_t OP::getBytesSentPerDevice() { return BYTES; }
SPMD_START_OP(AllGatherStartOp, std::nullopt,
              gatherBytesOf(getOperand().getType(), getGroupSize()))
SPMD_START_OP(PsumScatterStartOp, ReductionKind::Sum,
              shareBytesOf(getOperand().getType(), getGroupSize()))
SPMD_START_OP(PsumStartOp, ReductionKind::Sum,
              allReduceBytesOf(getOperand().getType(), getGroupSize()))
SPMD_START_OP(AllToAllStartOp, std::nullopt,
              shareBytesOf(getOperand().getType(), getGroupSize()))
#undef SPMD_START_OP

//===----------------------------------------------------------------------===//
// Axis queries
//===----------------------------------------------------------------------===//

std::optional<VarianceRule> AxisIndexOp::getVarianceRule() {
  return VarianceRule{Need::Nothing, Effect::Add};
}

std::optional<VarianceRule> AxisSizeOp::getVarianceRule() {
  return VarianceRule{Need::Nothing, Effect::Keep};
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//
//
// Folds must keep both the value and seed 001's variance of every result,
// in typed IR (types carry #spmd.vary) and in untyped IR (spmd-check-variance
// infers variance later, so a fold that changed it would change what that
// check accepts). Hence:
// * A collective over a group of one device talks to no one, and is the
//   identity where the result has the operand's type. Only collectives that
//   keep the operand's variance fold so (gathers, psum_scatter, all_to_all,
//   ppermute with the self-pair), or ones naming no axes at all: psum over a
//   size-1 axis "a" makes its result invariant over "a", and folding it away
//   would leave a value spmd-check-variance sees as varying there.
// * Reductions of a pvary fold only in typed IR, where the pvary's operand
//   is known to be invariant over the reduced axes. In untyped IR, with
//   check_vma = false, an ill-typed pvary of a varying value is legal, runs
//   as the identity, and psum of it sums different values: folding it to
//   n * x would be a silent wrong answer.
// Every device folds alike (group sizes and types are static), so folding
// cannot make devices disagree on which collectives run.

namespace {
/// Whether `op` works over groups of one device (in manual code only: the
/// group size means nothing elsewhere).
bool hasTrivialGroup(CollectiveOpInterface op) {
  return getManualContext(op) && op.getGroupSize() == 1;
}

/// The operand of a collective that is the identity on a group of one.
OpFoldResult foldTrivialGroup(CollectiveOpInterface op) {
  Value operand = op->getOperand(0);
  if (!hasTrivialGroup(op) || operand.getType() != op->getResult(0).getType())
    return {};
  std::optional<VarianceRule> rule = op.getVarianceRule();
  bool keepsVariance = rule && rule->effect == VarianceRule::Effect::Keep;
  if (!keepsVariance && !op.getAxisList().empty())
    return {};
  return operand;
}

bool sameAxisSet(ArrayRef<StringAttr> a, ArrayRef<StringAttr> b) {
  return a.size() == b.size() && llvm::all_of(a, [&](StringAttr x) {
           return llvm::is_contained(b, x);
         });
}

/// The pvary `reduction` reduces, when the IR is typed and its operand is
/// invariant over the reduced axes, which are the pvary's: then the
/// reduction combines n equal copies of that operand.
PvaryOp reducedPvary(CollectiveOpInterface reduction) {
  auto pvary = reduction->getOperand(0).getDefiningOp<PvaryOp>();
  if (!pvary || !sameAxisSet(pvary.getAxisList(), reduction.getAxisList()) ||
      !getVaryEncoding(pvary.getType()))
    return {};
  Value x = pvary.getOperand();
  if (VaryAttr vary = getVaryEncoding(x.getType()))
    for (StringAttr axis : vary.getAxes())
      if (llvm::is_contained(reduction.getAxisList(), axis))
        return {};
  if (x.getType() != reduction->getResult(0).getType())
    return {};
  return pvary;
}

/// `x` for `reduce(pvary(x, A), A)` when the reduction of n equal copies is
/// the copy (max, min, mean).
OpFoldResult foldReduction(CollectiveOpInterface op) {
  if (OpFoldResult folded = foldTrivialGroup(op))
    return folded;
  std::optional<ReductionKind> kind = op.getReduction();
  if (!kind || *kind == ReductionKind::Sum)
    return {};
  if (PvaryOp pvary = reducedPvary(op))
    return pvary.getOperand();
  return {};
}

/// psum(pvary(x, A), A) = n * x, with n the group size: the n summed
/// copies are equal, so no data need move (seed 001: pvary is free, psum
/// is not). One multiplication rounds once, where a ring sum rounds n - 1
/// times.
struct PsumOfPvary : OpRewritePattern<PsumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PsumOp op,
                                PatternRewriter &rewriter) const override {
    PvaryOp pvary = reducedPvary(op);
    if (!pvary || !getManualContext(op))
      return rewriter.notifyMatchFailure(op, "not a typed psum of a pvary");
    Value x = pvary.getOperand();
    auto type = cast<RankedTensorType>(op.getType());
    Type element = type.getElementType();
    int64_t n = op.getGroupSize();
    Location loc = op.getLoc();
    if (isa<FloatType>(element)) {
      auto splat = DenseElementsAttr::get(
          type, rewriter.getFloatAttr(element, static_cast<double>(n)));
      Value c = arith::ConstantOp::create(rewriter, loc, type, splat);
      rewriter.replaceOpWithNewOp<arith::MulFOp>(op, x, c);
      return success();
    }
    if (element.isSignlessInteger()) {
      auto splat =
          DenseElementsAttr::get(type, rewriter.getIntegerAttr(element, n));
      Value c = arith::ConstantOp::create(rewriter, loc, type, splat);
      rewriter.replaceOpWithNewOp<arith::MulIOp>(op, x, c);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "element type is not float or int");
  }
};
} // namespace

OpFoldResult PsumOp::fold(FoldAdaptor) { return foldReduction(*this); }
OpFoldResult PmaxOp::fold(FoldAdaptor) { return foldReduction(*this); }
OpFoldResult PminOp::fold(FoldAdaptor) { return foldReduction(*this); }
OpFoldResult PmeanOp::fold(FoldAdaptor) { return foldReduction(*this); }

void PsumOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<PsumOfPvary>(context);
}

/// pvary(pvary(x, A), B) = pvary(x, A + B), folded in place.
OpFoldResult PvaryOp::fold(FoldAdaptor) {
  if (OpFoldResult folded = foldTrivialGroup(*this))
    return folded;
  auto inner = getOperand().getDefiningOp<PvaryOp>();
  if (!inner)
    return {};
  SmallVector<Attribute> axes(inner.getAxes().begin(), inner.getAxes().end());
  for (Attribute axis : getAxes())
    if (!llvm::is_contained(axes, axis))
      axes.push_back(axis);
  setAxesAttr(ArrayAttr::get(getContext(), axes));
  getOperandMutable().assign(inner.getOperand());
  return getResult();
}

OpFoldResult AllGatherOp::fold(FoldAdaptor) { return foldTrivialGroup(*this); }
OpFoldResult AllGatherInvariantOp::fold(FoldAdaptor) {
  return foldTrivialGroup(*this);
}
OpFoldResult PsumScatterOp::fold(FoldAdaptor) {
  return foldTrivialGroup(*this);
}
OpFoldResult PscatterOp::fold(FoldAdaptor) { return foldTrivialGroup(*this); }
OpFoldResult AllToAllOp::fold(FoldAdaptor) { return foldTrivialGroup(*this); }

/// On a group of one, only the self-pair [0, 0] keeps the value; with no
/// pair the device receives zeros.
OpFoldResult PpermuteOp::fold(FoldAdaptor) {
  if (getPairList().empty())
    return {};
  return foldTrivialGroup(*this);
}

OpFoldResult AxisSizeOp::fold(FoldAdaptor) {
  if (!getManualContext(*this))
    return {};
  return IntegerAttr::get(getType(), getGroupSize());
}

/// The index in a group of no axes is 0. (Over size-1 axes it is 0 too,
/// but the result varies over them, and a constant would not.)
OpFoldResult AxisIndexOp::fold(FoldAdaptor) {
  if (!hasTrivialGroup(*this) || !getAxes().empty())
    return {};
  return IntegerAttr::get(getType(), 0);
}
