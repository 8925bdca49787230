//===- Linearizer.cpp - trellis-grad's forward-mode half ------------------===//
//
// Copies a function's ops in order into a new function and, after each op
// that reads a value with a tangent, asks the op's DerivativeOpInterface
// rule for the tangents of its results. Collectives are linear (the same
// collective of the tangent), except pmax/pmin, whose tangent is the
// tangent of the device that holds the extremum (split evenly among ties).
// A shard_map becomes one shard_map that also takes and returns tangents,
// so the forward pass runs once; an auto_axes or explicit_axes region
// likewise.
//
//===----------------------------------------------------------------------===//

#include "lib/Autodiff/Linearizer.h"

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::trellis;

namespace mlir::trellis::autodiff {

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

bool isFloatLike(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type)) &&
         (isa<FloatType>(type) || isa<RankedTensorType>(type));
}

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

Value constantLike(OpBuilder &b, Location loc, Type like, double value) {
  auto element = cast<FloatType>(getElementTypeOrSelf(like));
  FloatAttr scalar = b.getFloatAttr(element, value);
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return arith::ConstantOp::create(
        b, loc, tensor, DenseElementsAttr::get(tensor, scalar.getValue()));
  return arith::ConstantOp::create(b, loc, element, scalar);
}

bool isConstant(Value v, double value) {
  APFloat found(0.0);
  if (!matchPattern(v, m_ConstantFloat(&found))) {
    DenseElementsAttr dense;
    if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat() ||
        !isa<FloatType>(dense.getElementType()))
      return false;
    found = dense.getSplatValue<APFloat>();
  }
  bool lost;
  found.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return found.convertToDouble() == value;
}

Value zerosOf(OpBuilder &b, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  Type element = tensor.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(), element,
                                        tensor.getEncoding());
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

Value negateTangent(OpBuilder &b, Location loc, Value t) {
  if (!t)
    return t;
  return arith::NegFOp::create(b, loc, t);
}

Value scaleTangent(OpBuilder &b, Location loc, Value partial, Value tangent) {
  if (!tangent || !partial || isConstant(partial, 0.0))
    return Value();
  if (isConstant(partial, 1.0))
    return tangent;
  if (isConstant(partial, -1.0))
    return negateTangent(b, loc, tangent);
  return arith::MulFOp::create(b, loc, partial, tangent);
}

Value addTangents(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return arith::AddFOp::create(b, loc, a, c);
}

Operation *cloneWith(OpBuilder &b, Operation *op,
                     function_ref<Value(Value)> map) {
  IRMapping local;
  for (Value operand : op->getOperands())
    local.map(operand, map(operand));
  op->walk([&](Operation *inner) {
    if (inner == op)
      return;
    for (Value operand : inner->getOperands())
      if (!op->isAncestor(operand.getParentRegion()->getParentOp()))
        local.map(operand, map(operand));
  });
  return b.clone(*op, local);
}

LogicalResult linearRule(Operation *op, JvpState &state, OpBuilder &b) {
  Location loc = op->getLoc();
  Operation *t = cloneWith(b, op, [&](Value v) {
    if (isFloatTensor(v.getType()))
      return state.tangentOrZeros(b, loc, v);
    return state.primal(v);
  });
  for (auto [old, now] : llvm::zip(op->getResults(), t->getResults()))
    if (isFloatTensor(old.getType()))
      state.setTangent(old, now);
  return success();
}

//===----------------------------------------------------------------------===//
// Linearizer
//===----------------------------------------------------------------------===//

bool Linearizer::readsActive(Operation *op,
                             const DenseSet<Value> &active) const {
  auto hit = [&](Value v) { return active.contains(v) || hasTangent(v); };
  bool found = llvm::any_of(op->getOperands(), hit);
  if (!found && op->getNumRegions())
    op->walk([&](Operation *inner) {
      if (llvm::any_of(inner->getOperands(), hit))
        found = true;
    });
  return found;
}

