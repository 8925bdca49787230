//===- ImportControlFlow.cpp - while, if and case as scf ------------------===//
//
// stablehlo.while becomes scf.for when it is a counted loop (what
// fori_loop and scan print: a counter from a constant, `counter < N`, +1
// per trip), so the partitioner sees a loop it partitions; any other while
// becomes scf.while. if becomes scf.if, case a chain of scf.if (an index out
// of range runs the last branch, as StableHLO specifies). The regions move
// as they are; their ops are imported in their turn.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

namespace {

/// The integer a 0-d constant (StableHLO's or an imported one) holds.
std::optional<int64_t> constantInt(Value value) {
  DenseElementsAttr dense;
  if (auto constant = value.getDefiningOp<hlo::ConstantOp>())
    dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  else
    matchPattern(value, m_Constant(&dense));
  if (!dense || !dense.isSplat() || !isa<IntegerType>(dense.getElementType()) ||
      dense.getElementType().isInteger(1))
    return std::nullopt;
  return dense.getSplatValue<APInt>().getSExtValue();
}

/// A while that counts operand `index` from `lower` up to `upper` by one.
struct CountedLoop {
  unsigned index;
  int64_t lower, upper;
};

std::optional<CountedLoop> matchCountedLoop(hlo::WhileOp op) {
  Block &cond = op.getCond().front();
  auto ret = dyn_cast<hlo::ReturnOp>(cond.getTerminator());
  if (!ret || ret.getResults().size() != 1)
    return std::nullopt;
  auto compare = ret.getResults()[0].getDefiningOp<hlo::CompareOp>();
  if (!compare || compare->getBlock() != &cond || wasUnsigned(compare, 0) ||
      compare.getComparisonDirection() != hlo::ComparisonDirection::LT ||
      compare.getCompareType().value_or(hlo::ComparisonType::SIGNED) !=
          hlo::ComparisonType::SIGNED)
    return std::nullopt;
  // Nothing else in the condition but the bound's constant.
  for (Operation &inner : cond.without_terminator())
    if (&inner != compare && !isa<hlo::ConstantOp>(inner))
      return std::nullopt;
  auto counter = dyn_cast<BlockArgument>(compare.getLhs());
  std::optional<int64_t> upper = constantInt(compare.getRhs());
  if (!counter || counter.getOwner() != &cond || !upper)
    return std::nullopt;
  unsigned index = counter.getArgNumber();
  std::optional<int64_t> lower = constantInt(op.getOperand()[index]);
  auto type = cast<RankedTensorType>(counter.getType());
  if (!lower || type.getRank() != 0 ||
      !(type.getElementType().isInteger(32) ||
        type.getElementType().isInteger(64)))
    return std::nullopt;
  Block &body = op.getBody().front();
  auto yield = cast<hlo::ReturnOp>(body.getTerminator());
  auto add = yield.getResults()[index].getDefiningOp<hlo::AddOp>();
  if (!add)
    return std::nullopt;
  Value arg = body.getArgument(index);
  Value step = add.getLhs() == arg   ? add.getRhs()
               : add.getRhs() == arg ? add.getLhs()
                                     : Value();
  if (!step || constantInt(step) != 1)
    return std::nullopt;
  return CountedLoop{index, *lower, *upper};
}

/// Replaces the stablehlo.return ending `region` with an scf.yield.
void yieldInstead(OpBuilder &b, Region &region) {
  Operation *ret = region.front().getTerminator();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ret);
  scf::YieldOp::create(b, ret->getLoc(), ret->getOperands());
  ret->erase();
}

LogicalResult checkTerminators(Operation *op) {
  for (Region &region : op->getRegions())
    if (region.empty() || !isa<hlo::ReturnOp>(region.front().getTerminator()))
      return op->emitError("each region must end in stablehlo.return");
  return success();
}

