//===- PipelineCollectives.cpp - Collectives across loop iterations -------===//
//
// spmd-pipeline-collectives: in a counted loop,
//  - an all_gather whose operand depends only on the induction variable and
//    on values from outside the loop is started one iteration ahead, its
//    future carried in the loop, and the last iteration is peeled so that
//    no gather is wasted (the forward layer loop of FSDP);
//  - a collective whose result only accumulates into loop-carried values
//    that nothing else in the body reads is waited for one iteration late:
//    iteration k starts it, iteration k + 1 waits for it and accumulates,
//    and the accumulation of the last iteration follows the loop (the
//    gradient reduce-scatters of the backward layer loop). The first
//    iteration is peeled, since it has nothing to accumulate yet.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDPIPELINECOLLECTIVES
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// The values `op` reads: its operands and the values its regions use from
/// above it.
SmallVector<Value> readValues(Operation *op) {
  SmallVector<Value> values(op->getOperands());
  if (op->getNumRegions() != 0) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    llvm::append_range(values, above);
  }
  return values;
}

void sortInBlockOrder(SmallVectorImpl<Operation *> &ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

/// The ops of `loop`'s body that compute `value` (in block order), when it
/// depends only on the induction variable and on values from outside the
/// loop, through ops without memory effects; none otherwise.
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
    if (def->getBlock() != body || !isMemoryEffectFree(def))
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, readValues(def));
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  sortInBlockOrder(ordered);
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

bool isDeferrable(Operation *op) {
  return isa<AllGatherOp, PsumScatterOp, PsumOp, AllToAllOp>(op);
}

/// Collectives whose wait moves to the next iteration, and what their
/// results feed.
struct Deferral {
  /// The collectives, in block order.
  SmallVector<Operation *> collectives;
  /// The ops of the body their results reach (the accumulation), in block
  /// order; none of them has memory effects.
  SmallVector<Operation *> consumers;
  /// Those and the ops the results reach that yield nothing (dead code):
  /// the iteration that starts the collectives runs none of them.
  llvm::SmallPtrSet<Operation *, 8> moved;
  /// The loop-carried values the consumers yield: only consumers read them.
  llvm::BitVector accumulated;
  /// Values the consumers read from the rest of the body, recomputed for
  /// the previous iteration by the ops of `recomputed` (a slice of the
  /// induction variable and outside values) or carried to the next
  /// iteration (`carried`).
  SmallVector<Operation *> recomputed;
  SmallVector<Value> carried;

  bool empty() const { return collectives.empty(); }
};

