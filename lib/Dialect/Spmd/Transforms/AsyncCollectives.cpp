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
// With `forward`, a start that sends on what a wait in its block received
// (possibly plus another value: the reduce-scatter ring) becomes
// spmd.ppermute_forward of the wait's future, which the runtime sends on
// when it arrives, without the device: forwards hoist like starts, above
// the waits, so a ring's hops no longer wait for a device thread between
// two matmuls.
//
//===----------------------------------------------------------------------===//

#include "lib/Dialect/Spmd/Transforms/ArithBuilders.h"
#include "trellis/Dialect/Spmd/IR/ManualContext.h"
#include "trellis/Dialect/Spmd/IR/SpmdOps.h"
#include "trellis/Dialect/Spmd/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
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
  if (isa<PpermuteStartOp, PpermuteForwardOp>(op))
    return true;
  if (op->getNumRegions() == 0)
    return false;
  bool found = false;
  op->walk([&](Operation *nested) {
    if (isa<PpermuteOp, PpermuteStartOp, PpermuteForwardOp>(nested)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Moves `start` (a start or a forward) up to just after the last op of its
/// block it must follow.
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

/// Whether every use of `future` is a wait in `block` (one that may be
/// kept alongside a forward).
bool onlyWaitedIn(Value future, Block *block) {
  return llvm::all_of(future.getUsers(), [&](Operation *user) {
    return isa<PpermuteWaitOp>(user) && user->getBlock() == block;
  });
}

/// Rewrites `start` into a forward when it sends a value received by a
/// wait of its block, or such a value plus another (arith.addf/addi with a
/// single use).
void forwardIfReceived(PpermuteStartOp start) {
  Block *block = start->getBlock();
  Value sent = start.getOperand();
  Value addend;
  Operation *add = nullptr;
  auto waitIn = [&](Value v) -> PpermuteWaitOp {
    auto wait = v.getDefiningOp<PpermuteWaitOp>();
    if (wait && wait->getBlock() == block &&
        onlyWaitedIn(wait.getFuture(), block))
      return wait;
    return nullptr;
  };
  PpermuteWaitOp wait = waitIn(sent);
  if (!wait) {
    Operation *def = sent.getDefiningOp();
    if (!def || !isa<arith::AddFOp, arith::AddIOp>(def) ||
        def->getBlock() != block || !sent.hasOneUse())
      return;
    for (int i = 0; i < 2 && !wait; ++i)
      if ((wait = waitIn(def->getOperand(i))))
        addend = def->getOperand(1 - i);
    if (!wait) // (arith adds take and give one type: addend's is sent's)
      return;
    // Sums the runtime adds exactly as arith does: f32, f64 and integers
    // of 8 to 64 bits (not f16 or bf16, which arith rounds per op, nor i1).
    Type element = getElementTypeOrSelf(sent.getType());
    if (!element.isF32() && !element.isF64() &&
        !(element.isInteger() && element.getIntOrFloatBitWidth() >= 8))
      return;
    add = def;
  }
  OpBuilder b(start);
  auto forward = PpermuteForwardOp::create(
      b, start.getLoc(), start.getFuture().getType(), wait.getFuture(), addend,
      start.getAxes(), start.getPairsAttr());
  start.getFuture().replaceAllUsesWith(forward.getResult());
  start.erase();
  if (add) // its one use was the start
    add->erase();
  if (wait->use_empty())
    wait.erase();
}

/// A wait placed before the forward of its future (it must come after:
/// the runtime drops or keeps the payload when the forward is made) moves
/// just below the forward; if one of its users comes first, the forward
/// goes back to a start of the wait's value.
void orderWaitsAfter(PpermuteForwardOp forward) {
  Block *block = forward->getBlock();
  for (Operation *user :
       llvm::make_early_inc_range(forward.getFuture().getUsers())) {
    auto wait = dyn_cast<PpermuteWaitOp>(user);
    if (!wait || !wait->isBeforeInBlock(forward))
      continue;
    bool usedBefore = llvm::any_of(wait->getUsers(), [&](Operation *u) {
      Operation *ancestor = block->findAncestorOpInBlock(*u);
      return !ancestor || !forward->isBeforeInBlock(ancestor);
    });
    if (!usedBefore) {
      wait->moveAfter(forward);
      continue;
    }
    OpBuilder b(forward);
    Value sent = wait.getResult();
    if (Value addend = forward.getAddend())
      sent = buildAdd(b, forward.getLoc(), sent, addend);
    auto start =
        PpermuteStartOp::create(b, forward.getLoc(), forward.getType(), sent,
                                forward.getAxes(), forward.getPairsAttr());
    forward.getResult().replaceAllUsesWith(start.getFuture());
    forward.erase();
    return;
  }
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
      if (forward) {
        SmallVector<PpermuteStartOp> starts(block->getOps<PpermuteStartOp>());
        for (PpermuteStartOp start : starts)
          forwardIfReceived(start);
      }
      SmallVector<Operation *> starts;
      for (Operation &op : *block)
        if (isa<PpermuteStartOp, PpermuteForwardOp>(op))
          starts.push_back(&op);
      for (Operation *start : starts)
        hoistStart(start);
      SmallVector<PpermuteWaitOp> waits(block->getOps<PpermuteWaitOp>());
      for (PpermuteWaitOp wait : waits)
        sinkWait(wait);
      SmallVector<PpermuteForwardOp> forwards(
          block->getOps<PpermuteForwardOp>());
      for (PpermuteForwardOp op : forwards)
        orderWaitsAfter(op);
    }
  }
};

} // namespace
