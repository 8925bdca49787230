//===- LinalgToKernels.cpp - Contractions to Eigen GEMM calls -------------===//

#include "lib/Conversion/Passes.h"
#include "lib/Conversion/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

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

struct LinalgToKernelsPass
    : mlir::trellis::impl::TrellisLinalgToKernelsBase<LinalgToKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> candidates;
    module.walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() && linalg::isaContractionOpInterface(op))
        candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates)
      (void)lower(module, op);
  }

  LogicalResult lower(ModuleOp module, linalg::LinalgOp op) {
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
    SmallVector<Type> types =
        llvm::map_to_vector(args, [](Value v) { return v.getType(); });
    func::FuncOp callee = trellis::getOrDeclareRuntimeFunc(
        module, "trellis_rt_matmul", types, {});
    func::CallOp::create(b, loc, callee, args);
    op->erase();
    return success();
  }
};

} // namespace
