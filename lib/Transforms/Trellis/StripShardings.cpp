//===- StripShardings.cpp - The unpartitioned global program --------------===//

#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISSTRIPSHARDINGS
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {

Type strip(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    if (isa_and_nonnull<ShardingAttr>(tensor.getEncoding()))
      return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
  return type;
}

/// Replaces an axis-type region op by its body.
void inlineRegion(Operation *op) {
  Block &body = op->getRegion(0).front();
  IRMapping mapping;
  for (auto [arg, input] : llvm::zip(body.getArguments(), op->getOperands()))
    mapping.map(arg, input);
  OpBuilder b(op);
  for (Operation &inner : body.without_terminator())
    b.clone(inner, mapping);
  Operation *yield = body.getTerminator();
  for (auto [result, value] : llvm::zip(op->getResults(), yield->getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(value));
  op->erase();
}

struct StripShardingsPass
    : mlir::trellis::impl::TrellisStripShardingsBase<StripShardingsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> regions;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<AutoAxesOp, ExplicitAxesOp>(op))
        regions.push_back(op);
    });
    // Outer regions first, so inner ones are found in the inlined copies.
    for (Operation *op : regions)
      if (op->getBlock())
        inlineRegion(op);
    module.walk([&](Operation *op) {
      if (isa<ReshardOp, ShardingConstraintOp, PropagationBarrierOp>(op)) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
        return;
      }
      if (isa<ShardingGroupOp>(op)) {
        op->erase();
        return;
      }
      op->removeAttr(TrellisDialect::kShardingAttrName);
      op->removeAttr(TrellisDialect::kShardingOriginAttrName);
      // A tensor constant's value carries its type, encoding included.
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          if (Type plain = strip(dense.getType()); plain != dense.getType())
            constant.setValueAttr(dense.reshape(cast<ShapedType>(plain)));
      for (OpResult result : op->getResults())
        result.setType(strip(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(strip(arg.getType()));
      if (auto func = dyn_cast<FunctionOpInterface>(op)) {
        if (!isa<FunctionType>(func.getFunctionType()))
          return;
        for (unsigned i = 0; i < func.getNumArguments(); ++i) {
          func.removeArgAttr(
              i, StringAttr::get(op->getContext(),
                                 TrellisDialect::kShardingAttrName));
          func.removeArgAttr(
              i, StringAttr::get(op->getContext(),
                                 TrellisDialect::kShardingOriginAttrName));
        }
        for (unsigned i = 0; i < func.getNumResults(); ++i)
          func.removeResultAttr(
              i, StringAttr::get(op->getContext(),
                                 TrellisDialect::kShardingAttrName));
        func.setType(FunctionType::get(
            op->getContext(),
            llvm::map_to_vector(func.getArgumentTypes(), strip),
            llvm::map_to_vector(func.getResultTypes(), strip)));
      }
    });
  }
};

} // namespace