FailureOr<func::FuncOp> Linearizer::run(func::FuncOp f, ArrayRef<unsigned> wrt,
                                        StringRef name, OpBuilder &b) {
  Block &body = f.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Type> inputs(f.getArgumentTypes());
  for (unsigned k : wrt)
    inputs.push_back(f.getArgumentTypes()[k]);
  SmallVector<Type> results(f.getResultTypes());
  results.push_back(f.getResultTypes()[0]);
  auto lin = func::FuncOp::create(b, f.getLoc(), name,
                                  b.getFunctionType(inputs, results));
  lin.setPrivate();
  for (StringRef attr : {spmd::SpmdDialect::kMeshAttrName,
                         spmd::SpmdDialect::kManualAxesAttrName})
    if (Attribute value = f->getAttr(attr))
      lin->setAttr(attr, value);
  Block *entry = lin.addEntryBlock();
  for (unsigned k = 0; k < f.getNumArguments(); ++k) {
    if (DictionaryAttr attrs = f.getArgAttrDict(k))
      lin.setArgAttrs(k, attrs);
    lin.setArgAttr(k, spmd::SpmdDialect::kNonlinearAttrName, b.getUnitAttr());
    primals.map(body.getArgument(k), entry->getArgument(k));
  }
  for (auto [idx, k] : llvm::enumerate(wrt))
    tangents[body.getArgument(k)] =
        entry->getArgument(f.getNumArguments() + idx);

  OpBuilder lb = OpBuilder::atBlockBegin(entry);
  if (failed(linearizeBlock(body, lb))) {
    lin.erase();
    return failure();
  }
  Value loss = ret.getOperand(0);
  Value dloss = tangents.lookup(loss);
  if (!dloss) {
    lin.erase();
    return f.emitOpError("result #0 (the loss) does not depend on the "
                         "arguments trellis-grad differentiates with respect "
                         "to");
  }
  SmallVector<Value> returned;
  for (Value v : ret.getOperands())
    returned.push_back(primals.lookupOrDefault(v));
  returned.push_back(dloss);
  func::ReturnOp::create(lb, ret.getLoc(), returned);
  return lin;
}

LogicalResult Linearizer::linearizeBlock(Block &block, OpBuilder &b) {
  for (Operation &op : block.without_terminator())
    if (failed(linearizeOp(&op, b)))
      return failure();
  return success();
}

LogicalResult Linearizer::linearizeOp(Operation *op, OpBuilder &b) {
  // A scalar computed from differentiated tensors carries no tangent: it
  // may steer control or feed comparisons, but not floating-point results.
  if (llvm::any_of(op->getResultTypes(), isFloatLike)) {
    Value scalar;
    auto check = [&](Value v) {
      if (!scalar && isFloatLike(v.getType()) && untracked.count(v))
        scalar = v;
    };
    for (Value v : op->getOperands())
      check(v);
    op->walk([&](Operation *inner) {
      if (inner != op)
        for (Value v : inner->getOperands())
          check(v);
    });
    if (scalar) {
      InFlightDiagnostic diag =
          op->emitOpError("computes a floating-point value from a scalar "
                          "that depends on the differentiated arguments; "
                          "trellis-grad carries derivatives on tensors only "
                          "(keep it a tensor, e.g. tensor<f32>)");
      diag.attachNote(untracked.lookup(scalar)->getLoc())
          << "the scalar is computed here";
      return diag;
    }
  }
  bool active = readsActive(op, {});
  if (!active) {
    b.clone(*op, primals);
    return success();
  }
  if (auto map = dyn_cast<spmd::ShardMapOp>(op))
    return linearizeShardMap(map, b);
  if (isa<AutoAxesOp, ExplicitAxesOp>(op))
    return linearizeAxisRegion(op, b);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return linearizeFor(loop, b);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return linearizeIf(branch, b);
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return linearizeWhile(loop, b);
  if (auto call = dyn_cast<CallOpInterface>(op))
    return op->emitOpError("calls a function with differentiated values; "
                           "trellis-grad differentiates one function body: "
                           "inline the callee first (--inline)");
  if (op->getNumRegions() && !isa<linalg::LinalgOp>(op) &&
      !isa<DerivativeOpInterface>(op))
    return op->emitOpError("has regions that use differentiated values; "
                           "trellis-grad has no rule for it (it "
                           "differentiates scf.for, scf.while, scf.if, "
                           "shard_maps and axis regions)");

  b.clone(*op, primals);
  if (auto collective = dyn_cast<spmd::CollectiveOpInterface>(op))
    return linearizeCollective(collective, b);
  // A scalar read out of a differentiated tensor (tensor.extract) has no
  // tangent; it is remembered so that no derivative silently goes missing.
  if (!isa<DerivativeOpInterface>(op) &&
      llvm::none_of(op->getResultTypes(), isFloatTensor) &&
      llvm::any_of(op->getResultTypes(), isFloatLike)) {
    for (Value r : op->getResults())
      if (isFloatLike(r.getType()))
        untracked[r] = op;
    return success();
  }
  // Only floating-point tensors carry tangents: an op computing integers
  // or predicates from them (a comparison) has none.
  bool floatResults = llvm::any_of(op->getResultTypes(), isFloatLike);
  State state(*this);
  if (auto rule = dyn_cast<DerivativeOpInterface>(op))
    return rule.jvp(state, b);
  if (!floatResults)
    return success();
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (hasTangent(operand))
      return op->emitOpError("has no derivative rule, but trellis-grad needs "
                             "one: operand #")
             << i << " depends on the differentiated arguments";
  return op->emitOpError("has no derivative rule, but its regions use values "
                         "that depend on the differentiated arguments");
}