/// Per operand of `op`, whether its body changes it (returns anything but
/// its own argument); the others are loop-invariant.
SmallVector<bool> changedOperands(hlo::WhileOp op) {
  Block &body = op.getBody().front();
  SmallVector<bool> changed;
  for (auto [arg, returned] :
       llvm::zip(body.getArguments(), body.getTerminator()->getOperands()))
    changed.push_back(returned != arg);
  return changed;
}

} // namespace

/// A while that is not a counted loop becomes an scf.while that carries
/// the operands the body changes; those it returns unchanged are read from
/// outside in both regions (as in the counted case below).
FailureOr<SmallVector<Value>> Importer::importGeneralWhile(hlo::WhileOp op) {
  Location loc = op.getLoc();
  Block &cond = op.getCond().front(), &body = op.getBody().front();
  Operation *bodyRet = body.getTerminator();
  SmallVector<bool> carriedOperand = changedOperands(op);
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (auto [i, operand] : llvm::enumerate(op.getOperand())) {
    if (!carriedOperand[i])
      continue;
    inits.push_back(operand);
    types.push_back(operand.getType());
  }
  // Invariant operands: every use in either region reads the operand, and
  // their block arguments and returned values go.
  for (int i = op->getNumOperands() - 1; i >= 0; --i) {
    if (carriedOperand[i])
      continue;
    cond.getArgument(i).replaceAllUsesWith(op.getOperand()[i]);
    body.getArgument(i).replaceAllUsesWith(op.getOperand()[i]);
    cond.eraseArgument(i);
    body.eraseArgument(i);
    bodyRet->eraseOperand(i);
  }
  auto loop = scf::WhileOp::create(b, loc, types, inits);
  loop.getBefore().takeBody(op.getCond());
  loop.getAfter().takeBody(op.getBody());
  Block &before = loop.getBefore().front();
  Operation *ret = before.getTerminator();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ret);
    Value condition = tensor::ExtractOp::create(
        b, ret->getLoc(), ret->getOperand(0), ValueRange());
    scf::ConditionOp::create(b, ret->getLoc(), condition,
                             before.getArguments());
    ret->erase();
  }
  yieldInstead(b, loop.getAfter());
  SmallVector<Value> results;
  unsigned carried = 0;
  for (auto [i, operand] : llvm::enumerate(op.getOperand()))
    results.push_back(carriedOperand[i] ? loop.getResult(carried++) : operand);
  return results;
}

FailureOr<SmallVector<Value>> Importer::importWhile(hlo::WhileOp op) {
  if (failed(checkTerminators(op)))
    return failure();
  for (Region &region : op->getRegions())
    if (region.front().getNumArguments() != op->getNumOperands())
      return op.emitError("each region must take one argument per operand");
  if (op.getBody().front().getTerminator()->getNumOperands() !=
      op->getNumOperands())
    return op.emitError("the body must return one value per operand");
  Location loc = op.getLoc();
  std::optional<CountedLoop> counted = matchCountedLoop(op);
  if (!counted)
    return importGeneralWhile(op);

  // for %iv = lower to upper step 1, carrying the other operands, except
  // those the body returns unchanged (JAX's scan and fori_loop pass their
  // constants and stacked inputs through the loop this way): the body
  // reads them from outside, so propagation, autodiff and the overlap
  // passes see loop-invariant values (trellis-grad would otherwise save
  // one copy per iteration).
  unsigned k = counted->index;
  auto counterType = cast<RankedTensorType>(op.getOperand()[k].getType());
  Type counterElement = counterType.getElementType();
  Block &old = op.getBody().front();
  SmallVector<bool> carriedOperand = changedOperands(op);
  carriedOperand[k] = false; // the induction variable
  SmallVector<Value> inits;
  for (auto [i, operand] : llvm::enumerate(op.getOperand()))
    if (carriedOperand[i])
      inits.push_back(operand);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto loop = scf::ForOp::create(b, loc, index(counted->lower),
                                 index(counted->upper), index(1), inits);
  Block *body = loop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    Value iv = arith::IndexCastOp::create(b, loc, counterElement,
                                          loop.getInductionVar());
    Value counter =
        tensor::FromElementsOp::create(b, loc, counterType, ValueRange{iv});
    unsigned carried = 0;
    for (auto [i, arg] : llvm::enumerate(old.getArguments()))
      arg.replaceAllUsesWith(i == k ? counter
                             : carriedOperand[i]
                                 ? loop.getRegionIterArgs()[carried++]
                                 : op.getOperand()[i]);
  }
  body->getOperations().splice(body->end(), old.getOperations());
  Operation *ret = body->getTerminator();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ret);
    SmallVector<Value> yielded;
    for (auto [i, v] : llvm::enumerate(ret->getOperands()))
      if (carriedOperand[i])
        yielded.push_back(v);
    scf::YieldOp::create(b, ret->getLoc(), yielded);
    ret->erase();
  }
  // The condition is dropped with the while: its ops never come up.
  op.getCond().walk([&](Operation *inner) { erased.insert(inner); });

  SmallVector<Value> results;
  unsigned carried = 0;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    if (i != k) {
      results.push_back(carriedOperand[i] ? loop.getResult(carried++)
                                          : op.getOperand()[i]);
      continue;
    }
    // The counter leaves the loop at max(lower, upper).
    int64_t last = std::max(counted->lower, counted->upper);
    results.push_back(arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(counterType,
                               b.getIntegerAttr(counterElement, last))));
  }
  return results;
}

