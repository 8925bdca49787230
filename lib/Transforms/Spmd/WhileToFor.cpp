//===- WhileToFor.cpp - scf.while as a counted loop ----------------------===//
//
// Transposition and differentiation run loops backwards, which needs a
// trip count. An scf.while that reads the linear (or differentiated) values
// becomes:
//
//   n = a copy of the loop carrying only what its condition needs, plus a
//       counter (it computes nothing else);
//   s = scf.for n iterations over the carried state: the condition's
//       computation, then the body;
//   r = the condition's computation on s: the values it passes on.
//
// Loops that count up to a bound become scf.for directly (MLIR's uplift
// patterns), so that a constant bound gives a constant trip count.
//
//===----------------------------------------------------------------------===//

#include "trellis/Transforms/Spmd/Transpose.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/BitVector.h"

using namespace mlir;

namespace {

/// Marks in `args` the arguments of `block` that `root` depends on within
/// `block` (through the ops of `block` and the values their regions use).
void sliceArgs(Block &block, Value root, llvm::BitVector &args) {
  SmallVector<Value> work = {root};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &block)
        args.set(arg.getArgNumber());
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (op->getBlock() != &block)
      continue;
    llvm::append_range(work, op->getOperands());
    op->walk([&](Operation *inner) {
      if (inner != op)
        llvm::append_range(work, inner->getOperands());
    });
  }
}

/// The copy of `v` that `m` made from `block`, `v` itself when it is
/// defined outside `block`, or null when its op was not copied.
Value copyOf(Block &block, const IRMapping &m, Value v) {
  if (Value copy = m.lookupOrNull(v))
    return copy;
  Block *owner = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getOwner()
                                       : v.getDefiningOp()->getBlock();
  return owner == &block ? Value() : v;
}

/// Whether every value `op` (and its regions) reads from `block` is mapped.
bool available(Operation *op, Block &block, const IRMapping &m) {
  auto ok = [&](Value v) { return static_cast<bool>(copyOf(block, m, v)); };
  bool all = llvm::all_of(op->getOperands(), ok);
  op->walk([&](Operation *inner) {
    if (inner != op)
      all &= llvm::all_of(inner->getOperands(), ok);
  });
  return all;
}

/// Clones the ops of `block` whose inputs are mapped, in order.
void cloneAvailable(OpBuilder &b, Block &block, IRMapping &m) {
  for (Operation &op : block.without_terminator())
    if (available(&op, block, m))
      b.clone(op, m);
}

/// A new block at the end of `into` taking `from`'s arguments selected by
/// `keep` and a counter (returned with it), holding the ops of `from` whose
/// inputs that leaves available; `m` maps `from`'s values to theirs.
std::pair<Block *, Value> copySlice(Block &from, const llvm::BitVector &keep,
                                    Region &into, IRMapping &m, Location loc) {
  auto *block = new Block();
  into.push_back(block);
  for (unsigned k : keep.set_bits())
    m.map(from.getArgument(k),
          block->addArgument(from.getArgument(k).getType(), loc));
  Value counter = block->addArgument(IndexType::get(loc.getContext()), loc);
  OpBuilder ob = OpBuilder::atBlockEnd(block);
  cloneAvailable(ob, from, m);
  return {block, counter};
}