LogicalResult Linearizer::linearizeCollective(spmd::CollectiveOpInterface op,
                                              OpBuilder &b) {
  State state(*this);
  Location loc = op.getLoc();
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
      !op.getVarianceRule())
    return op->emitOpError("is a collective that trellis-grad has no rule "
                           "for (asynchronous halves are not differentiated)");
  Value x = op->getOperand(0);
  if (!isFloatTensor(x.getType()))
    return success();
  std::optional<spmd::ReductionKind> kind = op.getReduction();
  if (!kind || *kind == spmd::ReductionKind::Sum ||
      *kind == spmd::ReductionKind::Mean)
    return linearRule(op, state, b);

  // pmax / pmin: the tangent of the devices holding the extremum, divided
  // by how many do (ties split evenly, as JAX's reduce_max).
  Value xp = state.primal(x), y = state.primal(op->getResult(0));
  Value dx = state.tangent(x);
  ArrayAttr axes = op->getAttrOfType<ArrayAttr>("axes");
  Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, xp, y);
  Value one = constantLike(b, loc, x.getType(), 1.0);
  Value zero = constantLike(b, loc, x.getType(), 0.0);
  Value hits = arith::SelectOp::create(b, loc, eq, one, zero);
  Value count = spmd::PsumOp::create(b, loc, hits.getType(), hits, axes);
  Value mine =
      arith::SelectOp::create(b, loc, eq, dx, zerosOf(b, loc, dx.getType()));
  Value sum = spmd::PsumOp::create(b, loc, mine.getType(), mine, axes);
  state.setTangent(op->getResult(0), arith::DivFOp::create(b, loc, sum, count));
  return success();
}

LogicalResult Linearizer::linearizeBody(
    Block &body, Block &into, ArrayRef<unsigned> tangentInputs,
    SmallVectorImpl<Value> &yielded, SmallVectorImpl<unsigned> &withTangent) {
  for (BlockArgument arg : body.getArguments())
    primals.map(arg, into.addArgument(arg.getType(), arg.getLoc()));
  for (unsigned k : tangentInputs) {
    BlockArgument arg = body.getArgument(k);
    tangents[arg] = into.addArgument(arg.getType(), arg.getLoc());
  }
  OpBuilder ib = OpBuilder::atBlockEnd(&into);
  if (failed(linearizeBlock(body, ib)))
    return failure();
  Operation *yield = body.getTerminator();
  for (Value v : yield->getOperands())
    yielded.push_back(primals.lookupOrDefault(v));
  for (auto [j, v] : llvm::enumerate(yield->getOperands()))
    if (Value t = tangents.lookup(v)) {
      withTangent.push_back(j);
      yielded.push_back(t);
    }
  return success();
}