/// Whether `collectives` (in block order) can be deferred together; fills
/// `d` when they can.
bool analyseDeferral(scf::ForOp loop, ArrayRef<Operation *> collectives,
                     Deferral &d) {
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  llvm::SmallPtrSet<Operation *, 4> deferred(collectives.begin(),
                                             collectives.end());
  llvm::SetVector<Operation *> consumers;
  llvm::BitVector accumulated(loop.getNumRegionIterArgs());
  SmallVector<Value> work;
  for (Operation *op : collectives)
    work.push_back(op->getResult(0));
  // The closure of the results' users, which also takes in every reader of
  // a carried value they yield (the accumulator: in `acc[i] += r` the
  // extract_slice of acc reads no result but must wait for the previous
  // iteration's accumulation).
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield) {
        unsigned k = use.getOperandNumber();
        if (!accumulated.test(k)) {
          accumulated.set(k);
          work.push_back(loop.getRegionIterArg(k));
        }
        continue;
      }
      // Read inside a region, by another deferred collective, or by an op
      // that cannot move to the next iteration.
      if (user->getBlock() != body || deferred.contains(user) ||
          !isMemoryEffectFree(user))
        return false;
      if (consumers.insert(user))
        llvm::append_range(work, user->getResults());
    }
  }
  // Consumers whose results reach no yield (dead code, such as the zero
  // tensor trellis-grad inserts a slice into before accumulating it) are
  // dropped.
  llvm::SetVector<Operation *> reaching;
  SmallVector<Operation *> pending;
  for (unsigned k : accumulated.set_bits())
    if (Operation *def = yield->getOperand(k).getDefiningOp())
      pending.push_back(def);
  while (!pending.empty()) {
    Operation *op = pending.pop_back_val();
    if (!consumers.contains(op) || !reaching.insert(op))
      continue;
    for (Value v : readValues(op))
      if (Operation *def = v.getDefiningOp())
        pending.push_back(def);
  }
  d = Deferral();
  d.moved.insert(consumers.begin(), consumers.end());
  consumers = std::move(reaching);
  // What the consumers read from the rest of the body.
  llvm::SetVector<Value> live;
  for (Operation *op : consumers)
    for (Value v : readValues(op)) {
      if (v == loop.getInductionVar())
        continue;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == body && !accumulated.test(arg.getArgNumber() - 1))
          live.insert(v);
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (def->getBlock() == body && !consumers.contains(def) &&
          !deferred.contains(def))
        live.insert(v);
    }
  d.collectives.assign(collectives.begin(), collectives.end());
  d.consumers.assign(consumers.begin(), consumers.end());
  sortInBlockOrder(d.consumers);
  d.accumulated = std::move(accumulated);
  llvm::SetVector<Operation *> recomputed;
  for (Value v : live) {
    std::optional<SmallVector<Operation *>> slice;
    if (!isa<BlockArgument>(v))
      slice = operandSlice(loop, v);
    if (slice)
      recomputed.insert(slice->begin(), slice->end());
    else
      d.carried.push_back(v);
  }
  d.recomputed.assign(recomputed.begin(), recomputed.end());
  sortInBlockOrder(d.recomputed);
  return true;
}

/// The largest set of the body's collectives that can be deferred, taken
/// greedily in block order.
Deferral findDeferral(scf::ForOp loop, ArrayRef<AllGatherOp> prefetched) {
  SmallVector<Operation *> accepted;
  Deferral best;
  best.accumulated.resize(loop.getNumRegionIterArgs());
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (!isDeferrable(&op) ||
        llvm::is_contained(prefetched, dyn_cast<AllGatherOp>(&op)))
      continue;
    accepted.push_back(&op);
    Deferral candidate;
    if (analyseDeferral(loop, accepted, candidate))
      best = std::move(candidate);
    else
      accepted.pop_back();
  }
  return best;
}

/// Rewrites one loop: prefetches `gathers` (whose operands are computed by
/// `slices`) and defers `deferral`.
class Pipeliner {
public:
  Pipeliner(scf::ForOp loop, ArrayRef<AllGatherOp> gathers,
            ArrayRef<SmallVector<Operation *>> slices, Deferral deferral)
      : loop(loop), gathers(gathers), slices(slices),
        deferral(std::move(deferral)) {}

  void rewrite(int64_t lb, int64_t step, int64_t last);

private:
  /// What flows from one iteration to the next.
  struct State {
    /// The loop's carried values; the accumulated ones lag one iteration
    /// behind while deferred collectives are in flight.
    SmallVector<Value> iterArgs;
    SmallVector<Value> gatherFutures;
    SmallVector<Value> deferredFutures;
    SmallVector<Value> carried;
    /// The iteration whose deferred collectives are in flight (null when
    /// none are).
    Value inFlight;

    SmallVector<Value> flatten() const {
      SmallVector<Value> all(iterArgs);
      llvm::append_range(all, gatherFutures);
      llvm::append_range(all, deferredFutures);
      llvm::append_range(all, carried);
      return all;
    }
  };

  /// `like`'s layout over `values`, with `inFlight` as given.
  State unflatten(const State &like, ValueRange values, Value inFlight) const {
    State s;
    auto take = [&](size_t n) {
      SmallVector<Value> part(values.take_front(n));
      values = values.drop_front(n);
      return part;
    };
    s.iterArgs = take(like.iterArgs.size());
    s.gatherFutures = take(like.gatherFutures.size());
    s.deferredFutures = take(like.deferredFutures.size());
    s.carried = take(like.carried.size());
    s.inFlight = inFlight;
    return s;
  }

