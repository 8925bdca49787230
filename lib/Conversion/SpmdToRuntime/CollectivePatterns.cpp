//===- CollectivePatterns.cpp - One runtime lowering per spmd op ----------===//
//
// Each collective reads its operand through an identity-layout buffer,
// calls its runtime entry point (TrellisRuntimeABI.def) with the geometry
// of the transfer, and gives back a fresh buffer as a tensor. pvary and the
// axis queries become plain values, pscatter a local slice.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "lib/Conversion/SpmdToRuntime/SpmdToRuntime.h"
#include "trellis/Conversion/RuntimeABI.h"
#include "trellis/Runtime/MeshMath.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::spmd;
using trellis::callRuntime;
using trellis::i32Const;
using trellis::i64Const;
using trellis::RuntimeFunc;
using trellis::SpmdToRuntimeState;

namespace {

std::string formatLocation(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLocation(fused.getLocations().front());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(callSite.getCallee());
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// The error for an op whose tensors the executor cannot lower.
LogicalResult emitDynamicShape(Operation *op) {
  return op->emitOpError("has a dynamic shape; the executor lowers static "
                         "shapes only");
}

/// The runtime dtype of `type`'s elements, or an error on `op` when the
/// runtime cannot move `type` (a dynamic shape or an unsupported element
/// type).
FailureOr<int32_t> runtimeDtype(Operation *op, RankedTensorType type) {
  if (!type.hasStaticShape())
    return emitDynamicShape(op);
  std::optional<int32_t> dtype =
      trellis::getRuntimeDtype(type.getElementType());
  if (!dtype)
    return op->emitOpError("has element type ")
           << type.getElementType() << ", which the runtime does not support";
  return *dtype;
}

/// The packed axis list of `axes` on `ctx`'s mesh.
int64_t packAxes(ManualContext &ctx, ArrayRef<StringAttr> axes) {
  int64_t packed = 0;
  int i = 0;
  for (StringAttr axis : axes)
    packed |= static_cast<int64_t>(*ctx.mesh.getAxisIndex(axis.getValue()) + 1)
              << (4 * i++);
  return packed;
}

/// The runtime names axis lists in one i64, four bits an axis: only the
/// first TRELLIS_RT_MAX_PACKED_AXES axes of a mesh fit.
LogicalResult checkPackable(CollectiveOpInterface op, ManualContext &ctx) {
  for (StringAttr axis : op.getAxisList()) {
    std::optional<unsigned> index = ctx.mesh.getAxisIndex(axis.getValue());
    if (index && *index >= static_cast<unsigned>(TRELLIS_RT_MAX_PACKED_AXES))
      return op->emitOpError("names mesh axis \"")
             << axis.getValue() << "\", axis #" << *index << " of @"
             << ctx.mesh.getSymName() << "; the runtime addresses only the "
             << TRELLIS_RT_MAX_PACKED_AXES
             << " first axes of a mesh (move it to the front)";
  }
  return success();
}

/// An identity-layout buffer holding `tensor` (its own, or a copy).
Value readMemref(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  return bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                           /*read_only=*/true);
}

/// Address of an identity-layout buffer holding `tensor`.
Value readBuffer(OpBuilder &b, Location loc, Value tensor) {
  return trellis::bufferAddress(b, loc, readMemref(b, loc, tensor));
}

/// A fresh identity-layout buffer for a value of `type`.
Value allocBuffer(OpBuilder &b, Location loc, RankedTensorType type) {
  return memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()),
      b.getI64IntegerAttr(64));
}

/// `value` (an i64) as `to` (index or a narrower integer).
Value castIndex(OpBuilder &b, Location loc, Value value, Type to) {
  if (to.isIndex())
    return arith::IndexCastOp::create(b, loc, to, value);
  if (to.getIntOrFloatBitWidth() < 64)
    return arith::TruncIOp::create(b, loc, to, value);
  return value;
}

int32_t runtimeReduction(CollectiveOpInterface op) {
  switch (op.getReduction().value_or(ReductionKind::Sum)) {
  case ReductionKind::Sum:
    return TRELLIS_RT_SUM;
  case ReductionKind::Max:
    return TRELLIS_RT_MAX;
  case ReductionKind::Min:
    return TRELLIS_RT_MIN;
  case ReductionKind::Mean:
    return TRELLIS_RT_MEAN;
  }
  llvm_unreachable("unknown reduction");
}

