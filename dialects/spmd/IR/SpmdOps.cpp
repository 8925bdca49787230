//===- SpmdOps.cpp - The ops of the spmd dialect but shard_map ------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::spmd;
using trellis::MeshOp;
using trellis::SpecAttr;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `T` when the operand and result types are equal, `T1 -> T2` otherwise
/// (they differ only in their variance encoding).
static ParseResult parseArrowType(OpAsmParser &parser, Type &operandType,
                                  Type &resultType) {
  if (parser.parseType(operandType))
    return failure();
  resultType = operandType;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(resultType);
  return success();
}

static void printArrowType(OpAsmPrinter &printer, Operation *, Type operandType,
                           Type resultType) {
  printer << operandType;
  if (resultType != operandType)
    printer << " -> " << resultType;
}

/// `[[0, 1], [1, 2]]` stored flat as [0, 1, 1, 2].
static ParseResult parsePairs(OpAsmParser &parser, DenseI64ArrayAttr &pairs) {
  SmallVector<int64_t> flat;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t source, target;
            if (parser.parseLSquare() || parser.parseInteger(source) ||
                parser.parseComma() || parser.parseInteger(target) ||
                parser.parseRSquare())
              return failure();
            flat.push_back(source);
            flat.push_back(target);
            return success();
          }))
    return failure();
  pairs = parser.getBuilder().getDenseI64ArrayAttr(flat);
  return success();
}

static void printPairs(OpAsmPrinter &printer, Operation *,
                       DenseI64ArrayAttr pairs) {
  printer << '[';
  ArrayRef<int64_t> flat = pairs.asArrayRef();
  llvm::interleaveComma(
      llvm::seq<size_t>(0, flat.size() / 2), printer, [&](size_t i) {
        printer << '[' << flat[2 * i] << ", " << flat[2 * i + 1] << ']';
      });
  printer << ']';
}

#define GET_OP_CLASSES
#include "dialects/spmd/IR/SpmdOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static SmallVector<StringAttr> toAxes(ArrayAttr attr) {
  return llvm::to_vector(attr.getAsRange<StringAttr>());
}

std::string mlir::spmd::formatAxisSet(ArrayRef<StringAttr> axes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '{';
  llvm::interleaveComma(axes, os, [&](StringAttr axis) {
    os << trellis::quoteAxisName(axis.getValue());
  });
  os << '}';
  return text;
}

std::string mlir::spmd::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
  os << ']';
  return text;
}

/// Checks the axes of a collective: it sits in a manual region, and each
/// axis exists, is manual there and is listed once. Returns the context.
static FailureOr<ManualContext> verifyCollectiveAxes(Operation *op,
                                                     ArrayAttr axesAttr) {
  std::optional<ManualContext> ctx = getManualContext(op);
  if (!ctx) {
    // A shard_map checks its mesh only in verifySymbolUses, after its body:
    // say why there is no context rather than that there is no shard_map.
    if (auto map = op->getParentOfType<ShardMapOp>())
      return op->emitOpError("is inside a spmd.shard_map that names unknown "
                             "mesh ")
             << map.getMeshAttr();
    return op->emitOpError(
        "must be inside the body of a spmd.shard_map (or a device function "
        "outlined from one)");
  }
  llvm::SmallDenseSet<StringAttr> seen;
  for (StringAttr axis : axesAttr.getAsRange<StringAttr>()) {
    if (!ctx->mesh.getAxisIndex(axis.getValue()))
      return op->emitOpError("names unknown mesh axis \"")
             << axis.getValue() << "\" (mesh @" << ctx->mesh.getSymName()
             << " has axes " << ctx->mesh.getAxisNames() << ")";
    if (!seen.insert(axis).second)
      return op->emitOpError("lists mesh axis \"")
             << axis.getValue() << "\" twice";
    if (!ctx->isManual(axis))
      return op->emitOpError("names mesh axis \"")
             << axis.getValue() << "\", which is not manual here (manual axes: "
             << formatAxisSet(ctx->manualAxes) << ")";
  }
  return *ctx;
}

