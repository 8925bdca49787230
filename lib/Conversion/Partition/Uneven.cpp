//===- Uneven.cpp - Factors split over axes that do not divide them -------===//
//
// A factor of size N split over axes of size k that do not divide it is
// split as the next multiple of k: each device holds ceil(N / k) entries,
// the last devices' blocks ending in padding whose values are unspecified
// (elementwise ops compute garbage there; nothing reads it into a valid
// entry). The Resharder pads on the way in and cuts the padding off when a
// dimension is gathered. What remains is for the ops:
//
//   - a dimension holding several factors (a reshape) would interleave the
//     padding with data: such factors are only split evenly; a window's
//     loop (a shifted slice x[1:], a valid convolution) is split unevenly
//     only when each device's window starts in its own block of an evenly
//     split, unpadded source (its padded outputs then read past the
//     source's end, which the halo fills with zeros);
//   - a reduction over a split factor must not combine the padding: a
//     contraction whose inputs all hold the factor has them zeroed there
//     (0 * 0 adds nothing), any other structured op is made a
//     linalg.generic whose payload keeps its accumulator at padded
//     iterations;
//   - ops that could trap or index out of bounds on padding (integer
//     division, tensor.extract in a payload) and element types without a
//     zero are not split unevenly.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "dialects/trellis/IR/LinalgUtils.h"
#include "dialects/trellis/IR/TrellisDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

/// Whether `op` computes on the padding in a way that is not inert: it
/// pads with zeros of its element type (none for other types), and an
/// integer division, or an index read from a tensor, on padding could trap
/// or read out of bounds where the program itself never would.
static bool padsSafely(Operation *op) {
  auto padded = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor || Resharder::hasZero(tensor.getElementType());
  };
  if (!llvm::all_of(op->getOperandTypes(), padded) ||
      !llvm::all_of(op->getResultTypes(), padded))
    return false;
  WalkResult unsafe = op->walk([](Operation *inner) {
    return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
               arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp,
               tensor::ExtractOp>(inner)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return !unsafe.wasInterrupted();
}

SmallVector<bool> FunctionPartitioner::unevenFactors(Operation *op,
                                                     const ShardingRule &rule) {
  const int64_t numFactors = rule.numFactors();
  SmallVector<bool> allowed(numFactors, padsSafely(op));
  for (int64_t f = 0; f < numFactors; ++f)
    if (ShapedType::isDynamic(rule.factorSizes[f]))
      allowed[f] = false;
  auto compound = [&](ArrayRef<ValueFactors> values) {
    for (const ValueFactors &value : values)
      for (const DimFactors &factors : value)
        if (factors.size() > 1)
          for (int64_t f : factors)
            allowed[f] = false;
  };
  compound(rule.operands);
  compound(rule.results);
  // A window's loop is split unevenly only where its source is not padded
  // (a pad's padding would be read as data); windowsFitUnevenly decides
  // with the axes.
  for (const WindowDim &window : rule.windows)
    if (op->getOperand(window.operand).getDefiningOp<tensor::PadOp>())
      allowed[window.factor] = false;
  // Reductions are masked in structured ops only; an op under a declared
  // rule computes whatever its blocks hold.
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  bool maskable = linalgOp && !op->hasAttr(TrellisDialect::kRuleAttrName) &&
                  linalgOp.hasPureTensorSemantics();
  for (int64_t f = 0; f < numFactors; ++f)
    if (rule.isReduction(f) && !maskable)
      allowed[f] = false;
  return allowed;
}

bool FunctionPartitioner::windowsFitUnevenly(Operation *op,
                                             const ShardingRule &rule,
                                             int64_t f, int64_t parts) {
  // Each device's window then starts in its own block of the source,
  // split into as many even blocks: the halo comes from the next device,
  // and the last device's padded outputs read past the source's end
  // (zeros; their values are unspecified anyway).
  int64_t block = llvm::divideCeil(rule.factorSizes[f], parts);
  return llvm::all_of(rule.windows, [&](const WindowDim &window) {
    if (window.factor != f)
      return true;
    int64_t extent =
        cast<RankedTensorType>(op->getOperand(window.operand).getType())
            .getDimSize(window.dim);
    return !ShapedType::isDynamic(extent) && extent % parts == 0 &&
           extent / parts == window.stride * block;
  });
}

/// Where the padding of split factor `f` starts in this device's block:
/// the factor's size minus the block's offset (at most 0 on a device
/// holding only padding).
static Value paddingStart(OpBuilder &b, Location loc, MeshOp mesh,
                          const ShardingRule &rule, ArrayRef<StringAttr> axes,
                          int64_t f) {
  int64_t extent = rule.factorSizes[f];
  int64_t block = llvm::divideCeil(extent, mesh.getAxesSize(axes));
  SmallVector<Attribute> names(axes.begin(), axes.end());
  Value index = spmd::AxisIndexOp::create(b, loc, b.getIndexType(),
                                          b.getArrayAttr(names));
  Value offset = arith::MulIOp::create(
      b, loc, index, arith::ConstantIndexOp::create(b, loc, block));
  return arith::SubIOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, extent), offset);
}

