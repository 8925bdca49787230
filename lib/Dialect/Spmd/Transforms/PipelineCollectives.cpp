//===- PipelineCollectives.cpp - Gather one loop iteration ahead ----------===//
//
// spmd-pipeline-collectives: in a counted loop, an all_gather whose operand
// depends only on the induction variable and on values from outside the
// loop is started one iteration ahead, its future carried in the loop; the
// last iteration is peeled so that no gather is wasted.
//
//===----------------------------------------------------------------------===//

#include "trellis/Dialect/Spmd/IR/ManualContext.h"
#include "trellis/Dialect/Spmd/IR/SpmdOps.h"
#include "trellis/Dialect/Spmd/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDPIPELINECOLLECTIVES
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// The ops of `loop`'s body that compute `value` (in block order), when it
/// depends only on the induction variable and on values from outside the
/// loop through pure ops without regions; none otherwise.
std::optional<SmallVector<Operation *>> operandSlice(scf::ForOp loop,
                                                     Value value) {
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body)
        return std::nullopt; // a loop-carried value
      continue;              // from outside the loop
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      continue;
    if (def->getBlock() != body || def->getNumRegions() != 0 || !isPure(def))
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Clones `slice` at `b` with the induction variable of `loop` mapped to
/// `iv` and returns the clone of `value`.
Value cloneSlice(OpBuilder &b, scf::ForOp loop, ArrayRef<Operation *> slice,
                 Value value, Value iv) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  for (Operation *op : slice)
    b.clone(*op, map);
  return map.lookupOrDefault(value);
}

AllGatherStartOp startGather(OpBuilder &b, AllGatherOp gather, Value operand) {
  auto type = FutureType::get(b.getContext(), gather.getType());
  return AllGatherStartOp::create(b, gather.getLoc(), type, operand,
                                  gather.getAxes(), gather.getDimAttr(),
                                  gather.getTiledAttr());
}

/// Pipelines the gathers of `loop` that qualify; returns whether it did.
bool pipeline(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  // At least two iterations: one in the loop, one peeled. Unsigned
  // comparisons (and spans that overflow) are left alone.
  int64_t span;
  if (!lb || !ub || !step || *step <= 0 || loop.getUnsignedCmp() ||
      llvm::SubOverflow(*ub, *lb, span) || span <= *step)
    return false;
  if (!loop.getInductionVar().getType().isIndex())
    return false;
  SmallVector<AllGatherOp> gathers;
  SmallVector<SmallVector<Operation *>> slices;
  for (auto gather : loop.getBody()->getOps<AllGatherOp>()) {
    std::optional<SmallVector<Operation *>> slice =
        operandSlice(loop, gather.getOperand());
    if (!slice)
      continue;
    gathers.push_back(gather);
    slices.push_back(std::move(*slice));
  }
  if (gathers.empty())
    return false;
  // The last iteration's trip runs after the loop: the loop stops one step
  // early (the bounds are constants, so this is exact).
  const int64_t last = *lb + ((span - 1) / *step) * *step;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  SmallVector<Value> firsts;
  Value lbValue = arith::ConstantIndexOp::create(b, loc, *lb);
  for (auto [gather, slice] : llvm::zip(gathers, slices))
    firsts.push_back(startGather(
        b, gather, cloneSlice(b, loop, slice, gather.getOperand(), lbValue)));
  // One iteration of the original body at `at`, with induction variable
  // `iv`, carried values `carried` and each gather replaced by a wait for
  // the matching future of `futures`; returns the values it yields.
  unsigned numOld = loop.getNumRegionIterArgs();
  auto cloneIteration = [&](OpBuilder &at, Value iv, ValueRange carried,
                            ValueRange futures) {
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    map.map(loop.getRegionIterArgs(), carried);
    for (Operation &op : loop.getBody()->without_terminator()) {
      auto it = llvm::find(gathers, dyn_cast<AllGatherOp>(&op));
      if (it == gathers.end()) {
        at.clone(op, map);
        continue;
      }
      map.map(op.getResult(0),
              CollectiveWaitOp::create(at, op.getLoc(),
                                       futures[it - gathers.begin()]));
    }
    SmallVector<Value> yields;
    for (Value v : loop.getBody()->getTerminator()->getOperands())
      yields.push_back(map.lookupOrDefault(v));
    return yields;
  };
  // The loop over all iterations but the last, carrying the futures; it
  // starts the next iteration's gathers first.
  Value lastValue = arith::ConstantIndexOp::create(b, loc, last);
  SmallVector<Value> inits(loop.getInitArgs());
  llvm::append_range(inits, firsts);
  auto newLoop = scf::ForOp::create(b, loc, loop.getLowerBound(), lastValue,
                                    loop.getStep(), inits);
  OpBuilder inner = OpBuilder::atBlockBegin(newLoop.getBody());
  Value next = arith::AddIOp::create(inner, loc, newLoop.getInductionVar(),
                                     newLoop.getStep());
  SmallVector<Value> nextFutures;
  for (auto [gather, slice] : llvm::zip(gathers, slices))
    nextFutures.push_back(
        startGather(inner, gather,
                    cloneSlice(inner, loop, slice, gather.getOperand(), next)));
  ValueRange iterArgs = newLoop.getRegionIterArgs();
  SmallVector<Value> yields =
      cloneIteration(inner, newLoop.getInductionVar(),
                     iterArgs.take_front(numOld), iterArgs.drop_front(numOld));
  llvm::append_range(yields, nextFutures);
  scf::YieldOp::create(inner, loc, yields);
  // The last iteration, peeled: its gathers' futures come out of the loop.
  ValueRange loopResults = newLoop.getResults();
  SmallVector<Value> results =
      cloneIteration(b, lastValue, loopResults.take_front(numOld),
                     loopResults.drop_front(numOld));
  loop.replaceAllUsesWith(results);
  loop.erase();
  return true;
}

struct PipelineCollectivesPass
    : spmd::impl::SpmdPipelineCollectivesBase<PipelineCollectivesPass> {
  using SpmdPipelineCollectivesBase::SpmdPipelineCollectivesBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (getManualContext(loop))
        loops.push_back(loop);
    });
    // Inner loops first (the walk is post-order); a pipelined loop is
    // replaced, so outer loops are collected before any rewrite.
    for (scf::ForOp loop : loops)
      pipeline(loop);
  }
};

} // namespace