static LogicalResult verifySameElementType(Operation *op, Type a, Type b) {
  if (getElementTypeOrSelf(a) != getElementTypeOrSelf(b))
    return op->emitOpError("operand element type ")
           << getElementTypeOrSelf(a) << " differs from result element type "
           << getElementTypeOrSelf(b);
  return success();
}

/// When both the operand and the result carry `#spmd.vary`, checks seed
/// 001's typing rule.
static LogicalResult verifyVarianceTypes(Operation *op, Type operandType,
                                         Type resultType) {
  VaryAttr in = getVaryEncoding(operandType);
  VaryAttr out = getVaryEncoding(resultType);
  if (!in || !out)
    return success();
  std::string reason;
  FailureOr<SmallVector<StringAttr>> expected =
      inferCollectiveVariance(op, in.getAxes(), reason);
  if (failed(expected))
    return op->emitOpError() << reason;
  llvm::SmallDenseSet<StringAttr> want(expected->begin(), expected->end());
  llvm::SmallDenseSet<StringAttr> have(out.getAxes().begin(),
                                       out.getAxes().end());
  if (want != have)
    return op->emitOpError("result varies over ")
           << formatAxisSet(out.getAxes()) << " but must vary over "
           << formatAxisSet(*expected);
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// Ops whose result has the operand's shape and element type.
static LogicalResult verifyShapePreserving(Operation *op, ArrayAttr axes,
                                           Type operandType, Type resultType) {
  if (failed(verifyCollectiveAxes(op, axes)))
    return failure();
  auto in = cast<RankedTensorType>(operandType);
  auto out = cast<RankedTensorType>(resultType);
  if (in.getShape() != out.getShape() ||
      in.getElementType() != out.getElementType())
    return op->emitOpError("result type ")
           << out << " must have the shape and element type of the operand "
           << in;
  return verifyVarianceTypes(op, operandType, resultType);
}

LogicalResult PsumOp::verify() {
  return verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                               getType());
}
LogicalResult PmaxOp::verify() {
  return verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                               getType());
}
LogicalResult PminOp::verify() {
  return verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                               getType());
}
LogicalResult PmeanOp::verify() {
  return verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                               getType());
}
LogicalResult PvaryOp::verify() {
  return verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                               getType());
}

/// Checks a gather (growing `dim`) or a scatter (shrinking it); `tiled`
/// concatenates/splits along `dim`, otherwise a dimension of the group size
/// is inserted/removed at `dim`.
static LogicalResult verifyDimCollective(Operation *op, ArrayAttr axes,
                                         int64_t dim, bool tiled, bool gathers,
                                         Type operandType, Type resultType) {
  FailureOr<ManualContext> ctx = verifyCollectiveAxes(op, axes);
  if (failed(ctx))
    return failure();
  if (failed(verifySameElementType(op, operandType, resultType)))
    return failure();
  auto in = cast<RankedTensorType>(operandType);
  auto out = cast<RankedTensorType>(resultType);
  int64_t n = ctx->getGroupSize(toAxes(axes));
  SmallVector<int64_t> expected(in.getShape());
  int64_t maxDim = (gathers && !tiled) ? in.getRank() : in.getRank() - 1;
  if (dim < 0 || dim > maxDim)
    return op->emitOpError("dim ")
           << dim << " is out of range for operand " << in;
  if (gathers) {
    if (tiled) {
      if (!ShapedType::isDynamic(expected[dim]))
        expected[dim] *= n;
    } else {
      expected.insert(expected.begin() + dim, n);
    }
  } else {
    int64_t size = expected[dim];
    if (tiled) {
      if (!ShapedType::isDynamic(size) && size % n != 0)
        return op->emitOpError("dimension ")
               << dim << " of the operand has size " << size
               << ", which is not divisible by " << n
               << ", the size of mesh axes " << formatAxisSet(toAxes(axes));
      if (!ShapedType::isDynamic(size))
        expected[dim] = size / n;
    } else {
      if (size != n)
        return op->emitOpError("without 'tiled', dimension ")
               << dim << " of the operand must have the group size " << n
               << " of mesh axes " << formatAxisSet(toAxes(axes)) << ", got "
               << size;
      expected.erase(expected.begin() + dim);
    }
  }
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("result shape ")
           << formatShape(out.getShape()) << " should be "
           << formatShape(expected) << " (operand shape "
           << formatShape(in.getShape()) << ", group size " << n << ")";
  return verifyVarianceTypes(op, operandType, resultType);
}

