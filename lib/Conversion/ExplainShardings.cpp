//===- ExplainShardings.cpp - Origins of shardings, causes of reshards ----===//

#include "trellis/Conversion/Passes.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISEXPLAINSHARDINGS
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {
struct ExplainShardingsPass
    : mlir::trellis::impl::TrellisExplainShardingsBase<ExplainShardingsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Propagation with origins, on the module itself.
    OpPassManager propagate(ModuleOp::getOperationName());
    propagate.addPass(createTrellisInlineCalls());
    propagate.addPass(createTrellisInferShardings());
    TrellisPropagateOptions explain;
    explain.explain = true;
    propagate.addPass(createTrellisPropagate(explain));
    if (failed(runPipeline(propagate, module)))
      return signalPassFailure();
    // The reshards, from partitioning a copy (the module stays global).
    OwningOpRef<ModuleOp> copy(cast<ModuleOp>(module->clone()));
    PassManager partition(module.getContext());
    TrellisPartitionOptions report;
    report.reportReshards = true;
    partition.addPass(createTrellisPartition(report));
    if (failed(partition.run(*copy)))
      return signalPassFailure();
  }
};
} // namespace
