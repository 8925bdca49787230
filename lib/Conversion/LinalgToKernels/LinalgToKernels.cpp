//===- LinalgToKernels.cpp - Contractions to Eigen GEMM calls -------------===//

#include "lib/Conversion/Passes.h"
#include "lib/Conversion/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISLINALGTOKERNELS
#include "lib/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {

/// Position of loop dimension `dim` among the results of `map`, if any.
std::optional<unsigned> resultPosition(AffineMap map, unsigned dim) {
  for (unsigned i = 0; i < map.getNumResults(); ++i)
    if (auto expr = dyn_cast<AffineDimExpr>(map.getResult(i)))
      if (expr.getPosition() == dim)
        return i;
  return std::nullopt;
}

struct Operand {
  Value address;
  SmallVector<Value> strides; // per memref dimension, i64
  AffineMap map;
  Value stride(OpBuilder &b, Location loc, std::optional<unsigned> dim) const {
    if (!dim)
      return trellis::i64Const(b, loc, 0);
    auto pos = resultPosition(map, *dim);
    if (!pos)
      return trellis::i64Const(b, loc, 0);
    return strides[*pos];
  }
};

/// True for a linalg.fill of `buffer` with a constant zero.
bool isZeroFill(Operation *op, Value buffer) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInitOperand(0)->get() != buffer)
    return false;
  Value value = fill.getDpsInputOperand(0)->get();
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The op that gives `init` zeros just before `op` reads it as its
/// accumulator, if any: the last op before `op` with memory effects is
/// either a zero fill of `init`, or a copy into `init` from a buffer whose
/// only writer is a zero fill ahead of the copy (One-Shot Bufferize makes
/// those when CSE merged identical zero-filled tensors). The kernel can then
/// overwrite `init` instead, and that op goes.
Operation *zeroInitializer(Operation *op, Value init, DominanceInfo &dom) {
  Operation *prev = op->getPrevNode();
  while (prev && isMemoryEffectFree(prev))
    prev = prev->getPrevNode();
  if (!prev)
    return nullptr;
  if (isZeroFill(prev, init))
    return prev;
  auto copy = dyn_cast<memref::CopyOp>(prev);
  if (!copy || copy.getTarget() != init)
    return nullptr;
  Value source = copy.getSource();
  if (!source.getDefiningOp<memref::AllocOp>())
    return nullptr;
  Operation *fill = nullptr;
  for (Operation *user : source.getUsers()) {
    if (isZeroFill(user, source)) {
      if (fill)
        return nullptr;
      fill = user;
      continue;
    }
    auto read = dyn_cast<memref::CopyOp>(user);
    if ((read && read.getSource() == source && read.getTarget() != source) ||
        isa<memref::DeallocOp>(user))
      continue;
    return nullptr; // anything else might write it, or alias it
  }
  if (!fill || !dom.properlyDominates(fill, copy))
    return nullptr;
  return copy;
}

/// A zero-filled buffer whose copies all went: the fill, deallocations and
/// allocation go too.
void eraseIfUnread(Value buffer) {
  for (Operation *user : buffer.getUsers())
    if (!isZeroFill(user, buffer) && !isa<memref::DeallocOp>(user))
      return;
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
    user->erase();
  buffer.getDefiningOp()->erase();
}

struct LinalgToKernelsPass
    : mlir::trellis::impl::TrellisLinalgToKernelsBase<LinalgToKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> candidates;
    module.walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && linalg::isaContractionOpInterface(op))
        candidates.push_back(op);
    });
    DominanceInfo dom(module);
    SetVector<Value> zeroSources;
    for (linalg::LinalgOp op : candidates)
      (void)lower(module, op, dom, zeroSources);
    for (Value buffer : zeroSources)
      eraseIfUnread(buffer);
  }

  LogicalResult lower(ModuleOp module, linalg::LinalgOp op, DominanceInfo &dom,
                      SetVector<Value> &zeroSources) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || dims->batch.size() > 1)
      return failure();
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return failure();
    SmallVector<Value> operands = {op.getDpsInputOperand(0)->get(),
                                   op.getDpsInputOperand(1)->get(),
                                   op.getDpsInitOperand(0)->get()};
    Type elementType = cast<MemRefType>(operands[2].getType()).getElementType();
    for (Value v : operands)
      if (cast<MemRefType>(v.getType()).getElementType() != elementType)
        return failure();
    std::optional<int32_t> dtype = trellis::getRuntimeDtype(elementType);
    if (!dtype || !(elementType.isF32() || elementType.isF64() ||
                    elementType.isInteger(32) || elementType.isInteger(64)))
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (AffineMap map : maps)
      if (!map.isProjectedPermutation())
        return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return failure();
    // A holds m and k, B holds k and n, C holds m and n.
    unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
    std::optional<unsigned> batch;
    if (!dims->batch.empty())
      batch = dims->batch[0];
    if (!resultPosition(maps[0], m) || !resultPosition(maps[0], k) ||
        !resultPosition(maps[1], k) || !resultPosition(maps[1], n) ||
        !resultPosition(maps[2], m) || !resultPosition(maps[2], n) ||
        (batch && !resultPosition(maps[2], *batch)))
      return failure();

    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Operand> views;
    for (auto [value, map] : llvm::zip(operands, maps)) {
      Operand view;
      view.map = map;
      view.address = trellis::bufferAddress(b, loc, value, &view.strides);
      views.push_back(view);
    }
    auto c64 = [&](int64_t v) { return trellis::i64Const(b, loc, v); };
    SmallVector<Value> args = {trellis::i32Const(b, loc, *dtype),
                               c64(batch ? ranges[*batch] : 1),
                               c64(ranges[m]),
                               c64(ranges[n]),
                               c64(ranges[k]),
                               views[0].address,
                               views[0].stride(b, loc, batch),
                               views[0].stride(b, loc, m),
                               views[0].stride(b, loc, k),
                               views[1].address,
                               views[1].stride(b, loc, batch),
                               views[1].stride(b, loc, k),
                               views[1].stride(b, loc, n),
                               views[2].address,
                               views[2].stride(b, loc, batch),
                               views[2].stride(b, loc, m),
                               views[2].stride(b, loc, n)};
    Operation *zeros = zeroInitializer(op, operands[2], dom);
    args.push_back(trellis::i32Const(b, loc, zeros ? 0 : 1));
    SmallVector<Type> types =
        llvm::map_to_vector(args, [](Value v) { return v.getType(); });
    func::FuncOp callee = trellis::getOrDeclareRuntimeFunc(
        module, "trellis_rt_matmul", types, {});
    func::CallOp::create(b, loc, callee, args);
    op->erase();
    if (zeros) {
      if (auto copy = dyn_cast<memref::CopyOp>(zeros))
        zeroSources.insert(copy.getSource());
      zeros->erase();
    }
    return success();
  }
};

} // namespace