LogicalResult AllGatherOp::verify() {
  return verifyDimCollective(*this, getAxes(), getDim(), getTiled(), true,
                             getOperand().getType(), getType());
}
LogicalResult AllGatherInvariantOp::verify() {
  return verifyDimCollective(*this, getAxes(), getDim(), getTiled(), true,
                             getOperand().getType(), getType());
}
LogicalResult PsumScatterOp::verify() {
  return verifyDimCollective(*this, getAxes(), getDim(), getTiled(), false,
                             getOperand().getType(), getType());
}
LogicalResult PscatterOp::verify() {
  return verifyDimCollective(*this, getAxes(), getDim(), getTiled(), false,
                             getOperand().getType(), getType());
}

/// Checks an all_to_all from `operandType` to `resultType`.
static LogicalResult verifyAllToAll(Operation *op, ArrayAttr axes,
                                    int64_t split, int64_t concat,
                                    Type operandType, Type resultType) {
  FailureOr<ManualContext> ctx = verifyCollectiveAxes(op, axes);
  if (failed(ctx))
    return failure();
  if (failed(verifySameElementType(op, operandType, resultType)))
    return failure();
  auto in = cast<RankedTensorType>(operandType);
  auto out = cast<RankedTensorType>(resultType);
  if (split < 0 || split >= in.getRank() || concat < 0 ||
      concat >= in.getRank())
    return op->emitOpError("split ")
           << split << " and concat " << concat
           << " must be dimensions of the operand " << in;
  int64_t n = ctx->getGroupSize(toAxes(axes));
  SmallVector<int64_t> expected(in.getShape());
  if (!ShapedType::isDynamic(expected[split])) {
    if (expected[split] % n != 0)
      return op->emitOpError("split dimension ")
             << split << " has size " << expected[split]
             << ", which is not divisible by " << n
             << ", the size of mesh axes " << formatAxisSet(toAxes(axes));
    expected[split] /= n;
  }
  if (!ShapedType::isDynamic(expected[concat]))
    expected[concat] *= n;
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("result shape ")
           << formatShape(out.getShape()) << " should be "
           << formatShape(expected) << " (operand shape "
           << formatShape(in.getShape()) << ", group size " << n << ")";
  return verifyVarianceTypes(op, operandType, resultType);
}

LogicalResult AllToAllOp::verify() {
  return verifyAllToAll(*this, getAxes(), getSplitDim(), getConcatDim(),
                        getOperand().getType(), getType());
}

static SmallVector<std::pair<int64_t, int64_t>>
pairList(ArrayRef<int64_t> flat) {
  SmallVector<std::pair<int64_t, int64_t>> list;
  for (size_t i = 0; i + 1 < flat.size(); i += 2)
    list.emplace_back(flat[i], flat[i + 1]);
  return list;
}

SmallVector<std::pair<int64_t, int64_t>> PpermuteOp::getPairList() {
  return pairList(getPairs());
}

SmallVector<std::pair<int64_t, int64_t>> PpermuteStartOp::getPairList() {
  return pairList(getPairs());
}

/// Checks ppermute pairs: [source, target] pairs in range, each source and
/// each target used once.
static LogicalResult verifyPairs(Operation *op, ArrayRef<int64_t> flat,
                                 int64_t n, ArrayAttr axes) {
  if (flat.size() % 2 != 0)
    return op->emitOpError("pairs must be [source, target] pairs");
  llvm::SmallDenseSet<int64_t> sources, targets;
  for (auto [source, target] : pairList(flat)) {
    if (source < 0 || source >= n || target < 0 || target >= n)
      return op->emitOpError("pair [")
             << source << ", " << target << "] is out of range for group size "
             << n << " of mesh axes " << formatAxisSet(toAxes(axes));
    if (!sources.insert(source).second)
      return op->emitOpError("device ")
             << source << " is the source of more than one pair";
    if (!targets.insert(target).second)
      return op->emitOpError("device ")
             << target << " is the target of more than one pair";
  }
  return success();
}

