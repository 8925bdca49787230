//===- CopyRepeatedResults.cpp - One value per returned tensor ------------===//

#include "trellis/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISCOPYREPEATEDRESULTS
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {
struct CopyRepeatedResultsPass
    : mlir::trellis::impl::TrellisCopyRepeatedResultsBase<
          CopyRepeatedResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallDenseSet<Value> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<RankedTensorType>(v.getType());
        if (!type || seen.insert(v).second)
          continue;
        if (!type.hasStaticShape())
          continue; // Dynamic shapes would need sizes; none reach here.
        Value empty = tensor::EmptyOp::create(b, ret.getLoc(), type.getShape(),
                                              type.getElementType());
        Value copy =
            linalg::CopyOp::create(b, ret.getLoc(), v, empty).getResult(0);
        operand.set(copy);
      }
    });
  }
};
} // namespace