/// Lowers `OpTy` in a device function: checks where the op is and that its
/// axes can be addressed, then calls `lower`. A failure has been reported
/// at the op and is recorded in the state.
template <typename OpTy> struct RuntimePattern : OpRewritePattern<OpTy> {
  RuntimePattern(MLIRContext *context, SpmdToRuntimeState &state)
      : OpRewritePattern<OpTy>(context), state(state) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    std::optional<ManualContext> ctx = getManualContext(op);
    LogicalResult result = failure();
    if (!ctx || isa<ShardMapOp>(ctx->owner))
      result = op->emitOpError("is not in a device function; run "
                               "spmd-outline-device-func first");
    else if (auto collective = dyn_cast<CollectiveOpInterface>(*op);
             collective && failed(checkPackable(collective, *ctx)))
      result = failure();
    else
      result = lower(op, *ctx, rewriter);
    if (failed(result))
      state.failed = true;
    return result;
  }

  virtual LogicalResult lower(OpTy op, ManualContext &ctx,
                              PatternRewriter &rewriter) const = 0;

  SpmdToRuntimeState &state;
};

/// Calls trellis_rt_ppermute_start (staged, no `out`) or
/// trellis_rt_ppermute_start_direct; returns the handle.
Value startPermute(OpBuilder &b, Location loc, ModuleOp module, int64_t site,
                   int64_t axes, int32_t dtype, Value in, int64_t count,
                   Value out = nullptr) {
  SmallVector<Value> args = {i64Const(b, loc, site), i64Const(b, loc, axes),
                             i32Const(b, loc, dtype), in};
  if (out)
    args.push_back(out);
  args.push_back(i64Const(b, loc, count));
  return callRuntime(b, loc, module,
                     out ? RuntimeFunc::ppermute_start_direct
                         : RuntimeFunc::ppermute_start,
                     args)
      .getResult(0);
}

//===----------------------------------------------------------------------===//
// Values without communication
//===----------------------------------------------------------------------===//

struct PvaryLowering : RuntimePattern<PvaryOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(PvaryOp op, ManualContext &,
                      PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getOperand());
    return success();
  }
};

struct AxisSizeLowering : RuntimePattern<AxisSizeOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(AxisSizeOp op, ManualContext &,
                      PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getIntegerAttr(op.getType(), op.getGroupSize()));
    return success();
  }
};

Value axisIndex(OpBuilder &b, Location loc, ModuleOp module, ManualContext &ctx,
                ArrayRef<StringAttr> axes) {
  Value packed = i64Const(b, loc, packAxes(ctx, axes));
  return callRuntime(b, loc, module, RuntimeFunc::axis_index, {packed})
      .getResult(0);
}

struct AxisIndexLowering : RuntimePattern<AxisIndexOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(AxisIndexOp op, ManualContext &ctx,
                      PatternRewriter &rewriter) const override {
    Value index =
        axisIndex(rewriter, op.getLoc(), state.module, ctx, op.getAxisList());
    rewriter.replaceOp(op,
                       castIndex(rewriter, op.getLoc(), index, op.getType()));
    return success();
  }
};

