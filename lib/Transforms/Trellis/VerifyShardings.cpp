//===- VerifyShardings.cpp - Check sharding encodings ---------------------===//

#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Transforms/Trellis/Passes.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISVERIFYSHARDINGS
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {
struct VerifyShardingsPass
    : mlir::trellis::impl::TrellisVerifyShardingsBase<VerifyShardingsPass> {
  void runOnOperation() override {
    if (failed(verifyShardingEncodings(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