/// The trip count of `loop`: a copy carrying only the values its condition
/// depends on, plus a counter. Fails, at `loop`, when the condition depends
/// on an active value and `activeCondition` is false.
FailureOr<Value> tripCount(OpBuilder &b, scf::WhileOp loop,
                           function_ref<bool(Value)> isActive,
                           bool activeCondition) {
  Location loc = loop.getLoc();
  Block &before = loop.getBefore().front();
  Block &after = loop.getAfter().front();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  Operation *yield = after.getTerminator();

  // Which carried values (before-block arguments) and passed-on values
  // (after-block arguments) the condition needs, to a fixed point.
  llvm::BitVector carried(before.getNumArguments());
  llvm::BitVector passed(after.getNumArguments());
  sliceArgs(before, condition.getCondition(), carried);
  bool changed = true;
  while (changed) {
    changed = false;
    llvm::BitVector oldCarried = carried, oldPassed = passed;
    for (unsigned k : carried.set_bits())
      sliceArgs(after, yield->getOperand(k), passed);
    for (unsigned j : passed.set_bits())
      sliceArgs(before, condition.getArgs()[j], carried);
    changed = carried != oldCarried || passed != oldPassed;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> inits;
  for (unsigned k : carried.set_bits())
    inits.push_back(loop.getInits()[k]);
  inits.push_back(zero);
  SmallVector<Type> types;
  for (unsigned j : passed.set_bits())
    types.push_back(after.getArgument(j).getType());
  types.push_back(b.getIndexType());
  auto count = scf::WhileOp::create(b, loc, types, inits);

  IRMapping m, n;
  auto [cond, i] = copySlice(before, carried, count.getBefore(), m, loc);
  auto [body, j] = copySlice(after, passed, count.getAfter(), n, loc);
  OpBuilder cb = OpBuilder::atBlockEnd(cond);
  OpBuilder bb = OpBuilder::atBlockEnd(body);
  SmallVector<Value> forwarded, next;
  for (unsigned k : passed.set_bits())
    forwarded.push_back(copyOf(before, m, condition.getArgs()[k]));
  forwarded.push_back(i);
  Value go = copyOf(before, m, condition.getCondition());
  for (unsigned k : carried.set_bits())
    next.push_back(copyOf(after, n, yield->getOperand(k)));
  next.push_back(arith::AddIOp::create(bb, loc, j, one));

  if (!go || llvm::is_contained(forwarded, Value()) ||
      llvm::is_contained(next, Value())) {
    count.erase();
    return loop.emitOpError("has a condition whose inputs could not be "
                            "separated from the rest of the loop; this is a "
                            "bug");
  }
  scf::ConditionOp::create(cb, loc, go, forwarded);
  scf::YieldOp::create(bb, loc, next);
  // What the condition depends on: the carried values it needs (their
  // initial values) and anything it reads from outside the loop.
  if (!activeCondition) {
    Value active;
    count->walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (!active && !count->isAncestor(v.getParentRegion()->getParentOp()) &&
            isActive(v))
          active = v;
    });
    if (active) {
      count.erase();
      return loop.emitOpError("decides whether to go on from a value that "
                              "depends on the linear arguments: the loop is "
                              "not linear");
    }
  }
  return count.getResults().back();
}

/// The values that depend on some set of values, through the ops of a
/// function: loop-carried values and region results only where what flows
/// into them does (to a fixed point), other ops' results where they read
/// any.
struct Reach {
  DenseSet<Value> &reached;

  bool has(Value v) const { return reached.contains(v); }

  /// Whether `op` reads a reached value (its regions included).
  bool reads(Operation *op) const {
    bool found =
        llvm::any_of(op->getOperands(), [&](Value v) { return has(v); });
    op->walk([&](Operation *inner) {
      if (inner != op)
        for (Value v : inner->getOperands())
          found |= has(v);
    });
    return found;
  }

  /// Marks `to[k]` where `from[k]` is reached; whether any was new.
  bool flow(ValueRange from, ValueRange to) {
    bool changed = false;
    for (auto [f, t] : llvm::zip(from, to))
      if (has(f) && !has(t))
        changed |= reached.insert(t).second;
    return changed;
  }

  void block(Block &b) {
    for (Operation &op : b)
      this->op(&op);
  }