  SmallVector<Value> startGathers(OpBuilder &b, Value iv) {
    SmallVector<Value> futures;
    for (auto [gather, slice] : llvm::zip(gathers, slices)) {
      AllGatherOp op = gather;
      futures.push_back(buildCollectiveStart(
          b, op, cloneSlice(b, loop, slice, op.getOperand(), iv)));
    }
    return futures;
  }

  /// Waits for `s`'s deferred collectives and runs their consumers for
  /// iteration `s.inFlight`, updating `s.iterArgs`' accumulated values.
  void accumulate(OpBuilder &b, State &s);

  /// One iteration of the body at `b`, at induction variable `iv`, from
  /// state `in`; starts the gathers of iteration `next` unless it is null.
  State iteration(OpBuilder &b, Value iv, State in, Value next);

  scf::ForOp loop;
  ArrayRef<AllGatherOp> gathers;
  ArrayRef<SmallVector<Operation *>> slices;
  Deferral deferral;
};

void Pipeliner::accumulate(OpBuilder &b, State &s) {
  if (!s.inFlight)
    return;
  IRMapping map;
  map.map(loop.getInductionVar(), s.inFlight);
  for (unsigned k : deferral.accumulated.set_bits())
    map.map(loop.getRegionIterArg(k), s.iterArgs[k]);
  for (auto [op, future] : llvm::zip(deferral.collectives, s.deferredFutures))
    map.map(op->getResult(0),
            CollectiveWaitOp::create(b, op->getLoc(), future));
  map.map(deferral.carried, s.carried);
  for (Operation *op : deferral.recomputed)
    b.clone(*op, map);
  for (Operation *op : deferral.consumers)
    b.clone(*op, map);
  Operation *yield = loop.getBody()->getTerminator();
  for (unsigned k : deferral.accumulated.set_bits())
    s.iterArgs[k] = map.lookupOrDefault(yield->getOperand(k));
  s.deferredFutures.clear();
  s.inFlight = nullptr;
}

Pipeliner::State Pipeliner::iteration(OpBuilder &b, Value iv, State in,
                                      Value next) {
  State out;
  if (next)
    out.gatherFutures = startGathers(b, next);
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  for (unsigned k = 0; k < loop.getNumRegionIterArgs(); ++k)
    if (!deferral.accumulated.test(k))
      map.map(loop.getRegionIterArg(k), in.iterArgs[k]);
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto it = llvm::find(gathers, dyn_cast<AllGatherOp>(&op));
    if (it != gathers.end()) {
      map.map(op.getResult(0),
              CollectiveWaitOp::create(b, op.getLoc(),
                                       in.gatherFutures[it - gathers.begin()]));
      continue;
    }
    if (llvm::is_contained(deferral.collectives, &op)) {
      // The previous iteration's collectives complete before this one's
      // start: one round in flight at a time.
      accumulate(b, in);
      out.deferredFutures.push_back(
          buildCollectiveStart(b, &op, map.lookupOrDefault(op.getOperand(0))));
      continue;
    }
    if (!deferral.moved.contains(&op))
      b.clone(op, map);
  }
  Operation *yield = loop.getBody()->getTerminator();
  for (unsigned k = 0; k < loop.getNumRegionIterArgs(); ++k)
    out.iterArgs.push_back(deferral.accumulated.test(k)
                               ? in.iterArgs[k]
                               : map.lookupOrDefault(yield->getOperand(k)));
  for (Value v : deferral.carried)
    out.carried.push_back(map.lookupOrDefault(v));
  if (!deferral.empty())
    out.inFlight = iv;
  return out;
}

