//===- DecomposeAggregates.cpp - Aggregate linalg ops to structured ops ---===//

#include "trellis/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISDECOMPOSEAGGREGATES
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {
struct DecomposeAggregatesPass
    : mlir::trellis::impl::TrellisDecomposeAggregatesBase<
          DecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    for (linalg::AggregatedOpInterface op : ops) {
      OpBuilder b(op);
      FailureOr<SmallVector<Value>> values = op.decomposeOperation(b);
      if (failed(values)) {
        op->emitOpError("could not be decomposed into structured ops");
        return signalPassFailure();
      }
      op->replaceAllUsesWith(*values);
      op->erase();
    }
  }
};
} // namespace
