//===- VerifyManual.cpp - Only per-device code is left --------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISVERIFYMANUAL
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {
/// The first sharded type among `types`, if any.
std::optional<Type> shardedType(TypeRange types) {
  for (Type type : types)
    if (getShardingEncoding(type))
      return type;
  return std::nullopt;
}

struct VerifyManualPass
    : mlir::trellis::impl::TrellisVerifyManualBase<VerifyManualPass> {
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (failed(check(op)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
    markAllAnalysesPreserved();
  }

  LogicalResult check(Operation *op) {
    static constexpr StringLiteral kFix =
        " after trellis-global-to-manual; only per-device code can be "
        "lowered";
    if (isa_and_nonnull<TrellisDialect>(op->getDialect()) && !isa<MeshOp>(op))
      return op->emitOpError("is left") << kFix;
    bool manual = op->getParentOfType<spmd::ShardMapOp>() != nullptr;
    // Global code computes replicated values; the only global values
    // whose type may be sharded are a function's arguments and what its
    // shard_maps assemble. (A `trellis.sharding` attribute propagation
    // left on an op is a hint that nothing after partitioning reads.)
    if (std::optional<Type> type = shardedType(op->getResultTypes()))
      if (manual || !isa<spmd::ShardMapOp>(op))
        return op->emitOpError("still has a result of sharded type ")
               << *type << kFix;
    if (isa<FunctionOpInterface>(op))
      return success();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (std::optional<Type> type = shardedType(block.getArgumentTypes()))
          return op->emitOpError("still has a block argument of sharded type ")
                 << *type << kFix;
    return success();
  }
};
} // namespace
