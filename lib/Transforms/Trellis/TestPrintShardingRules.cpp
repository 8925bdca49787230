//===- TestPrintShardingRules.cpp - Rules as remarks ----------------------===//

#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "trellis/Transforms/Trellis/Passes.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISTESTPRINTSHARDINGRULES
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {
struct TestPrintShardingRulesPass
    : mlir::trellis::impl::TrellisTestPrintShardingRulesBase<
          TestPrintShardingRulesPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      FailureOr<ShardingRule> rule = getShardingRule(op);
      if (succeeded(rule))
        op->emitRemark() << "sharding rule: " << rule->str();
    });
  }
};
} // namespace
