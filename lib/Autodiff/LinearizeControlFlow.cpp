//===- LinearizeControlFlow.cpp - Tangents through scf.for and scf.if -----===//
//
// A while loop is first rewritten (spmd::rewriteWhileLoops, in Grad.cpp)
// into a loop that counts its iterations (not differentiated: it only gives
// the count), an scf.for over that many iterations and the condition's
// computation on the final state; the scf.for is then differentiated like
// any other, and, its trip count not being a constant, spmd-transpose
// recomputes its carried values in the backward pass instead of saving
// them.
//
// A loop becomes one loop that also carries the tangents of the carried
// values that depend on the differentiated arguments (found by a fixed
// point over the body); an if becomes one if that also yields the tangents
// of its results, zeros from a branch whose value has none. spmd-transpose
// runs the loop backwards, reading the non-linear carried values it saved
// per iteration, and turns the if into an if over the cotangents.
//
//===----------------------------------------------------------------------===//

#include "lib/Autodiff/Linearizer.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace mlir::trellis::autodiff {

LogicalResult Linearizer::linearizeFor(scf::ForOp loop, OpBuilder &b) {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  unsigned n = loop.getNumRegionIterArgs();

  // Which carried values get tangents: a fixed point over the body.
  SmallVector<bool> active(n, false);
  for (auto [k, init] : llvm::enumerate(loop.getInitArgs()))
    active[k] = hasTangent(init) && isFloatTensor(init.getType());
  bool changed = true;
  while (changed) {
    changed = false;
    DenseSet<Value> values;
    for (unsigned k = 0; k < n; ++k)
      if (active[k])
        values.insert(loop.getRegionIterArgs()[k]);
    for (Operation &op : body->without_terminator())
      if (readsActive(&op, values))
        for (Value r : op.getResults())
          values.insert(r);
    for (unsigned k = 0; k < n; ++k) {
      Value v = yield->getOperand(k);
      if (active[k] || !(values.contains(v) || hasTangent(v)))
        continue;
      if (!isFloatTensor(v.getType()))
        return loop.emitOpError("carries value #")
               << k
               << ", which depends on the differentiated arguments but is "
                  "not a floating-point tensor; trellis-grad differentiates "
                  "tensor values";
      active[k] = true;
      changed = true;
    }
  }

  State state(*this);
  SmallVector<Value> inits;
  for (Value init : loop.getInitArgs())
    inits.push_back(primals.lookupOrDefault(init));
  SmallVector<unsigned> withTangent;
  for (unsigned k = 0; k < n; ++k)
    if (active[k]) {
      withTangent.push_back(k);
      inits.push_back(state.tangentOrZeros(b, loc, loop.getInitArgs()[k]));
    }

  LogicalResult status = success();
  auto copy = scf::ForOp::create(
      b, loc, primals.lookupOrDefault(loop.getLowerBound()),
      primals.lookupOrDefault(loop.getUpperBound()),
      primals.lookupOrDefault(loop.getStep()), inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange args) {
        primals.map(loop.getInductionVar(), iv);
        for (unsigned k = 0; k < n; ++k)
          primals.map(loop.getRegionIterArgs()[k], args[k]);
        for (auto [idx, k] : llvm::enumerate(withTangent))
          tangents[loop.getRegionIterArgs()[k]] = args[n + idx];
        if (failed(linearizeBlock(*body, nb))) {
          status = failure();
          scf::YieldOp::create(nb, l, SmallVector<Value>(args));
          return;
        }
        SmallVector<Value> next;
        for (Value v : yield->getOperands())
          next.push_back(primals.lookupOrDefault(v));
        for (unsigned k : withTangent)
          next.push_back(state.tangentOrZeros(nb, l, yield->getOperand(k)));
        scf::YieldOp::create(nb, l, next);
      });
  if (failed(status)) {
    copy.erase();
    return failure();
  }
  for (unsigned k = 0; k < n; ++k)
    primals.map(loop.getResult(k), copy.getResult(k));
  for (auto [idx, k] : llvm::enumerate(withTangent))
    tangents[loop.getResult(k)] = copy.getResult(n + idx);
  return success();
}

LogicalResult Linearizer::linearizeIf(scf::IfOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  if (op.getNumResults() == 0)
    return op.emitOpError("has no results but uses differentiated values; "
                          "trellis-grad differentiates values, not effects");
  State state(*this);
  Value cond = primals.lookupOrDefault(op.getCondition());
  // The branches are built in a scratch if with the primal results; the
  // tangents they yield are known after, so the regions move then.
  auto scratch = scf::IfOp::create(b, loc, op.getResultTypes(), cond,
                                   /*withElseRegion=*/true);
  Region *regions[2] = {&op.getThenRegion(), &op.getElseRegion()};
  Region *into[2] = {&scratch.getThenRegion(), &scratch.getElseRegion()};
  for (unsigned r = 0; r < 2; ++r) {
    Block *block = &into[r]->front();
    // The builder may have added a yield; the copy supplies its own.
    if (!block->empty())
      block->getTerminator()->erase();
    OpBuilder bb = OpBuilder::atBlockEnd(block);
    if (failed(linearizeBlock(regions[r]->front(), bb))) {
      scratch.erase();
      return failure();
    }
  }
  SmallVector<unsigned> withTangent;
  for (unsigned j = 0; j < op.getNumResults(); ++j) {
    bool any = false;
    for (Region *region : regions)
      any |= hasTangent(region->front().getTerminator()->getOperand(j));
    if (!any)
      continue;
    if (!isFloatTensor(op.getResult(j).getType())) {
      scratch.erase();
      return op.emitOpError("result #")
             << j
             << " depends on the differentiated arguments but is not a "
                "floating-point tensor; trellis-grad differentiates tensor "
                "values";
    }
    withTangent.push_back(j);
  }
  SmallVector<Type> types(op.getResultTypes());
  for (unsigned j : withTangent)
    types.push_back(op.getResult(j).getType());
  for (unsigned r = 0; r < 2; ++r) {
    Operation *yield = regions[r]->front().getTerminator();
    OpBuilder bb = OpBuilder::atBlockEnd(&into[r]->front());
    SmallVector<Value> values;
    for (Value v : yield->getOperands())
      values.push_back(primals.lookupOrDefault(v));
    for (unsigned j : withTangent)
      values.push_back(state.tangentOrZeros(bb, loc, yield->getOperand(j)));
    scf::YieldOp::create(bb, yield->getLoc(), values);
  }
  auto copy = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  for (unsigned r = 0; r < 2; ++r) {
    Region &region = r ? copy.getElseRegion() : copy.getThenRegion();
    region.getBlocks().clear();
    region.takeBody(*into[r]);
  }
  scratch.erase();
  for (unsigned j = 0; j < op.getNumResults(); ++j)
    primals.map(op.getResult(j), copy.getResult(j));
  for (auto [idx, j] : llvm::enumerate(withTangent))
    tangents[op.getResult(j)] = copy.getResult(op.getNumResults() + idx);
  return success();
}

LogicalResult Linearizer::linearizeWhile(scf::WhileOp op, OpBuilder &b) {
  // Only the loops that rewriteWhileLoops leaves: their floating-point
  // results are unread (the iteration count is), so nothing has a tangent.
  for (Value result : op.getResults())
    if (isFloatLike(result.getType()) && !result.use_empty())
      return op.emitOpError("passes on values that depend on the "
                            "differentiated arguments, and trellis-grad could "
                            "not rewrite it into an scf.for; this is a bug");
  b.clone(*op, primals);
  return success();
}

} // namespace mlir::trellis::autodiff