/// This device's block of an invariant value: a slice at its index.
struct PscatterLowering : RuntimePattern<PscatterOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(PscatterOp op, ManualContext &ctx,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getOperand().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    int64_t dim = op.getDim();
    int64_t n = op.getGroupSize();
    int64_t block = op.getTiled() ? inType.getDimSize(dim) / n : 1;
    Value idx =
        castIndex(rewriter, loc,
                  axisIndex(rewriter, loc, state.module, ctx, op.getAxisList()),
                  rewriter.getIndexType());
    Value offset = arith::MulIOp::create(
        rewriter, loc, idx,
        arith::ConstantIndexOp::create(rewriter, loc, block));
    SmallVector<OpFoldResult> offsets(inType.getRank(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes,
        strides(inType.getRank(), rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < inType.getRank(); ++d)
      sizes.push_back(
          rewriter.getIndexAttr(d == dim ? block : inType.getDimSize(d)));
    offsets[dim] = offset;
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, outType, op.getOperand(), offsets, sizes, strides);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Collectives on buffers
//===----------------------------------------------------------------------===//

/// The runtime's view of a gather along `dim` of an operand of `shape`:
/// [outer][inner] around it.
SmallVector<int64_t> gatherGeometry(ArrayRef<int64_t> shape, int64_t dim) {
  return {computeProduct(shape.take_front(dim)),
          computeProduct(shape.drop_front(dim))};
}

/// A reduce-scatter along `dim` over n devices: the operand as
/// [outer][n][inner].
SmallVector<int64_t> scatterGeometry(ArrayRef<int64_t> shape, int64_t dim,
                                     int64_t n) {
  return {computeProduct(shape.take_front(dim)),
          computeProduct(shape.drop_front(dim)) / n};
}

/// An all_to_all over n devices: the operand as [splitOuter][n][splitInner]
/// and each received chunk placed as [concatOuter][n][concatInner].
SmallVector<int64_t> allToAllGeometry(ArrayRef<int64_t> shape, int64_t split,
                                      int64_t concat, int64_t n) {
  SmallVector<int64_t> chunk(shape);
  chunk[split] /= n;
  ArrayRef<int64_t> chunkShape(chunk);
  return {computeProduct(shape.take_front(split)),
          computeProduct(shape.drop_front(split)) / n,
          computeProduct(chunkShape.take_front(concat)),
          computeProduct(chunkShape.drop_front(concat))};
}

/// What every buffer-to-buffer collective needs: the operand's buffer, a
/// fresh result buffer, the dtype, the packed axes, the group size and the
/// operand's shape.
struct Transfer {
  Value in, outBuffer, out;
  RankedTensorType resultType;
  int32_t dtype;
  int64_t axes, n;
  ArrayRef<int64_t> shape;
};

/// Lowers `OpTy` (one tensor in, one out) through `emit`, which calls the
/// runtime on the Transfer's buffers; the result is the fresh buffer.
template <typename OpTy>
struct BufferCollectiveLowering : RuntimePattern<OpTy> {
  using RuntimePattern<OpTy>::RuntimePattern;

  LogicalResult lower(OpTy op, ManualContext &ctx,
                      PatternRewriter &rewriter) const final {
    Location loc = op.getLoc();
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!resultType.hasStaticShape())
      return emitDynamicShape(op);
    FailureOr<int32_t> dtype = runtimeDtype(op, operandType);
    if (failed(dtype))
      return failure();
    SmallVector<StringAttr> axisList = op.getAxisList();
    Transfer t;
    t.resultType = resultType;
    t.dtype = *dtype;
    t.axes = packAxes(ctx, axisList);
    t.n = ctx.getGroupSize(axisList);
    t.shape = operandType.getShape();
    t.in = readBuffer(rewriter, loc, op.getOperand());
    t.outBuffer = allocBuffer(rewriter, loc, resultType);
    t.out = trellis::bufferAddress(rewriter, loc, t.outBuffer);
    emit(op, t, rewriter);
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, resultType, t.outBuffer, /*restrict=*/true, /*writable=*/false);
    return success();
  }

  virtual void emit(OpTy op, const Transfer &t,
                    PatternRewriter &rewriter) const = 0;
};

template <typename OpTy>
struct AllReduceLowering : BufferCollectiveLowering<OpTy> {
  using BufferCollectiveLowering<OpTy>::BufferCollectiveLowering;
  void emit(OpTy op, const Transfer &t, PatternRewriter &b) const override {
    Location loc = op.getLoc();
    int64_t site = this->state.addSite(op);
    callRuntime(b, loc, this->state.module, RuntimeFunc::all_reduce,
                {i64Const(b, loc, site), i64Const(b, loc, t.axes),
                 i32Const(b, loc, t.dtype),
                 i32Const(b, loc, runtimeReduction(op)), t.in, t.out,
                 i64Const(b, loc, computeProduct(t.shape))});
  }
};