FailureOr<SmallVector<Value>> Importer::importIf(hlo::IfOp op) {
  if (failed(checkTerminators(op)))
    return failure();
  Location loc = op.getLoc();
  Value condition = scalarOf(b, loc, op.getPred());
  auto branch = scf::IfOp::create(b, loc, op->getResultTypes(), condition,
                                  /*withElseRegion=*/true);
  branch.getThenRegion().takeBody(op.getTrueBranch());
  branch.getElseRegion().takeBody(op.getFalseBranch());
  yieldInstead(b, branch.getThenRegion());
  yieldInstead(b, branch.getElseRegion());
  return SmallVector<Value>(branch->getResults());
}

FailureOr<SmallVector<Value>> Importer::importCase(hlo::CaseOp op) {
  if (failed(checkTerminators(op)))
    return failure();
  Location loc = op.getLoc();
  MutableArrayRef<Region> branches = op.getBranches();
  if (branches.empty())
    return op.emitError("case needs at least one branch");
  if (branches.size() == 1) {
    // The only branch always runs: its ops move before the case.
    Block &only = branches[0].front();
    Operation *ret = only.getTerminator();
    SmallVector<Value> results(ret->getOperands());
    ret->erase();
    op->getBlock()->getOperations().splice(op->getIterator(),
                                           only.getOperations());
    return results;
  }
  // if (i == 0) {0} else if (i == 1) {1} ... else {last}: an index out of
  // range runs the last branch.
  Value index = scalarOf(b, loc, op.getIndex());
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> results;
  for (size_t j = 0; j + 1 < branches.size(); ++j) {
    Value isJ = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, index,
        arith::ConstantOp::create(
            b, loc,
            b.getIntegerAttr(index.getType(), static_cast<int64_t>(j))));
    auto branch = scf::IfOp::create(b, loc, op->getResultTypes(), isJ,
                                    /*withElseRegion=*/true);
    branch.getThenRegion().takeBody(branches[j]);
    yieldInstead(b, branch.getThenRegion());
    if (results.empty())
      results.assign(branch->getResults().begin(), branch->getResults().end());
    else
      scf::YieldOp::create(b, loc, branch->getResults());
    Region &otherwise = branch.getElseRegion();
    if (j + 2 == branches.size()) {
      otherwise.takeBody(branches.back());
      yieldInstead(b, otherwise);
      break;
    }
    otherwise.getBlocks().clear();
    b.setInsertionPointToStart(&otherwise.emplaceBlock());
  }
  return results;
}
