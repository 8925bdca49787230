//===- AsyncCollectives.cpp - ppermute start/wait and their schedule ------===//
//
// Splits every spmd.ppermute into spmd.ppermute_start + spmd.ppermute_wait
// and schedules the pair within its block: the start as early as its
// operand allows, the wait just before the first use of its result. Starts
// keep their relative order (they never cross another start, or an op
// whose regions communicate), so the k-th start of a group is the same op
// on every device; starts never block, so hoisting them and sinking waits
// cannot introduce a deadlock.
//
//===----------------------------------------------------------------------===//

#include "trellis/Dialect/Spmd/IR/ManualContext.h"
#include "trellis/Dialect/Spmd/IR/SpmdOps.h"
#include "trellis/Dialect/Spmd/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDASYNCCOLLECTIVES
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// Whether `op` is a start, or holds a ppermute or a start in its regions:
/// a start may not move above it.
bool ordersStarts(Operation *op) {
  if (isa<PpermuteStartOp>(op))
    return true;
  if (op->getNumRegions() == 0)
    return false;
  bool found = false;
  op->walk([&](Operation *nested) {
    if (isa<PpermuteOp, PpermuteStartOp>(nested)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Moves `start` up to just after the last op of its block it must follow.
void hoistStart(PpermuteStartOp start) {
  SmallPtrSet<Operation *, 2> operandDefs;
  for (Value operand : start->getOperands())
    if (Operation *def = operand.getDefiningOp())
      operandDefs.insert(def);
  Operation *stop = nullptr;
  for (Operation *prev = start->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    if (operandDefs.contains(prev) || ordersStarts(prev)) {
      stop = prev;
      break;
    }
  }
  Block *block = start->getBlock();
  if (stop)
    start->moveAfter(stop);
  else
    start->moveBefore(block, block->begin());
}

/// Moves `wait` down to just before the first op of its block that uses its
/// result (directly or inside its regions), or the terminator.
void sinkWait(PpermuteWaitOp wait) {
  Block *block = wait->getBlock();
  Operation *first = block->getTerminator();
  for (Operation *user : wait->getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && ancestor->isBeforeInBlock(first))
      first = ancestor;
  }
  if (first && first != wait.getOperation() && wait->isBeforeInBlock(first))
    wait->moveBefore(first);
}

struct AsyncCollectivesPass
    : spmd::impl::SpmdAsyncCollectivesBase<AsyncCollectivesPass> {
  using SpmdAsyncCollectivesBase::SpmdAsyncCollectivesBase;

  void runOnOperation() override {
    SmallVector<PpermuteOp> permutes;
    getOperation()->walk([&](PpermuteOp op) {
      if (getManualContext(op))
        permutes.push_back(op);
    });
    llvm::SetVector<Block *> blocks;
    for (PpermuteOp op : permutes) {
      OpBuilder b(op);
      auto futureType =
          FutureType::get(op.getContext(), op.getOperand().getType());
      auto start =
          PpermuteStartOp::create(b, op.getLoc(), futureType, op.getOperand(),
                                  op.getAxes(), op.getPairsAttr());
      auto wait = PpermuteWaitOp::create(b, op.getLoc(), start);
      op.getResult().replaceAllUsesWith(wait.getResult());
      op.erase();
      blocks.insert(start->getBlock());
    }
    if (!schedule)
      return;
    for (Block *block : blocks) {
      SmallVector<PpermuteStartOp> starts(block->getOps<PpermuteStartOp>());
      for (PpermuteStartOp start : starts)
        hoistStart(start);
      SmallVector<PpermuteWaitOp> waits(block->getOps<PpermuteWaitOp>());
      for (PpermuteWaitOp wait : waits)
        sinkWait(wait);
    }
  }
};

} // namespace