/// A gather along `dim`: the operand as [outer][inner] around it.
template <typename OpTy>
struct AllGatherLowering : BufferCollectiveLowering<OpTy> {
  using BufferCollectiveLowering<OpTy>::BufferCollectiveLowering;
  void emit(OpTy op, const Transfer &t, PatternRewriter &b) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> g = gatherGeometry(t.shape, op.getDim());
    int64_t site = this->state.addSite(op);
    callRuntime(b, loc, this->state.module, RuntimeFunc::all_gather,
                {i64Const(b, loc, site), i64Const(b, loc, t.axes),
                 i32Const(b, loc, t.dtype), t.in, t.out, i64Const(b, loc, g[0]),
                 i64Const(b, loc, g[1])});
  }
};

/// A reduce-scatter along `dim`: the operand as [outer][n][inner].
struct ReduceScatterLowering : BufferCollectiveLowering<PsumScatterOp> {
  using BufferCollectiveLowering::BufferCollectiveLowering;
  void emit(PsumScatterOp op, const Transfer &t,
            PatternRewriter &b) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> g = scatterGeometry(t.shape, op.getDim(), t.n);
    int64_t site = state.addSite(op);
    callRuntime(b, loc, state.module, RuntimeFunc::reduce_scatter,
                {i64Const(b, loc, site), i64Const(b, loc, t.axes),
                 i32Const(b, loc, t.dtype),
                 i32Const(b, loc, runtimeReduction(op)), t.in, t.out,
                 i64Const(b, loc, g[0]), i64Const(b, loc, g[1])});
  }
};

/// Chunks along `split_dim` go to the group; received chunks concatenate
/// along `concat_dim`.
struct AllToAllLowering : BufferCollectiveLowering<AllToAllOp> {
  using BufferCollectiveLowering::BufferCollectiveLowering;
  void emit(AllToAllOp op, const Transfer &t,
            PatternRewriter &b) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> g =
        allToAllGeometry(t.shape, op.getSplitDim(), op.getConcatDim(), t.n);
    int64_t site = state.addSite(op);
    callRuntime(b, loc, state.module, RuntimeFunc::all_to_all,
                {i64Const(b, loc, site), i64Const(b, loc, t.axes),
                 i32Const(b, loc, t.dtype), t.in, t.out, i64Const(b, loc, g[0]),
                 i64Const(b, loc, g[1]), i64Const(b, loc, g[2]),
                 i64Const(b, loc, g[3])});
  }
};

/// Blocking, or (async-ppermute) a direct start waited for at once.
struct PpermuteLowering : BufferCollectiveLowering<PpermuteOp> {
  using BufferCollectiveLowering::BufferCollectiveLowering;
  void emit(PpermuteOp op, const Transfer &t,
            PatternRewriter &b) const override {
    Location loc = op.getLoc();
    int64_t site = state.addSite(op, op.getPairs());
    int64_t count = computeProduct(t.shape);
    if (state.asyncPpermute) {
      Value handle = startPermute(b, loc, state.module, site, t.axes, t.dtype,
                                  t.in, count, t.out);
      callRuntime(b, loc, state.module, RuntimeFunc::ppermute_wait_direct,
                  {handle, t.in, t.out, t.in});
      return;
    }
    callRuntime(b, loc, state.module, RuntimeFunc::ppermute,
                {i64Const(b, loc, site), i64Const(b, loc, t.axes),
                 i32Const(b, loc, t.dtype), t.in, t.out,
                 i64Const(b, loc, count)});
  }
};

//===----------------------------------------------------------------------===//
// Asynchronous ppermutes
//===----------------------------------------------------------------------===//

/// A wait delivers a static `type`, and its future has become a handle (an
/// i64) by the time it is lowered, which only a `producer` in a device
/// function makes.
LogicalResult checkWait(Operation *op, RankedTensorType type, Value handle,
                        StringRef producer) {
  if (!type.hasStaticShape())
    return emitDynamicShape(op);
  if (!handle.getType().isInteger(64))
    return op->emitOpError("waits for a future that no ")
           << producer << " in a device function produced";
  return success();
}

