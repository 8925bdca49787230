//===- SpmdToRuntime.cpp - Collectives to runtime calls -------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "lib/Conversion/Passes.h"
#include "lib/Conversion/RuntimeABI.h"
#include "lib/Runtime/MeshMath.h"
#include "lib/Runtime/TrellisRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_SPMDTORUNTIME
#include "lib/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::spmd;
using trellis::callRuntime;
using trellis::RuntimeFunc;
using trellis::verifyRuntimeDeclarations;

namespace {

std::string formatLocation(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLocation(fused.getLocations().front());
  if (auto name = dyn_cast<NameLoc>(loc))
    return formatLocation(name.getChildLoc());
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

struct SpmdToRuntimePass
    : mlir::trellis::impl::SpmdToRuntimeBase<SpmdToRuntimePass> {
  using SpmdToRuntimeBase::SpmdToRuntimeBase;

  ModuleOp module;
  SmallVector<Attribute> sites;

  /// A direct ppermute started but not yet waited for: the buffers its
  /// wait names again, and the sent tensor.
  struct DirectPermute {
    Value in, out, sent;
  };
  DenseMap<Operation *, DirectPermute> directWaits;

  void runOnOperation() override {
    module = getOperation();
    // Futures are runtime handles: values carried through control flow
    // (loop iter_args, results) become i64 first; starts and waits below
    // produce and consume the handles.
    Type i64 = IntegerType::get(&getContext(), 64);
    module.walk([&](Operation *op) {
      for (OpResult result : op->getResults())
        if (isa<FutureType>(result.getType()) &&
            !isa<PpermuteStartOp, PpermuteForwardOp>(op))
          result.setType(i64);
      if (isa<FunctionOpInterface>(op))
        return;
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (isa<FutureType>(arg.getType()))
              arg.setType(i64);
    });
    if (failed(verifyRuntimeDeclarations(module)))
      return signalPassFailure();
    if (auto existing =
            module->getAttrOfType<ArrayAttr>(SpmdDialect::kSitesAttrName))
      sites.assign(existing.begin(), existing.end());
    SmallVector<Operation *> collectives;
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<SpmdDialect>(op->getDialect()) &&
          !isa<ShardMapOp, YieldOp>(op))
        collectives.push_back(op);
    });
    for (Operation *op : collectives)
      if (failed(checkPackable(op)) || failed(lower(op)))
        return signalPassFailure();
    module->setAttr(SpmdDialect::kSitesAttrName,
                    ArrayAttr::get(&getContext(), sites));
  }

  /// Registers a site and returns its number.
  int64_t addSite(Operation *op, ArrayRef<int64_t> pairs = {}) {
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

  /// The runtime names axis lists in one i64, four bits an axis: only the
  /// first trellis::rt::kMaxPackedAxes axes of a mesh fit.
  LogicalResult checkPackable(Operation *op) {
    auto collective = dyn_cast<CollectiveOpInterface>(op);
    std::optional<ManualContext> ctx = getManualContext(op);
    if (!collective || !ctx)
      return success();
    for (StringAttr axis : collective.getAxisList()) {
      std::optional<unsigned> index = ctx->mesh.getAxisIndex(axis.getValue());
      if (index && *index >= static_cast<unsigned>(trellis::rt::kMaxPackedAxes))
        return op->emitOpError("names mesh axis \"")
               << axis.getValue() << "\", axis #" << *index << " of @"
               << ctx->mesh.getSymName() << "; the runtime addresses only the "
               << trellis::rt::kMaxPackedAxes
               << " first axes of a mesh (move it to the front)";
    }
    return success();
  }

  /// The packed axis list of `axes` on `ctx`'s mesh.
  int64_t packAxes(ManualContext &ctx, ArrayRef<StringAttr> axes) {
    int64_t packed = 0;
    int i = 0;
    for (StringAttr axis : axes)
      packed |=
          static_cast<int64_t>(*ctx.mesh.getAxisIndex(axis.getValue()) + 1)
          << (4 * i++);
    return packed;
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

  LogicalResult lower(Operation *op) {
    std::optional<ManualContext> ctx = getManualContext(op);
    if (!ctx || isa<ShardMapOp>(ctx->owner))
      return op->emitOpError("is not in a device function; run "
                             "spmd-outline-device-func first");
    OpBuilder b(op);
    Location loc = op->getLoc();

    if (auto pvary = dyn_cast<PvaryOp>(op)) {
      pvary.replaceAllUsesWith(pvary.getOperand());
      pvary.erase();
      return success();
    }
    if (auto size = dyn_cast<AxisSizeOp>(op)) {
      Value c = size.getType().isIndex()
                    ? Value(arith::ConstantIndexOp::create(b, loc,
                                                           size.getGroupSize()))
                    : Value(arith::ConstantIntOp::create(b, loc, size.getType(),
                                                         size.getGroupSize()));
      size.replaceAllUsesWith(c);
      size.erase();
      return success();
    }
    if (auto index = dyn_cast<AxisIndexOp>(op)) {
      Value idx = axisIndex(b, loc, *ctx, index.getAxisList());
      Value result = castIndex(b, loc, idx, index.getType());
      index.replaceAllUsesWith(result);
      index.erase();
      return success();
    }
    if (auto scatter = dyn_cast<PscatterOp>(op))
      return lowerPscatter(b, *ctx, scatter);
    if (auto wait = dyn_cast<PpermuteWaitOp>(op))
      return lowerWait(b, wait);
    if (auto forward = dyn_cast<PpermuteForwardOp>(op))
      return lowerForward(b, *ctx, forward);

    // The rest move data through the runtime.
    auto operandType = cast<RankedTensorType>(op->getOperand(0).getType());
    Type resultValueType = op->getResult(0).getType();
    if (auto future = dyn_cast<FutureType>(resultValueType))
      resultValueType = future.getValueType();
    auto resultType = cast<RankedTensorType>(resultValueType);
    if (!resultType.hasStaticShape())
      return emitDynamicShape(op);
    FailureOr<int32_t> dtype = runtimeDtype(op, operandType);
    if (failed(dtype))
      return failure();
    auto collective = dyn_cast<CollectiveOpInterface>(op);
    if (!collective)
      return op->emitOpError("has no lowering to the runtime");
    SmallVector<StringAttr> axisList = collective.getAxisList();
    int64_t axes = packAxes(*ctx, axisList);
    int64_t n = ctx->getGroupSize(axisList);
    ArrayRef<int64_t> shape = operandType.getShape();

    if (auto start = dyn_cast<PpermuteStartOp>(op)) {
      int64_t site = addSite(op, start.getPairs());
      // Direct (one copy, from this buffer into the target's) when the
      // future goes straight to its wait, which can then name the buffers
      // again and so keep them alive and unchanged until it; staged (the
      // payload copied aside at once) when the future is carried through
      // control flow.
      Operation *waitOp = nullptr;
      if (start.getResult().hasOneUse())
        waitOp = *start.getResult().getUsers().begin();
      if (waitOp && isa<PpermuteWaitOp>(waitOp)) {
        Value inBuffer = readMemref(b, loc, start.getOperand());
        Value outBuffer = allocBuffer(b, loc, resultType);
        Value handle = startPermute(b, loc, site, axes, *dtype,
                                    trellis::bufferAddress(b, loc, inBuffer),
                                    computeProduct(shape),
                                    trellis::bufferAddress(b, loc, outBuffer));
        directWaits[waitOp] = {inBuffer, outBuffer, start.getOperand()};
        start.getResult().replaceAllUsesWith(handle);
        start.erase();
        return success();
      }
      Value in = readBuffer(b, loc, start.getOperand());
      Value handle =
          startPermute(b, loc, site, axes, *dtype, in, computeProduct(shape));
      start.getResult().replaceAllUsesWith(handle);
      start.erase();
      return success();
    }

    auto resultMemref =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    Value in = readBuffer(b, loc, op->getOperand(0));
    Value outBuffer =
        memref::AllocOp::create(b, loc, resultMemref, b.getI64IntegerAttr(64));
    Value out = trellis::bufferAddress(b, loc, outBuffer);

    auto call = [&](RuntimeFunc fn, SmallVector<Value> args) {
      callRuntime(b, loc, module, fn, args);
    };

    auto reduction = [&]() -> int32_t {
      switch (collective.getReduction().value_or(ReductionKind::Sum)) {
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
    };

    if (isa<PsumOp, PmaxOp, PminOp, PmeanOp>(op)) {
      int64_t site = addSite(op);
      call(RuntimeFunc::all_reduce,
           {trellis::i64Const(b, loc, site), trellis::i64Const(b, loc, axes),
            trellis::i32Const(b, loc, *dtype),
            trellis::i32Const(b, loc, reduction()), in, out,
            trellis::i64Const(b, loc, computeProduct(shape))});
    } else if (isa<AllGatherOp, AllGatherInvariantOp>(op)) {
      int64_t dim = op->getAttrOfType<IntegerAttr>("dim").getInt();
      int64_t outer = computeProduct(shape.take_front(dim));
      int64_t inner = computeProduct(shape.drop_front(dim));
      int64_t site = addSite(op);
      call(RuntimeFunc::all_gather,
           {trellis::i64Const(b, loc, site), trellis::i64Const(b, loc, axes),
            trellis::i32Const(b, loc, *dtype), in, out,
            trellis::i64Const(b, loc, outer),
            trellis::i64Const(b, loc, inner)});
    } else if (auto scatter = dyn_cast<PsumScatterOp>(op)) {
      int64_t dim = scatter.getDim();
      int64_t outer = computeProduct(shape.take_front(dim));
      int64_t inner = computeProduct(shape.drop_front(dim)) / n;
      int64_t site = addSite(op);
      call(RuntimeFunc::reduce_scatter,
           {trellis::i64Const(b, loc, site), trellis::i64Const(b, loc, axes),
            trellis::i32Const(b, loc, *dtype),
            trellis::i32Const(b, loc, reduction()), in, out,
            trellis::i64Const(b, loc, outer),
            trellis::i64Const(b, loc, inner)});
    } else if (auto a2a = dyn_cast<AllToAllOp>(op)) {
      int64_t split = a2a.getSplitDim(), concat = a2a.getConcatDim();
      SmallVector<int64_t> chunk(shape);
      chunk[split] /= n;
      int64_t splitOuter = computeProduct(shape.take_front(split));
      int64_t splitInner = computeProduct(shape.drop_front(split)) / n;
      int64_t concatOuter =
          computeProduct(ArrayRef<int64_t>(chunk).take_front(concat));
      int64_t concatInner =
          computeProduct(ArrayRef<int64_t>(chunk).drop_front(concat));
      int64_t site = addSite(op);
      call(RuntimeFunc::all_to_all,
           {trellis::i64Const(b, loc, site), trellis::i64Const(b, loc, axes),
            trellis::i32Const(b, loc, *dtype), in, out,
            trellis::i64Const(b, loc, splitOuter),
            trellis::i64Const(b, loc, splitInner),
            trellis::i64Const(b, loc, concatOuter),
            trellis::i64Const(b, loc, concatInner)});
    } else if (auto permute = dyn_cast<PpermuteOp>(op)) {
      int64_t site = addSite(op, permute.getPairs());
      SmallVector<Value> common = {trellis::i64Const(b, loc, site),
                                   trellis::i64Const(b, loc, axes),
                                   trellis::i32Const(b, loc, *dtype)};
      if (async) {
        Value handle = startPermute(b, loc, site, axes, *dtype, in,
                                    computeProduct(shape), out);
        call(RuntimeFunc::ppermute_wait_direct, {handle, in, out, in});
      } else {
        common.push_back(in);
        common.push_back(out);
        common.push_back(trellis::i64Const(b, loc, computeProduct(shape)));
        call(RuntimeFunc::ppermute, common);
      }
    } else {
      return op->emitOpError("has no lowering to the runtime");
    }

    Value result = bufferization::ToTensorOp::create(
        b, loc, resultType, outBuffer, /*restrict=*/true, /*writable=*/false);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    return success();
  }

  /// Calls trellis_rt_ppermute_start (staged, no `out`) or
  /// trellis_rt_ppermute_start_direct; returns the handle.
  Value startPermute(OpBuilder &b, Location loc, int64_t site, int64_t axes,
                     int32_t dtype, Value in, int64_t count,
                     Value out = nullptr) {
    SmallVector<Value> args = {trellis::i64Const(b, loc, site),
                               trellis::i64Const(b, loc, axes),
                               trellis::i32Const(b, loc, dtype), in};
    if (out)
      args.push_back(out);
    args.push_back(trellis::i64Const(b, loc, count));
    return callRuntime(b, loc, module,
                       out ? RuntimeFunc::ppermute_start_direct
                           : RuntimeFunc::ppermute_start,
                       args)
        .getResult(0);
  }

  /// trellis_rt_ppermute_forward of the incoming handle (an i64 by now),
  /// with the addend's buffer or 0; `keep` when anything else uses the
  /// handle (a wait after this op).
  LogicalResult lowerForward(OpBuilder &b, ManualContext &ctx,
                             PpermuteForwardOp forward) {
    Location loc = forward.getLoc();
    auto type = cast<RankedTensorType>(forward.getType().getValueType());
    FailureOr<int32_t> dtype = runtimeDtype(forward, type);
    if (failed(dtype))
      return failure();
    Value handle = forward.getFuture();
    if (!handle.getType().isInteger(64))
      return forward.emitOpError("forwards a future that no ppermute_start "
                                 "or ppermute_forward in a device function "
                                 "produced");
    int64_t site = addSite(forward, forward.getPairs());
    bool keep = llvm::any_of(handle.getUsers(), [&](Operation *user) {
      return user != forward.getOperation();
    });
    Value addend = forward.getAddend() ? readBuffer(b, loc, forward.getAddend())
                                       : trellis::i64Const(b, loc, 0);
    SmallVector<Value> args = {
        trellis::i64Const(b, loc, site),
        trellis::i64Const(b, loc, packAxes(ctx, forward.getAxisList())),
        trellis::i32Const(b, loc, *dtype),
        handle,
        addend,
        trellis::i64Const(b, loc, type.getNumElements()),
        trellis::i64Const(b, loc, keep)};
    Value next =
        callRuntime(b, loc, module, RuntimeFunc::ppermute_forward, args)
            .getResult(0);
    forward.getResult().replaceAllUsesWith(next);
    forward.erase();
    return success();
  }

  /// The handle (an i64 by now: see runOnOperation) is waited for into a
  /// fresh buffer (staged), or into the buffer its direct start allocated.
  LogicalResult lowerWait(OpBuilder &b, PpermuteWaitOp wait) {
    Location loc = wait.getLoc();
    auto type = cast<RankedTensorType>(wait.getType());
    if (!type.hasStaticShape())
      return emitDynamicShape(wait);
    Value handle = wait.getFuture();
    if (!handle.getType().isInteger(64))
      return wait.emitOpError("waits for a future that no ppermute_start in "
                              "a device function produced");
    Value outBuffer;
    SmallVector<Value> args = {handle};
    RuntimeFunc callee = RuntimeFunc::ppermute_wait;
    auto direct = directWaits.find(wait);
    if (direct != directWaits.end()) {
      // The sent tensor is read here once more (through a view of any
      // layout, so never a copy): bufferization then keeps its buffer
      // unchanged until the wait, as the runtime may read it until then.
      auto anyLayout = MemRefType::get(
          type.getShape(), type.getElementType(),
          StridedLayoutAttr::get(
              b.getContext(), ShapedType::kDynamic,
              SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic)));
      Value alias = bufferization::ToBufferOp::create(
          b, loc, anyLayout, direct->second.sent, /*read_only=*/true);
      outBuffer = direct->second.out;
      args.append({trellis::bufferAddress(b, loc, direct->second.in),
                   trellis::bufferAddress(b, loc, outBuffer),
                   trellis::bufferAddress(b, loc, alias)});
      callee = RuntimeFunc::ppermute_wait_direct;
      directWaits.erase(direct);
    } else {
      outBuffer = allocBuffer(b, loc, type);
      args.push_back(trellis::bufferAddress(b, loc, outBuffer));
    }
    callRuntime(b, loc, module, callee, args);
    Value result = bufferization::ToTensorOp::create(
        b, loc, type, outBuffer, /*restrict=*/true, /*writable=*/false);
    wait.getResult().replaceAllUsesWith(result);
    wait.erase();
    return success();
  }

  Value axisIndex(OpBuilder &b, Location loc, ManualContext &ctx,
                  ArrayRef<StringAttr> axes) {
    Value packed = trellis::i64Const(b, loc, packAxes(ctx, axes));
    return callRuntime(b, loc, module, RuntimeFunc::axis_index, {packed})
        .getResult(0);
  }

  static Value castIndex(OpBuilder &b, Location loc, Value i64Value, Type to) {
    if (to.isIndex())
      return arith::IndexCastOp::create(b, loc, to, i64Value);
    unsigned width = to.getIntOrFloatBitWidth();
    if (width < 64)
      return arith::TruncIOp::create(b, loc, to, i64Value);
    return i64Value;
  }

  LogicalResult lowerPscatter(OpBuilder &b, ManualContext &ctx, PscatterOp op) {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getOperand().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    int64_t dim = op.getDim();
    int64_t n = op.getGroupSize();
    int64_t block = op.getTiled() ? inType.getDimSize(dim) / n : 1;
    Value idx = castIndex(b, loc, axisIndex(b, loc, ctx, op.getAxisList()),
                          b.getIndexType());
    Value offset = arith::MulIOp::create(
        b, loc, idx, arith::ConstantIndexOp::create(b, loc, block));
    SmallVector<OpFoldResult> offsets(inType.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes,
        strides(inType.getRank(), b.getIndexAttr(1));
    for (int64_t d = 0; d < inType.getRank(); ++d)
      sizes.push_back(b.getIndexAttr(d == dim ? block : inType.getDimSize(d)));
    offsets[dim] = offset;
    auto slice = tensor::ExtractSliceOp::create(
        b, loc, outType, op.getOperand(), offsets, sizes, strides);
    op.replaceAllUsesWith(slice.getResult());
    op.erase();
    return success();
  }
};

} // namespace
