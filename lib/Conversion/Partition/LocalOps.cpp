//===- LocalOps.cpp - One op re-emitted on local blocks -------------------===//
//
// An op whose operands are in the layouts its rule asks for is emitted
// again on the local blocks, with local result types, by its
// ShardingRuleOpInterface::buildLocalOp (tensor ops whose attributes hold
// sizes are rebuilt, others cloned). Ops without a rule run on whole,
// replicated tensors.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

/// Ops without a rule run on whole (replicated) tensors.
LogicalResult FunctionPartitioner::partitionFallback(Operation *op) {
  // The whole operands are mapped for this clone only: other users of an
  // operand keep its block in the operand's own layout.
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    operands.push_back(
        type ? localIn(operand, Layout::replicated(type.getRank()))
             : mapping.lookupOrDefault(operand));
  }
  Operation *clone = cloneOn(op, operands);
  clone->removeAttr(TrellisDialect::kShardingAttrName);
  clone->removeAttr(TrellisDialect::kShardingOriginAttrName);
  for (OpResult result : clone->getResults())
    result.setType(plain(result.getType()));
  for (auto [global, local] :
       llvm::zip(op->getResults(), clone->getResults())) {
    auto type = dyn_cast<RankedTensorType>(global.getType());
    if (!type) {
      mapping.map(global, local);
      continue;
    }
    Layout replicated = Layout::replicated(type.getRank());
    setLocal(global, local, replicated);
    Layout want = desiredLayout(global);
    if (want != replicated)
      setLocal(global,
               resharder.reshard(op->getLoc(), local, type, replicated, want),
               want);
  }
  return success();
}

FailureOr<SmallVector<Value>> FunctionPartitioner::createLocalOp(
    Operation *op, ValueRange operands, ArrayRef<Type> resultTypes,
    const FactorAxes &factorAxes, const ShardingRule &rule,
    ArrayRef<std::pair<int64_t, Value>> payloadMasks) {
  // Where this device's block of a split factor starts: its index along
  // the factor's axes times the block size.
  auto blockOffset = [&](OpBuilder &builder, Location loc, int64_t f) -> Value {
    int64_t block =
        llvm::divideCeil(rule.factorSizes[f], mesh.getAxesSize(factorAxes[f]));
    SmallVector<Attribute> axes(factorAxes[f].begin(), factorAxes[f].end());
    Value rank = spmd::AxisIndexOp::create(builder, loc, builder.getIndexType(),
                                           builder.getArrayAttr(axes));
    return arith::MulIOp::create(
        builder, loc, rank,
        arith::ConstantIndexOp::create(builder, loc, block));
  };
  FactorSplit split{factorAxes, blockOffset};
  FailureOr<SmallVector<Value>> results = failure();
  withCapturedWhole(op, [&] {
    // An op under a rule the user declared computes blockwise by that
    // declaration: it is cloned on the blocks.
    auto iface = dyn_cast<ShardingRuleOpInterface>(op);
    if (!iface || op->hasAttr(TrellisDialect::kRuleAttrName)) {
      Operation *clone = cloneOnLocal(b, op, operands, resultTypes, mapping);
      clone->removeAttr(TrellisDialect::kRuleAttrName);
      results = llvm::to_vector_of<Value>(clone->getResults());
      return;
    }
    results = iface.buildLocalOp(operands, resultTypes, split, mapping, b);
  });
  if (failed(results))
    return failure();
  if (!payloadMasks.empty() && !results->empty())
    results = maskPayload(results->front().getDefiningOp(), payloadMasks);
  if (failed(results))
    return failure();
  // Local ops hold local types: the global sharding of a clone goes.
  for (Value result : *results)
    if (Operation *local = result.getDefiningOp()) {
      local->removeAttr(TrellisDialect::kShardingAttrName);
      local->removeAttr(TrellisDialect::kShardingOriginAttrName);
      if (isMemoryEffectFree(local))
        resharder.eraseIfUnused(local);
    }
  return results;
}