LogicalResult Linearizer::linearizeShardMap(spmd::ShardMapOp map,
                                            OpBuilder &b) {
  Location loc = map.getLoc();
  Block &body = map.getBodyBlock();
  Operation *yield = body.getTerminator();

  SmallVector<Value> inputs;
  SmallVector<Attribute> inSpecs(map.getInSpecs().begin(),
                                 map.getInSpecs().end());
  SmallVector<unsigned> tangentInputs;
  for (Value operand : map.getInputs())
    inputs.push_back(primals.lookupOrDefault(operand));
  for (auto [k, operand] : llvm::enumerate(map.getInputs())) {
    Value t = tangents.lookup(operand);
    if (!t || !isFloatTensor(operand.getType()))
      continue;
    tangentInputs.push_back(k);
    inputs.push_back(t);
    inSpecs.push_back(map.getInSpecs()[k]);
  }
  // The body is built inside a shard_map (collectives ask it for their
  // axes); its results are known after, so the region moves to the final
  // op then.
  auto build = [&](TypeRange types, ArrayRef<Attribute> outSpecs) {
    return spmd::ShardMapOp::create(
        b, loc, types, map.getMeshAttr(), b.getArrayAttr(inSpecs),
        b.getArrayAttr(outSpecs), map.getManualAxesAttr(),
        map.getCheckVmaAttr(), inputs);
  };
  SmallVector<Type> resultTypes(map.getResultTypes());
  SmallVector<Attribute> outSpecs(map.getOutSpecs().begin(),
                                  map.getOutSpecs().end());
  spmd::ShardMapOp scratch = build(resultTypes, outSpecs);
  auto *block = new Block();
  scratch.getBody().push_back(block);
  SmallVector<Value> yielded;
  SmallVector<unsigned> withTangent;
  if (failed(
          linearizeBody(body, *block, tangentInputs, yielded, withTangent))) {
    scratch.erase();
    return failure();
  }
  for (unsigned j : withTangent) {
    resultTypes.push_back(map.getResult(j).getType());
    outSpecs.push_back(map.getOutSpecs()[j]);
  }
  OpBuilder ib = OpBuilder::atBlockEnd(block);
  spmd::YieldOp::create(ib, yield->getLoc(), yielded);

  spmd::ShardMapOp copy = build(resultTypes, outSpecs);
  copy.getBody().takeBody(scratch.getBody());
  scratch.erase();
  for (auto [j, result] : llvm::enumerate(map.getResults()))
    primals.map(result, copy.getResult(j));
  for (auto [idx, j] : llvm::enumerate(withTangent))
    tangents[map.getResult(j)] = copy.getResult(map.getNumResults() + idx);
  return success();
}

LogicalResult Linearizer::linearizeAxisRegion(Operation *op, OpBuilder &b) {
  Location loc = op->getLoc();
  Block &body = op->getRegion(0).front();
  Operation *yield = body.getTerminator();

  // The region is isolated from above: tangents enter as more operands
  // (of their primals' types, so the body's types follow the same rule).
  SmallVector<Value> inputs;
  SmallVector<unsigned> tangentInputs;
  for (Value operand : op->getOperands())
    inputs.push_back(primals.lookupOrDefault(operand));
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    Value t = tangents.lookup(operand);
    if (!t || !isFloatTensor(operand.getType()))
      continue;
    tangentInputs.push_back(k);
    inputs.push_back(t);
  }
  auto build = [&](TypeRange types) {
    OperationState state(loc, op->getName());
    state.addAttributes(op->getAttrs());
    state.addOperands(inputs);
    state.addTypes(types);
    state.addRegion();
    return b.create(state);
  };
  SmallVector<Type> resultTypes(op->getResultTypes());
  Operation *scratch = build(resultTypes);
  auto *block = new Block();
  scratch->getRegion(0).push_back(block);
  SmallVector<Value> yielded;
  SmallVector<unsigned> withTangent;
  if (failed(
          linearizeBody(body, *block, tangentInputs, yielded, withTangent))) {
    scratch->erase();
    return failure();
  }
  for (unsigned j : withTangent)
    resultTypes.push_back(op->getResult(j).getType());
  OpBuilder ib = OpBuilder::atBlockEnd(block);
  trellis::YieldOp::create(ib, yield->getLoc(), yielded);

  Operation *copy = build(resultTypes);
  copy->getRegion(0).takeBody(scratch->getRegion(0));
  scratch->erase();
  for (auto [j, result] : llvm::enumerate(op->getResults()))
    primals.map(result, copy->getResult(j));
  for (auto [idx, j] : llvm::enumerate(withTangent))
    tangents[op->getResult(j)] = copy->getResult(op->getNumResults() + idx);
  return success();
}

} // namespace mlir::trellis::autodiff