/// Direct (one copy, from this buffer into the target's) when the future
/// goes straight to its wait, which can then name the buffers again and so
/// keep them alive and unchanged until it; staged (the payload copied aside
/// at once) when the future is carried through control flow.
struct PpermuteStartLowering : RuntimePattern<PpermuteStartOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(PpermuteStartOp op, ManualContext &ctx,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    FailureOr<int32_t> dtype = runtimeDtype(op, operandType);
    if (failed(dtype))
      return failure();
    int64_t axes = packAxes(ctx, op.getAxisList());
    int64_t count = computeProduct(operandType.getShape());
    int64_t site = state.addSite(op, op.getPairs());
    Operation *wait = nullptr;
    if (op.getResult().hasOneUse())
      wait = *op.getResult().getUsers().begin();
    if (isa_and_nonnull<PpermuteWaitOp>(wait)) {
      Value inBuffer = readMemref(rewriter, loc, op.getOperand());
      Value outBuffer = allocBuffer(rewriter, loc, operandType);
      Value handle =
          startPermute(rewriter, loc, state.module, site, axes, *dtype,
                       trellis::bufferAddress(rewriter, loc, inBuffer), count,
                       trellis::bufferAddress(rewriter, loc, outBuffer));
      state.directWaits[wait] = {inBuffer, outBuffer, op.getOperand()};
      rewriter.replaceOp(op, handle);
      return success();
    }
    Value in = readBuffer(rewriter, loc, op.getOperand());
    rewriter.replaceOp(op, startPermute(rewriter, loc, state.module, site, axes,
                                        *dtype, in, count));
    return success();
  }
};

/// The handle (an i64 by now) is waited for into a fresh buffer (staged),
/// or into the buffer its direct start allocated.
struct PpermuteWaitLowering : RuntimePattern<PpermuteWaitOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(PpermuteWaitOp op, ManualContext &,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value handle = op.getFuture();
    if (failed(checkWait(op, type, handle, "ppermute_start")))
      return failure();
    Value outBuffer;
    SmallVector<Value> args = {handle};
    RuntimeFunc callee = RuntimeFunc::ppermute_wait;
    auto direct = state.directWaits.find(op);
    if (direct != state.directWaits.end()) {
      // The sent tensor is read here once more (through a view of any
      // layout, so never a copy): bufferization then keeps its buffer
      // unchanged until the wait, as the runtime may read it until then.
      auto anyLayout = MemRefType::get(
          type.getShape(), type.getElementType(),
          StridedLayoutAttr::get(
              rewriter.getContext(), ShapedType::kDynamic,
              SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic)));
      Value alias = bufferization::ToBufferOp::create(
          rewriter, loc, anyLayout, direct->second.sent, /*read_only=*/true);
      outBuffer = direct->second.out;
      args.append({trellis::bufferAddress(rewriter, loc, direct->second.in),
                   trellis::bufferAddress(rewriter, loc, outBuffer),
                   trellis::bufferAddress(rewriter, loc, alias)});
      callee = RuntimeFunc::ppermute_wait_direct;
      state.directWaits.erase(direct);
    } else {
      outBuffer = allocBuffer(rewriter, loc, type);
      args.push_back(trellis::bufferAddress(rewriter, loc, outBuffer));
    }
    callRuntime(rewriter, loc, state.module, callee, args);
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, type, outBuffer, /*restrict=*/true, /*writable=*/false);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Asynchronous all_gather, psum_scatter, psum and all_to_all
//===----------------------------------------------------------------------===//

/// The runtime kind and geometry of each start.
std::pair<int32_t, SmallVector<int64_t>>
startGeometry(AllGatherStartOp op, ArrayRef<int64_t> shape, int64_t) {
  return {TRELLIS_RT_ALL_GATHER, gatherGeometry(shape, op.getDim())};
}
std::pair<int32_t, SmallVector<int64_t>>
startGeometry(PsumScatterStartOp op, ArrayRef<int64_t> shape, int64_t n) {
  return {TRELLIS_RT_REDUCE_SCATTER, scatterGeometry(shape, op.getDim(), n)};
}
std::pair<int32_t, SmallVector<int64_t>>
startGeometry(PsumStartOp, ArrayRef<int64_t> shape, int64_t) {
  return {TRELLIS_RT_ALL_REDUCE, {computeProduct(shape)}};
}
std::pair<int32_t, SmallVector<int64_t>>
startGeometry(AllToAllStartOp op, ArrayRef<int64_t> shape, int64_t n) {
  return {TRELLIS_RT_ALL_TO_ALL,
          allToAllGeometry(shape, op.getSplitDim(), op.getConcatDim(), n)};
}

