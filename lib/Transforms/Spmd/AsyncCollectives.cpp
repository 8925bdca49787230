//===- AsyncCollectives.cpp - ppermute start/wait and their schedule ------===//
//
// Splits every spmd.ppermute into spmd.ppermute_start + spmd.ppermute_wait
// (with kinds=all also all_gather, psum_scatter, psum and all_to_all into
// their starts + spmd.collective_wait) and schedules each pair within its
// block: the start as early as its operand allows, the wait just before
// the first use of its result. Starts
// keep their relative order (they never cross another start, or an op
// whose regions communicate), so the k-th start of a group is the same op
// on every device; starts never block, so hoisting them and sinking waits
// cannot introduce a deadlock.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDASYNCCOLLECTIVES
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// Whether `op` is a start, or holds a ppermute or a start in its regions:
/// a start may not move above it.
bool ordersStarts(Operation *op) {
  if (isCollectiveStart(op))
    return true;
  if (op->getNumRegions() == 0)
    return false;
  bool found = false;
  op->walk([&](Operation *nested) {
    if (isa<PpermuteOp>(nested) || isCollectiveStart(nested)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Moves `start` up to just after the last op of its block it must follow.
void hoistStart(Operation *start) {
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
void sinkWait(Operation *wait) {
  Block *block = wait->getBlock();
  Operation *first = block->getTerminator();
  for (Operation *user : wait->getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && ancestor->isBeforeInBlock(first))
      first = ancestor;
  }
  if (first && first != wait && wait->isBeforeInBlock(first))
    wait->moveBefore(first);
}

Operation *splitOne(Operation *op) {
  Location loc = op->getLoc();
  if (auto permute = dyn_cast<PpermuteOp>(op)) {
    // A ppermute's future holds its operand's type (the same as its
    // result's).
    OpBuilder b(op);
    auto futureType =
        FutureType::get(op->getContext(), permute.getOperand().getType());
    auto start =
        PpermuteStartOp::create(b, loc, futureType, permute.getOperand(),
                                permute.getAxes(), permute.getPairsAttr());
    auto wait = PpermuteWaitOp::create(b, loc, start);
    permute.getResult().replaceAllUsesWith(wait.getResult());
    permute.erase();
    return start;
  }
  // The others: a start and a spmd.collective_wait.
  OpBuilder b(op);
  Value future = buildCollectiveStart(b, op, op->getOperand(0));
  auto wait = CollectiveWaitOp::create(b, loc, future);
  op->getResult(0).replaceAllUsesWith(wait.getResult());
  op->erase();
  return future.getDefiningOp();
}

struct AsyncCollectivesPass
    : spmd::impl::SpmdAsyncCollectivesBase<AsyncCollectivesPass> {
  using SpmdAsyncCollectivesBase::SpmdAsyncCollectivesBase;

  void runOnOperation() override {
    if (kinds != "ppermute" && kinds != "all") {
      getOperation()->emitError("spmd-async-collectives: kinds must be "
                                "`ppermute` or `all`, not `")
          << kinds << "`";
      return signalPassFailure();
    }
    const bool all = kinds == "all";
    SmallVector<Operation *> collectives;
    getOperation()->walk([&](Operation *op) {
      bool splits =
          isa<PpermuteOp>(op) ||
          (all && isa<AllGatherOp, PsumScatterOp, PsumOp, AllToAllOp>(op));
      if (splits && getManualContext(op))
        collectives.push_back(op);
    });
    llvm::SetVector<Block *> blocks;
    for (Operation *op : collectives)
      blocks.insert(splitOne(op)->getBlock());
    if (!schedule)
      return;
    for (Block *block : blocks) {
      SmallVector<Operation *> starts, waits;
      for (Operation &op : *block) {
        if (isCollectiveStart(&op))
          starts.push_back(&op);
        else if (isa<PpermuteWaitOp, CollectiveWaitOp>(op))
          waits.push_back(&op);
      }
      for (Operation *start : starts)
        hoistStart(start);
      for (Operation *wait : waits)
        sinkWait(wait);
    }
  }
};

} // namespace
