//===- InlineCalls.cpp - Inline calls before partitioning -----------------===//

#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISINLINECALLS
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {

struct InlineCallsPass
    : trellis::impl::TrellisInlineCallsBase<InlineCallsPass> {
  void runOnOperation() override {
    bool hasCalls =
        getOperation()
            ->walk([](CallOpInterface) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (!hasCalls)
      return markAllAnalysesPreserved();
    OpPassManager pm(ModuleOp::getOperationName());
    // No simplification pipeline: the partitioner's pipeline canonicalizes
    // once at the end.
    pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
    pm.addPass(createSymbolDCEPass());
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};

} // namespace