/// trellis_rt_collective_start on the operand's buffer (copied by the
/// runtime at once); the future becomes the handle.
template <typename OpTy> struct CollectiveStartLowering : RuntimePattern<OpTy> {
  using RuntimePattern<OpTy>::RuntimePattern;
  LogicalResult lower(OpTy op, ManualContext &ctx,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    auto resultType =
        cast<RankedTensorType>(op.getFuture().getType().getValueType());
    if (!resultType.hasStaticShape())
      return emitDynamicShape(op);
    FailureOr<int32_t> dtype = runtimeDtype(op, operandType);
    if (failed(dtype))
      return failure();
    SmallVector<StringAttr> axisList = op.getAxisList();
    auto [kind, geometry] =
        startGeometry(op, operandType.getShape(), ctx.getGroupSize(axisList));
    geometry.resize(4, 0);
    int64_t site = this->state.addSite(op);
    SmallVector<Value> args = {i64Const(rewriter, loc, site),
                               i32Const(rewriter, loc, kind),
                               i64Const(rewriter, loc, packAxes(ctx, axisList)),
                               i32Const(rewriter, loc, *dtype),
                               i32Const(rewriter, loc, runtimeReduction(op)),
                               readBuffer(rewriter, loc, op.getOperand())};
    for (int64_t g : geometry)
      args.push_back(i64Const(rewriter, loc, g));
    rewriter.replaceOp(op, callRuntime(rewriter, loc, this->state.module,
                                       RuntimeFunc::collective_start, args)
                               .getResult(0));
    return success();
  }
};

/// The handle (an i64 by now) is waited for into a fresh buffer.
struct CollectiveWaitLowering : RuntimePattern<CollectiveWaitOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult lower(CollectiveWaitOp op, ManualContext &,
                      PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value handle = op.getFuture();
    if (failed(checkWait(op, type, handle, "collective start")))
      return failure();
    Value outBuffer = allocBuffer(rewriter, loc, type);
    callRuntime(rewriter, loc, state.module, RuntimeFunc::collective_wait,
                {handle, trellis::bufferAddress(rewriter, loc, outBuffer)});
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, type, outBuffer, /*restrict=*/true, /*writable=*/false);
    return success();
  }
};

} // namespace

int64_t SpmdToRuntimeState::addSite(Operation *op, ArrayRef<int64_t> pairs) {
  Builder b(op->getContext());
  SmallVector<NamedAttribute> fields;
  fields.push_back(
      b.getNamedAttr("op", b.getStringAttr(op->getName().getStringRef())));
  fields.push_back(
      b.getNamedAttr("loc", b.getStringAttr(formatLocation(op->getLoc()))));
  if (!pairs.empty())
    fields.push_back(b.getNamedAttr("pairs", b.getDenseI64ArrayAttr(pairs)));
  sites.push_back(b.getDictionaryAttr(fields));
  return static_cast<int64_t>(sites.size() - 1);
}

void mlir::trellis::populateSpmdToRuntimePatterns(RewritePatternSet &patterns,
                                                  SpmdToRuntimeState &state) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<PvaryLowering, AxisSizeLowering, AxisIndexLowering, PscatterLowering,
           AllReduceLowering<PsumOp>, AllReduceLowering<PmaxOp>,
           AllReduceLowering<PminOp>, AllReduceLowering<PmeanOp>,
           AllGatherLowering<AllGatherOp>,
           AllGatherLowering<AllGatherInvariantOp>, ReduceScatterLowering,
           AllToAllLowering, PpermuteLowering, PpermuteStartLowering,
           PpermuteWaitLowering, CollectiveStartLowering<AllGatherStartOp>,
           CollectiveStartLowering<PsumScatterStartOp>,
           CollectiveStartLowering<PsumStartOp>,
           CollectiveStartLowering<AllToAllStartOp>, CollectiveWaitLowering>(
          context, state);
}