void Pipeliner::rewrite(int64_t lb, int64_t step, int64_t last) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  State s;
  s.iterArgs.assign(loop.getInitArgs().begin(), loop.getInitArgs().end());
  if (!gathers.empty())
    s.gatherFutures = startGathers(b, constant(lb));
  // Deferring peels the first iteration (nothing to accumulate before it),
  // prefetching the last (nothing to prefetch in it).
  int64_t begin = lb, end = last + step;
  if (!deferral.empty()) {
    s = iteration(b, constant(lb), s,
                  gathers.empty() ? Value() : constant(lb + step));
    begin = lb + step;
  }
  Value endValue;
  if (!gathers.empty()) {
    end = last;
    endValue = constant(last); // also the peeled iteration's
  }
  if (begin < end) {
    SmallVector<Value> inits = s.flatten();
    auto newLoop = scf::ForOp::create(b, loc, constant(begin),
                                      endValue ? endValue : constant(end),
                                      loop.getStep(), inits);
    OpBuilder inner = OpBuilder::atBlockBegin(newLoop.getBody());
    Value iv = newLoop.getInductionVar();
    Value next, previous;
    if (!gathers.empty())
      next = arith::AddIOp::create(inner, loc, iv, newLoop.getStep());
    if (!deferral.empty())
      previous = arith::SubIOp::create(inner, loc, iv, newLoop.getStep());
    State in = unflatten(s, newLoop.getRegionIterArgs(), previous);
    State out = iteration(inner, iv, in, next);
    scf::YieldOp::create(inner, loc, out.flatten());
    // The loop's last iteration: `end` - `step` rounded down to the grid.
    int64_t lastInLoop = begin + ((end - 1 - begin) / step) * step;
    s = unflatten(s, newLoop.getResults(),
                  deferral.empty() ? Value() : constant(lastInLoop));
  }
  if (!gathers.empty())
    s = iteration(b, endValue, s, Value());
  accumulate(b, s);
  loop.replaceAllUsesWith(s.iterArgs);
  loop.erase();
}

/// The value of `v` when it is a constant or a pure op of constants (a
/// loop bound as trellis-grad writes it, `(ub - lb) ceildiv step`), folded
/// without changing the IR; none otherwise.
std::optional<int64_t> evaluate(Value v, int depth = 6) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || def->getNumResults() != 1 ||
      def->getNumRegions() != 0 || !isPure(def))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> c = evaluate(operand, depth - 1);
    if (!c || !operand.getType().isIntOrIndex())
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *c));
  }
  // Fold a detached copy: folding may update an op in place.
  Operation *copy = def->clone();
  SmallVector<OpFoldResult> results;
  std::optional<int64_t> value;
  // The fold gives an attribute, or one of the operands (x - 0 = x).
  if (succeeded(copy->fold(operands, results)) && results.size() == 1) {
    if (auto attr = dyn_cast<Attribute>(results[0]))
      value = getConstantIntValue(attr);
    else if (auto it = llvm::find(def->getOperands(), cast<Value>(results[0]));
             it != def->getOperands().end())
      value = getConstantIntValue(operands[it - def->getOperands().begin()]);
  }
  copy->destroy();
  return value;
}

/// Pipelines the collectives of `loop` that qualify; returns whether it
/// did. With `remarks`, reports each one at its location.
bool pipeline(scf::ForOp loop, bool remarks) {
  std::optional<int64_t> lb = evaluate(loop.getLowerBound());
  std::optional<int64_t> ub = evaluate(loop.getUpperBound());
  std::optional<int64_t> step = evaluate(loop.getStep());
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
  Deferral deferral = findDeferral(loop, gathers);
  if (gathers.empty() && deferral.empty())
    return false;
  // The bounds are constants, so the last iteration is exact. The rewritten
  // loops run to last + step at most, which must fit.
  const int64_t last = *lb + ((span - 1) / *step) * *step;
  int64_t after;
  if (llvm::AddOverflow(last, *step, after))
    return false;
  if (remarks) {
    int64_t iterations = (last - *lb) / *step + 1;
    for (AllGatherOp gather : gathers)
      gather.emitRemark() << "prefetched: iteration k starts iteration "
                             "k + 1's all_gather ("
                          << iterations << " iterations, the last peeled)";
    for (Operation *op : deferral.collectives)
      op->emitRemark() << "deferred: iteration k + 1 waits for iteration k's "
                       << op->getName().stripDialect() << " (" << iterations
                       << " iterations, the first peeled)";
  }
  Pipeliner(loop, gathers, slices, std::move(deferral))
      .rewrite(*lb, *step, last);
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
      pipeline(loop, remarks);
  }
};

} // namespace
