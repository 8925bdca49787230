//===- SpmdToRuntime.cpp - Collectives to runtime calls -------------------===//
//
// The pass around the patterns of CollectivePatterns.cpp: futures become
// i64 handles, each spmd op of a device function is rewritten by its
// pattern in program order (a direct ppermute's start before its wait), and
// nothing of the spmd dialect but shard_maps may be left.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/SpmdToRuntime/SpmdToRuntime.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Conversion/Passes.h"
#include "trellis/Conversion/RuntimeABI.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_SPMDTORUNTIME
#include "trellis/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// Futures are runtime handles: values carried through control flow (loop
/// iter_args, results) become i64 first; the start and wait patterns
/// produce and consume the handles.
void futuresToHandles(ModuleOp module) {
  Type i64 = IntegerType::get(module.getContext(), 64);
  module.walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      if (isa<FutureType>(result.getType()) &&
          !isa<PpermuteStartOp, AllGatherStartOp, PsumScatterStartOp,
               PsumStartOp, AllToAllStartOp>(op))
        result.setType(i64);
    if (isa<FunctionOpInterface>(op))
      return;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isa<FutureType>(arg.getType()))
            arg.setType(i64);
  });
}

struct SpmdToRuntimePass
    : mlir::trellis::impl::SpmdToRuntimeBase<SpmdToRuntimePass> {
  using SpmdToRuntimeBase::SpmdToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    futuresToHandles(module);
    if (failed(trellis::verifyRuntimeDeclarations(module)))
      return signalPassFailure();
    trellis::SpmdToRuntimeState state(module, async);
    if (auto existing =
            module->getAttrOfType<ArrayAttr>(SpmdDialect::kSitesAttrName))
      state.sites.assign(existing.begin(), existing.end());
    RewritePatternSet patterns(&getContext());
    trellis::populateSpmdToRuntimePatterns(patterns, state);
    FrozenRewritePatternSet frozen(std::move(patterns));
    PatternApplicator applicator(frozen);
    applicator.applyDefaultCostModel();

    // Program order (a forward post-order walk): site numbers follow the
    // source, and a direct ppermute_start is rewritten before its wait.
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<SpmdDialect>(op->getDialect()) &&
          !isa<ShardMapOp, YieldOp>(op))
        ops.push_back(op);
    });
    PatternRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      // The runtime's functions are declared in `module`; a call from
      // inside a nested symbol table (a builtin.module in a function body,
      // say) would not find them.
      if (SymbolTable::getNearestSymbolTable(op) != module) {
        op->emitOpError("is inside a nested symbol table; spmd-to-runtime "
                        "lowers ops of the top-level module's functions only");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (succeeded(applicator.matchAndRewrite(op, rewriter)))
        continue;
      // The pattern said why; an op without a pattern is a gap in the
      // lowering, and must not reach the JIT.
      if (!state.failed)
        op->emitOpError("has no lowering to the runtime");
      return signalPassFailure();
    }
    module->setAttr(SpmdDialect::kSitesAttrName,
                    ArrayAttr::get(&getContext(), state.sites));
  }
};

} // namespace