  void op(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      flow(loop.getInitArgs(), loop.getRegionIterArgs());
      do
        block(*loop.getBody());
      while (flow(loop.getBody()->getTerminator()->getOperands(),
                  loop.getRegionIterArgs()));
      flow(loop.getRegionIterArgs(), loop.getResults());
      return;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      Block &before = loop.getBefore().front();
      Block &after = loop.getAfter().front();
      auto condition = cast<scf::ConditionOp>(before.getTerminator());
      flow(loop.getInits(), before.getArguments());
      bool changed = true;
      while (changed) {
        block(before);
        flow(condition.getArgs(), after.getArguments());
        block(after);
        changed =
            flow(after.getTerminator()->getOperands(), before.getArguments());
      }
      flow(condition.getArgs(), loop.getResults());
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (Region &region : branch->getRegions())
        if (!region.empty()) {
          block(region.front());
          flow(region.front().getTerminator()->getOperands(),
               branch.getResults());
        }
      return;
    }
    // Regions whose arguments are the op's operands and whose terminator
    // gives its results (shard_map, auto_axes, explicit_axes).
    if (op->getNumRegions() == 1 &&
        op->hasTrait<OpTrait::IsIsolatedFromAbove>() &&
        op->getRegion(0).hasOneBlock() &&
        op->getRegion(0).front().getNumArguments() == op->getNumOperands() &&
        op->getRegion(0).front().mightHaveTerminator() &&
        op->getRegion(0).front().getTerminator()->getNumOperands() ==
            op->getNumResults()) {
      Block &body = op->getRegion(0).front();
      flow(op->getOperands(), body.getArguments());
      block(body);
      flow(body.getTerminator()->getOperands(), op->getResults());
      return;
    }
    // Other regions (linalg payloads): their arguments count when the op
    // reads a reached value.
    bool readsReached = reads(op);
    for (Region &region : op->getRegions())
      for (Block &b : region) {
        if (readsReached)
          reached.insert(b.args_begin(), b.args_end());
        block(b);
      }
    if (readsReached || reads(op))
      reached.insert(op->result_begin(), op->result_end());
  }
};

/// Replaces `loop` by its trip count, an scf.for over it and the
/// condition's computation on the final state.
LogicalResult rewriteWhile(scf::WhileOp loop,
                           function_ref<bool(Value)> isActive,
                           bool activeCondition) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  FailureOr<Value> count = tripCount(b, loop, isActive, activeCondition);
  if (failed(count))
    return failure();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);

  Block &before = loop.getBefore().front();
  Block &after = loop.getAfter().front();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  auto passOn = [&](OpBuilder &ob, ValueRange state, IRMapping &m) {
    m.map(before.getArguments(), state);
    for (Operation &op : before.without_terminator())
      ob.clone(op, m);
    return llvm::map_to_vector(condition.getArgs(),
                               [&](Value v) { return m.lookupOrDefault(v); });
  };
  auto steps = scf::ForOp::create(
      b, loc, zero, *count, one, loop.getInits(),
      [&](OpBuilder &nb, Location l, Value, ValueRange state) {
        IRMapping m;
        SmallVector<Value> passed = passOn(nb, state, m);
        m.map(after.getArguments(), passed);
        for (Operation &op : after.without_terminator())
          nb.clone(op, m);
        scf::YieldOp::create(
            nb, l,
            llvm::map_to_vector(after.getTerminator()->getOperands(),
                                [&](Value v) { return m.lookupOrDefault(v); }));
      });
  IRMapping m;
  SmallVector<Value> results = passOn(b, steps.getResults(), m);
  loop->replaceAllUsesWith(results);
  loop.erase();
  return success();
}

} // namespace

LogicalResult mlir::spmd::rewriteWhileLoops(func::FuncOp func,
                                            ArrayRef<Value> active,
                                            bool activeCondition) {
  SmallVector<Operation *> loops;
  func.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
  if (loops.empty())
    return success();
  RewritePatternSet patterns(func.getContext());
  scf::populateUpliftWhileToForPatterns(patterns);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  (void)applyOpPatternsGreedily(loops, std::move(patterns), config);

  DenseSet<Value> reached(active.begin(), active.end());
  Reach reach{reached};
  reach.block(func.getBody().front());
  SmallVector<scf::WhileOp> todo;
  func.walk([&](scf::WhileOp loop) {
    if (reach.reads(loop))
      todo.push_back(loop);
  });
  auto isActive = [&](Value v) { return reached.contains(v); };
  // Inner loops first (the walk is post-order): an outer loop's rewrite
  // copies its body and erases it.
  for (scf::WhileOp loop : todo)
    if (failed(rewriteWhile(loop, isActive, activeCondition)))
      return failure();
  return success();
}