LogicalResult PpermuteOp::verify() {
  if (failed(verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                                   getType())))
    return failure();
  return verifyPairs(*this, getPairs(), getGroupSize(), getAxes());
}

LogicalResult PpermuteStartOp::verify() {
  if (failed(verifyCollectiveAxes(*this, getAxes())))
    return failure();
  if (getFuture().getType().getValueType() != getOperand().getType())
    return emitOpError("future type ")
           << getFuture().getType() << " does not hold the operand type "
           << getOperand().getType();
  return verifyPairs(*this, getPairs(), getGroupSize(), getAxes());
}

/// The ranked tensor a start's future holds, or an error.
static FailureOr<Type> startedType(Operation *op, FutureType future) {
  if (!isa<RankedTensorType>(future.getValueType()))
    return op->emitOpError("future must hold a ranked tensor, not ")
           << future.getValueType();
  return future.getValueType();
}

// The starts check what their synchronous forms check, with the future's
// value as the result.
LogicalResult AllGatherStartOp::verify() {
  if (failed(startedType(*this, getFuture().getType())))
    return failure();
  return verifyDimCollective(*this, getAxes(), getDim(), getTiled(), true,
                             getOperand().getType(),
                             getFuture().getType().getValueType());
}
LogicalResult PsumScatterStartOp::verify() {
  if (failed(startedType(*this, getFuture().getType())))
    return failure();
  return verifyDimCollective(*this, getAxes(), getDim(), getTiled(), false,
                             getOperand().getType(),
                             getFuture().getType().getValueType());
}
LogicalResult PsumStartOp::verify() {
  if (failed(startedType(*this, getFuture().getType())))
    return failure();
  return verifyShapePreserving(*this, getAxes(), getOperand().getType(),
                               getFuture().getType().getValueType());
}
LogicalResult AllToAllStartOp::verify() {
  if (failed(startedType(*this, getFuture().getType())))
    return failure();
  return verifyAllToAll(*this, getAxes(), getSplitDim(), getConcatDim(),
                        getOperand().getType(),
                        getFuture().getType().getValueType());
}

/// Whether `future` is known to come from a ppermute_start (true) or from
/// one of the other starts (false); unknown (a block argument) is neither.
static std::optional<bool> fromPpermuteStart(Value future) {
  Operation *def = future.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<PpermuteStartOp>(def))
    return true;
  if (isa<AllGatherStartOp, PsumScatterStartOp, PsumStartOp, AllToAllStartOp>(
          def))
    return false;
  return std::nullopt;
}

LogicalResult CollectiveWaitOp::verify() {
  if (fromPpermuteStart(getFuture()) == std::optional<bool>(true))
    return emitOpError("waits for a ppermute_start; use spmd.ppermute_wait");
  return success();
}

LogicalResult PpermuteWaitOp::verify() {
  if (fromPpermuteStart(getFuture()) == std::optional<bool>(false))
    return emitOpError("waits for ") << getFuture().getDefiningOp()->getName()
                                     << "; use spmd.collective_wait";
  return success();
}

LogicalResult AxisIndexOp::verify() {
  return verifyCollectiveAxes(*this, getAxes());
}
LogicalResult AxisSizeOp::verify() {
  return verifyCollectiveAxes(*this, getAxes());
}

//===----------------------------------------------------------------------===//
// Sharding rules of elementwise collectives
//===----------------------------------------------------------------------===//

#define SPMD_ELEMENTWISE_RULE(Op)                                              \
  FailureOr<trellis::ShardingRule> Op::getShardingRule() {                     \
    return trellis::elementwiseRule(getOperation());                           \
  }
SPMD_ELEMENTWISE_RULE(PsumOp)
SPMD_ELEMENTWISE_RULE(PmaxOp)
SPMD_ELEMENTWISE_RULE(PminOp)
SPMD_ELEMENTWISE_RULE(PmeanOp)
SPMD_ELEMENTWISE_RULE(PvaryOp)
SPMD_ELEMENTWISE_RULE(PpermuteOp)
#undef SPMD_ELEMENTWISE_RULE