/// Whether loop index `dim` of the enclosing structured op is below
/// `limit`, built at `b`'s insertion point.
static Value below(OpBuilder &b, Location loc, int64_t dim, Value limit) {
  Value index = linalg::IndexOp::create(b, loc, dim);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, limit);
}

/// `v` with the entries at index `limit` and beyond along `dim` zeroed.
static Value zeroBeyond(OpBuilder &b, Location loc, Value v, int64_t dim,
                        Value limit) {
  auto type = cast<RankedTensorType>(v.getType());
  Type element = type.getElementType();
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  // `v` is its own destination (its shape, dynamic sizes included).
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{v}, ValueRange{v},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value zero = arith::ConstantOp::create(
            nb, nloc, cast<TypedAttr>(nb.getZeroAttr(element)));
        Value keep = below(nb, nloc, dim, limit);
        linalg::YieldOp::create(
            nb, nloc,
            ValueRange{arith::SelectOp::create(nb, nloc, keep, args[0], zero)});
      });
  return generic.getResult(0);
}

FailureOr<SmallVector<std::pair<int64_t, Value>>>
FunctionPartitioner::maskPaddedReductions(Operation *op,
                                          const ShardingRule &rule,
                                          const FactorAxes &factorAxes,
                                          SmallVector<Value> &operands) {
  SmallVector<std::pair<int64_t, Value>> limits;
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    if (!rule.isReduction(f) || factorAxes[f].empty() ||
        ShapedType::isDynamic(rule.factorSizes[f]) ||
        rule.factorSizes[f] % mesh.getAxesSize(factorAxes[f]) == 0)
      continue;
    limits.push_back(
        {f, paddingStart(b, op->getLoc(), mesh, rule, factorAxes[f], f)});
  }
  if (limits.empty())
    return limits;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return op->emitOpError("reduces over a dimension split unevenly, which "
                           "only structured (linalg) ops can mask");
  // A contraction whose every input holds each padded reduction factor
  // has its inputs zeroed past its end: every padded product is 0 * 0
  // (with an input that does not hold it, 0 * Inf would be NaN). Any
  // other op's payload masks them.
  auto holds = [&](int64_t k, int64_t f) {
    return llvm::any_of(rule.operands[k], [&](const DimFactors &factors) {
      return factors.size() == 1 && factors[0] == f;
    });
  };
  // (Only a product of the inputs, perhaps extended: a body like
  // acc + exp(a) * exp(b) does not vanish on zeros.)
  bool zeroInputs =
      trellis::isPlainContraction(linalgOp, /*allowExtensions=*/true);
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    for (auto [f, limit] : limits)
      zeroInputs &= holds(input->getOperandNumber(), f);
  if (!zeroInputs)
    return limits;
  for (auto [k, dims] : llvm::enumerate(rule.operands)) {
    if (linalgOp.isDpsInit(&op->getOpOperand(k)))
      continue;
    for (auto [d, factors] : llvm::enumerate(dims))
      for (auto [f, limit] : limits)
        if (factors.size() == 1 && factors[0] == f)
          operands[k] = zeroBeyond(b, op->getLoc(), operands[k], d, limit);
  }
  return SmallVector<std::pair<int64_t, Value>>();
}

FailureOr<SmallVector<Value>>
FunctionPartitioner::maskPayload(Operation *local,
                                 ArrayRef<std::pair<int64_t, Value>> limits) {
  auto linalgOp = cast<linalg::LinalgOp>(local);
  auto generic = dyn_cast<linalg::GenericOp>(local);
  if (!generic) {
    IRRewriter rewriter(b);
    rewriter.setInsertionPoint(local);
    FailureOr<linalg::GenericOp> general =
        linalg::generalizeNamedOp(rewriter, linalgOp);
    if (failed(general))
      return local->emitOpError("reduces over a dimension split unevenly and "
                                "cannot be made a linalg.generic to mask it");
    generic = *general;
  }
  // At a padded iteration, each output keeps what it has accumulated.
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  OpBuilder nb(yield);
  Location loc = generic.getLoc();
  Value valid;
  for (auto [f, limit] : limits) {
    Value inRange = below(nb, loc, f, limit);
    valid = valid ? arith::AndIOp::create(nb, loc, valid, inRange).getResult()
                  : inRange;
  }
  unsigned firstOutput = generic.getNumDpsInputs();
  for (auto [j, yielded] : llvm::enumerate(yield.getValues()))
    yield->setOperand(
        j, arith::SelectOp::create(nb, loc, valid, yielded,
                                   body.getArgument(firstOutput + j)));
  return llvm::to_vector_of<Value>(generic->getResults());
}
