//===- Transpose.cpp - Transpose linear functions (seed 001) --------------===//
//
// Builds t(f) for a function f that is linear in its arguments (all but
// those marked `spmd.nonlinear`): t(f) takes the non-linear arguments and
// one cotangent per result and returns one cotangent per linear argument,
// so that <t(f)(w, y), x> = <y, f(w, x)>.
//
// Per block: values are split into linear ones (those that depend on linear
// inputs) and the rest. The rest is copied forward into the new block
// ("forward" values); linear ops are then visited in reverse, each turning
// the cotangents of its results into contributions to the cotangents of its
// linear operands. The collectives transpose per seed 001's table; a
// shard_map transposes into a shard_map with its specs swapped, and needs no
// rescaling where the device-variance types prove an output invariant. The
// naive mode reproduces the transposition JAX used before those types.
//
// The primal is typed (spmd-check-variance) on a temporary copy first; the
// result is built on plain tensor types and typed again at the end, which
// also inserts the pvarys that the new program needs.
//
// Single upstream ops transpose through TransposeOpInterface, whose models
// live beside this file, as do the rules of collectives, shard_maps and
// loops (Transposer.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/Transposer.h"

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "lib/Transforms/Spmd/ArithBuilders.h"
#include "trellis/Transforms/Spmd/Passes.h"
#include "trellis/Transforms/Spmd/Transpose.h"
#include "trellis/Transforms/Spmd/TransposeOpInterfaceImpl.h"
#include "trellis/Transforms/Spmd/VarianceInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDTRANSPOSE
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;
using mlir::spmd::transpose::Transposer;

namespace {

constexpr StringLiteral kTransposeAttr = SpmdDialect::kTransposeAttrName;
constexpr StringLiteral kNonlinearAttr = SpmdDialect::kNonlinearAttrName;

} // namespace

namespace mlir::spmd::transpose {

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

bool isFloat(Type type) { return isa<FloatType>(getElementTypeOrSelf(type)); }

Value zeros(OpBuilder &b, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(stripVaryEncoding(type));
  Type element = tensor.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  // An explicit sharding in the type stays: a cotangent has its primal's
  // type.
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(), element,
                                        tensor.getEncoding());
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

Value reductionZeros(OpBuilder &b, Location loc, Type type, ValueRange inputs) {
  auto tensor = cast<RankedTensorType>(stripVaryEncoding(type));
  bool explicitInput = llvm::any_of(inputs, [](Value v) {
    return static_cast<bool>(
        trellis::getShardingEncoding(stripVaryEncoding(v.getType())));
  });
  if (!explicitInput || trellis::getShardingEncoding(tensor))
    return zeros(b, loc, tensor);
  return arith::ConstantOp::create(
      b, loc, tensor,
      DenseElementsAttr::get(tensor, b.getZeroAttr(tensor.getElementType())));
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value negate(OpBuilder &b, Location loc, Value x) {
  if (isFloat(x.getType()))
    return arith::NegFOp::create(b, loc, x);
  return arith::SubIOp::create(b, loc, zeros(b, loc, x.getType()), x);
}

ArrayAttr axesAttr(OpBuilder &b, ArrayRef<StringAttr> axes) {
  return b.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));
}

/// Whether `v` is statically all zeros (through pvarys).
bool isZero(Value v) {
  while (auto pvary = v.getDefiningOp<PvaryOp>())
    v = pvary.getOperand();
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return trellis::isZeroConstant(fill.getInputs()[0]);
  return trellis::isZeroConstant(v);
}

/// Whether `v` is zeros with slices inserted (at most `depth` deep).
static bool isSlicesOfZeros(Value v, int depth = 8) {
  if (isZero(v))
    return true;
  auto insert = v.getDefiningOp<tensor::InsertSliceOp>();
  return insert && depth > 0 && isSlicesOfZeros(insert.getDest(), depth - 1);
}

/// acc + c for c = insert(x into d) with d slices of zeros: (acc + d) with
/// acc's slice plus x inserted where x goes (x overwrote d there).
static Value addSlices(OpBuilder &b, Location loc, Value acc, Value c) {
  if (isZero(c))
    return acc;
  auto insert = c.getDefiningOp<tensor::InsertSliceOp>();
  Value rest = addSlices(b, loc, acc, insert.getDest());
  Value slice = tensor::ExtractSliceOp::create(
      b, loc, insert.getSourceType(), acc, insert.getMixedOffsets(),
      insert.getMixedSizes(), insert.getMixedStrides());
  Value sum = buildAdd(b, loc, slice, insert.getSource());
  return tensor::InsertSliceOp::create(
      b, loc, sum, rest, insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
}

Value addCotangents(OpBuilder &b, Location loc, Value acc, Value c) {
  if (acc.getType() == c.getType()) {
    if (c.getDefiningOp<tensor::InsertSliceOp>() && isSlicesOfZeros(c))
      return addSlices(b, loc, acc, c);
    if (acc.getDefiningOp<tensor::InsertSliceOp>() && isSlicesOfZeros(acc))
      return addSlices(b, loc, c, acc);
  }
  return buildAdd(b, loc, acc, c);
}

//===----------------------------------------------------------------------===//
// Transposer
//===----------------------------------------------------------------------===//

LogicalResult Transposer::analyzeBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(analyzeOp(&op)))
      return failure();
  return success();
}

LogicalResult Transposer::analyzeOp(Operation *op) {
  if (auto map = dyn_cast<ShardMapOp>(op)) {
    for (auto [operand, arg] :
         llvm::zip(map.getInputs(), map.getBodyBlock().getArguments()))
      if (isLinear(operand))
        linear.insert(arg);
    if (failed(analyzeBlock(map.getBodyBlock())))
      return failure();
    // Its used non-linear outputs are computed forward by a copy that
    // keeps only them (cloneForwardShardMap).
    for (auto [result, value] :
         llvm::zip(map.getResults(),
                   map.getBodyBlock().getTerminator()->getOperands()))
      if (isLinear(value))
        linear.insert(result);
    return success();
  }
  if (isa<trellis::AutoAxesOp, trellis::ExplicitAxesOp>(op)) {
    Block &body = op->getRegion(0).front();
    for (auto [operand, arg] :
         llvm::zip(op->getOperands(), body.getArguments()))
      if (isLinear(operand))
        linear.insert(arg);
    if (failed(analyzeBlock(body)))
      return failure();
    for (auto [result, value] :
         llvm::zip(op->getResults(), body.getTerminator()->getOperands()))
      if (isLinear(value))
        linear.insert(result);
    return success();
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (Region &region : branch->getRegions()) {
      if (region.empty())
        continue;
      if (failed(analyzeBlock(region.front())))
        return failure();
      for (auto [j, value] :
           llvm::enumerate(region.front().getTerminator()->getOperands()))
        if (isLinear(value))
          linear.insert(branch.getResult(j));
    }
    for (Value result : branch.getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (isLinear(result) && !(type && type.hasStaticShape()))
        return branch.emitOpError("computes a value that is not a statically "
                                  "shaped tensor from the linear arguments");
    }
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    while (true) {
      for (auto [init, arg] :
           llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs()))
        if (isLinear(init))
          linear.insert(arg);
      if (failed(analyzeBlock(*loop.getBody())))
        return failure();
      bool changed = false;
      for (auto [value, arg] :
           llvm::zip(yield.getOperands(), loop.getRegionIterArgs()))
        if (isLinear(value) && !isLinear(arg)) {
          linear.insert(arg);
          changed = true;
        }
      if (!changed)
        break;
    }
    bool anyLinear = llvm::any_of(loop.getRegionIterArgs(),
                                  [&](Value v) { return isLinear(v); });
    for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (isLinear(arg)) {
        linear.insert(loop.getResult(k));
        continue;
      }
      // A non-linear value carried beside linear ones is saved per
      // iteration by the forward copy (cloneForwardFor), in a tensor with
      // one row per iteration, when the trip count is a constant; else the
      // backward loop recomputes it from the start.
      if (!anyLinear || !getConstantTripCount(loop))
        continue;
      Type type = arg.getType();
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!(tensor && tensor.hasStaticShape()) && !type.isIntOrIndexOrFloat())
        return loop.emitOpError("carries value #")
               << k << " of type " << type
               << " beside linear values; spmd-transpose saves such values "
                  "per iteration, and only statically shaped tensors and "
                  "scalars";
    }
    return success();
  }
  // An init that a linalg payload does not read (fill, transpose,
  // broadcast, a generic that overwrites) does not make the result linear.
  if (readsLinear(op))
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        return op->emitOpError(
                   "computes a non-tensor value from the linear arguments; ")
               << "spmd-transpose transposes functions that are linear in "
                  "tensors";
      if (!type.hasStaticShape())
        return op->emitOpError("computes a dynamically shaped value from the "
                               "linear arguments; spmd-transpose needs static "
                               "shapes");
      linear.insert(result);
    }
  return success();
}

LogicalResult Transposer::cloneForward(Block &block, Scope &s, OpBuilder &b) {
  for (Operation &op : block.without_terminator()) {
    if (touchesLinear(&op)) {
      if (auto map = dyn_cast<ShardMapOp>(&op))
        if (failed(cloneForwardShardMap(map, s, b)))
          return failure();
      if (auto loop = dyn_cast<scf::ForOp>(&op))
        if (failed(cloneForwardFor(loop, s, b)))
          return failure();
      if (auto branch = dyn_cast<scf::IfOp>(&op))
        if (failed(cloneForwardIf(branch, s, b)))
          return failure();
      if (isa<trellis::AutoAxesOp, trellis::ExplicitAxesOp>(&op))
        if (failed(cloneForwardAxisRegion(&op, s, b)))
          return failure();
      continue;
    }
    // A linalg op may overwrite a linear init without reading it (a fill);
    // its copy writes into a fresh tensor instead.
    IRMapping local = s.fwd;
    for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
      if (!isLinear(operand)) {
        if (!s.fwd.contains(operand))
          return op.emitOpError("operand #")
                 << i
                 << " does not depend on the linear arguments but is "
                    "computed by an op that spmd-transpose transposes; it "
                    "cannot be recomputed forward";
        continue;
      }
      auto type = cast<RankedTensorType>(stripVaryEncoding(operand.getType()));
      local.map(operand, tensor::EmptyOp::create(
                             b, op.getLoc(), type.getShape(),
                             type.getElementType(), type.getEncoding()));
    }
    Operation *copy = b.clone(op, local);
    for (auto [old, now] : llvm::zip(op.getResults(), copy->getResults()))
      s.fwd.map(old, now);
  }
  return success();
}

LogicalResult Transposer::cloneForwardShardMap(ShardMapOp map, Scope &s,
                                               OpBuilder &b) {
  SmallVector<unsigned> inputs, outputs;
  for (auto [k, operand] : llvm::enumerate(map.getInputs()))
    if (!isLinear(operand))
      inputs.push_back(k);
  for (auto [j, result] : llvm::enumerate(map.getResults()))
    if (!isLinear(result) && !result.use_empty())
      outputs.push_back(j);
  if (outputs.empty())
    return success();
  Location loc = map.getLoc();
  Block &body = map.getBodyBlock();
  Operation *yield = body.getTerminator();
  SmallVector<Value> operands;
  SmallVector<Attribute> inSpecs, outSpecs;
  SmallVector<Type> resultTypes;
  for (unsigned k : inputs) {
    operands.push_back(fwd(s, map.getInputs()[k]));
    inSpecs.push_back(map.getInSpecs()[k]);
  }
  for (unsigned j : outputs) {
    outSpecs.push_back(map.getOutSpecs()[j]);
    resultTypes.push_back(stripVaryEncoding(map.getResult(j).getType()));
  }
  auto copy = ShardMapOp::create(
      b, loc, resultTypes, map.getMeshAttr(), b.getArrayAttr(inSpecs),
      b.getArrayAttr(outSpecs), map.getManualAxesAttr(), map.getCheckVmaAttr(),
      operands);
  auto *block = new Block();
  copy.getBody().push_back(block);
  Scope inner;
  for (unsigned k : inputs)
    inner.fwd.map(body.getArgument(k),
                  block->addArgument(
                      stripVaryEncoding(body.getArgument(k).getType()), loc));
  OpBuilder ib = OpBuilder::atBlockBegin(block);
  if (failed(cloneForward(body, inner, ib)))
    return failure();
  SmallVector<Value> yielded;
  for (unsigned j : outputs)
    yielded.push_back(inner.fwd.lookup(yield->getOperand(j)));
  YieldOp::create(ib, loc, yielded);
  for (auto [idx, j] : llvm::enumerate(outputs))
    s.fwd.map(map.getResult(j), copy.getResult(idx));
  return success();
}

LogicalResult Transposer::transposeBackward(Block &block, Scope &s,
                                            OpBuilder &b) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    if (touchesLinear(&op))
      ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops)) {
    // A result with no cotangent contributes nothing.
    if (llvm::none_of(op->getResults(), [&](Value v) { return s.ct.count(v); }))
      continue;
    if (failed(transposeOp(op, s, b)))
      return failure();
  }
  return success();
}

LogicalResult Transposer::transposeOp(Operation *op, Scope &s, OpBuilder &b) {
  // Every non-linear operand must have been computed forward.
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (!isLinear(operand) && !s.fwd.contains(operand))
      return op->emitOpError("operand #")
             << i
             << " does not depend on the linear arguments but is computed "
                "by an op that spmd-transpose transposes; it cannot be "
                "recomputed forward";
  Value c = op->getNumResults() ? s.ct.lookup(op->getResult(0)) : Value();

  // Single ops transpose by their TransposeOpInterface rule (the pass
  // attaches the models of the upstream ops).
  ScopeState state(*this, s);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](TransposeOpInterface rule) {
        return rule.transpose(state, c, b);
      })
      // Typed collectives (the asynchronous halves are not: they come later).
      .Case([&](CollectiveOpInterface collective) {
        if (op->getNumOperands() == 1 && collective.getVarianceRule())
          return transposeCollective(collective, s, b);
        return noRule(op);
      })
      .Case([&](ShardMapOp map) { return transposeShardMap(map, s, b); })
      .Case<trellis::AutoAxesOp, trellis::ExplicitAxesOp>(
          [&](Operation *region) { return transposeAxisRegion(region, s, b); })
      .Case([&](scf::ForOp loop) { return transposeFor(loop, s, b); })
      .Case([&](scf::IfOp branch) { return transposeIf(branch, s, b); })
      // Other linalg ops: contractions.
      .Case([&](linalg::LinalgOp linalgOp) {
        return transposeLinalg(linalgOp, state, b);
      })
      .Default([&](Operation *) { return noRule(op); });
}

LogicalResult Transposer::noRule(Operation *op) {
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (isLinear(operand))
      return op->emitOpError("takes linear operand #")
             << i
             << ", but spmd-transpose has no rule to transpose it (it may "
                "not be linear)";
  return op->emitOpError("uses linear values in its regions, but "
                         "spmd-transpose has no rule to transpose it");
}

FailureOr<func::FuncOp> Transposer::run(func::FuncOp primal, StringRef name,
                                        OpBuilder &b,
                                        unsigned numForwardResults) {
  this->numForwardResults = numForwardResults;
  if (primal.isExternal())
    return primal.emitOpError("has no body to transpose");
  if (!primal.getBody().hasOneBlock())
    return primal.emitOpError("has more than one block; spmd-transpose "
                              "transposes single-block functions");
  Block &body = primal.getBody().front();
  SmallVector<unsigned> nonlinearArgs, linearArgs;
  for (BlockArgument arg : body.getArguments()) {
    if (primal.getArgAttr(arg.getArgNumber(), kNonlinearAttr)) {
      nonlinearArgs.push_back(arg.getArgNumber());
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return primal.emitOpError("argument #")
             << arg.getArgNumber()
             << " is not a statically shaped tensor; spmd-transpose needs "
                "one for every linear argument (mark others spmd.nonlinear)";
    linearArgs.push_back(arg.getArgNumber());
    linear.insert(arg);
  }
  if (failed(analyzeBlock(body)))
    return failure();

  SmallVector<Type> inputs, results;
  for (unsigned k : nonlinearArgs)
    inputs.push_back(body.getArgument(k).getType());
  for (auto [j, type] : llvm::enumerate(primal.getResultTypes())) {
    if (j < numForwardResults)
      results.push_back(type);
    else
      inputs.push_back(type);
  }
  for (unsigned k : linearArgs)
    results.push_back(body.getArgument(k).getType());
  auto t = func::FuncOp::create(b, primal.getLoc(), name,
                                b.getFunctionType(inputs, results));
  for (StringRef attr :
       {SpmdDialect::kMeshAttrName, SpmdDialect::kManualAxesAttrName})
    if (Attribute value = primal->getAttr(attr))
      t->setAttr(attr, value);
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    if (DictionaryAttr attrs = primal.getArgAttrDict(k))
      cast<FunctionOpInterface>(t.getOperation()).setArgAttrs(idx, attrs);
  if (failed(buildBody(primal, t, nonlinearArgs, linearArgs))) {
    t.erase();
    return failure();
  }
  return t;
}

LogicalResult Transposer::buildBody(func::FuncOp primal, func::FuncOp t,
                                    ArrayRef<unsigned> nonlinearArgs,
                                    ArrayRef<unsigned> linearArgs) {
  Block &body = primal.getBody().front();
  Block *entry = t.addEntryBlock();
  OpBuilder fb = OpBuilder::atBlockBegin(entry);
  Scope s;
  for (auto [idx, k] : llvm::enumerate(nonlinearArgs))
    s.fwd.map(body.getArgument(k), entry->getArgument(idx));
  if (failed(cloneForward(body, s, fb)))
    return failure();
  Operation *ret = body.getTerminator();
  SmallVector<Value> cotangents;
  for (auto [j, value] : llvm::enumerate(ret->getOperands())) {
    if (j < numForwardResults) {
      if (isLinear(value) || !s.fwd.contains(value))
        return primal.emitOpError("result #")
               << j << " is returned forward but depends on the linear "
               << "arguments";
      cotangents.push_back(s.fwd.lookup(value));
      continue;
    }
    if (!isLinear(value))
      return primal.emitOpError("result #")
             << j << " does not depend on the linear arguments";
    accumulate(
        s, fb, primal.getLoc(), value,
        entry->getArgument(nonlinearArgs.size() + j - numForwardResults));
  }
  if (failed(transposeBackward(body, s, fb)))
    return failure();
  for (unsigned k : linearArgs) {
    Value c = s.ct.lookup(body.getArgument(k));
    cotangents.push_back(
        c ? c : zeros(fb, primal.getLoc(), body.getArgument(k).getType()));
  }
  func::ReturnOp::create(fb, primal.getLoc(), cotangents);
  return success();
}

} // namespace mlir::spmd::transpose

namespace {

/// Whether `op` can go: no uses and no side effects, or a synchronous
/// collective whose result nobody reads. Every device runs the same program,
/// so dropping a collective from all of them keeps them matched; the
/// forward copies that transposition makes would otherwise communicate for
/// nothing (the recomputed all-reduce of a loss).
bool isDead(Operation *op) {
  if (isOpTriviallyDead(op))
    return true;
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  return collective && op->getNumResults() == 1 && op->use_empty() &&
         !isa<FutureType>(op->getResult(0).getType()) &&
         op->getNumRegions() == 0;
}

/// Erases ops without uses or side effects, and unread collectives.
void eraseDeadOps(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    // Pre-order, not entering a dead op's regions: erasing it frees what
    // they hold, which must not be visited again.
    SmallVector<Operation *> dead;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != func && isDead(op)) {
        dead.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (Operation *op : llvm::reverse(dead))
      if (isDead(op)) {
        op->erase();
        changed = true;
      }
  }
}

struct TransposePass : spmd::impl::SpmdTransposeBase<TransposePass> {
  using SpmdTransposeBase::SpmdTransposeBase;

  /// The rules of the upstream ops are TransposeOpInterface models.
  void getDependentDialects(DialectRegistry &registry) const override {
    SpmdTransposeBase::getDependentDialects(registry);
    registerTransposeOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> todo;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kTransposeAttr) ||
          llvm::is_contained(funcs, func.getSymName()))
        todo.push_back(func);
    for (const std::string &name : funcs)
      if (!symbols.lookup<func::FuncOp>(name)) {
        module.emitError() << "spmd-transpose: no function named @" << name;
        return signalPassFailure();
      }
    for (func::FuncOp func : todo) {
      // A marked function whose transpose exists was transposed by an
      // earlier run (the marker stays on the input).
      if (!llvm::is_contained(funcs, func.getSymName()) &&
          symbols.lookup((func.getSymName() + suffix).str()))
        continue;
      if (failed(transpose(func, symbols)))
        return signalPassFailure();
    }
  }

  LogicalResult transpose(func::FuncOp primal, SymbolTable &symbols) {
    std::string name = (primal.getSymName() + suffix).str();
    TransposeOptions options;
    options.naive = naive;
    FailureOr<func::FuncOp> t =
        transposeFunction(primal, name, symbols, options);
    if (failed(t))
      return failure();
    (*t)->removeAttr(kTransposeAttr);
    return success();
  }
};

} // namespace

void mlir::spmd::stripVarianceInside(func::FuncOp func, bool keepArguments) {
  func.walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      result.setType(stripVaryEncoding(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!(keepArguments && &block == &func.getBody().front()))
          for (BlockArgument arg : block.getArguments())
            arg.setType(stripVaryEncoding(arg.getType()));
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        constant.setValueAttr(dense.reshape(
            cast<ShapedType>(stripVaryEncoding(dense.getType()))));
  });
  if (!keepArguments)
    for (BlockArgument arg : func.getArguments())
      arg.setType(stripVaryEncoding(arg.getType()));
  Block &entry = func.getBody().front();
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 entry.getTerminator()->getOperandTypes()));
}

FailureOr<func::FuncOp>
mlir::spmd::transposeFunction(func::FuncOp primal, StringRef name,
                              SymbolTable &symbols,
                              const TransposeOptions &options) {
  if (symbols.lookup(name))
    return primal.emitOpError("cannot be transposed into @")
           << name << ": that symbol exists already";
  bool device = primal->hasAttr(SpmdDialect::kMeshAttrName);

  // Type a copy of the primal: the rules read the variance of outputs.
  OpBuilder b(primal);
  auto typed = cast<func::FuncOp>(b.clone(*primal));
  symbols.insert(typed);
  // While loops on linear values run backwards as counted loops.
  SmallVector<Value> linearArgs;
  for (BlockArgument arg : typed.getArguments())
    if (!typed.getArgAttr(arg.getArgNumber(), SpmdDialect::kNonlinearAttrName))
      linearArgs.push_back(arg);
  LogicalResult ok =
      rewriteWhileLoops(typed, linearArgs, /*activeCondition=*/false);
  VarianceOptions variance;
  if (succeeded(ok))
    ok = device ? inferVariance(typed, variance)
                : inferVarianceIn(typed, variance);
  FailureOr<func::FuncOp> t = failure();
  if (succeeded(ok)) {
    b.setInsertionPointAfter(primal);
    Transposer transposer(options.naive);
    t = transposer.run(typed, name, b, options.numForwardResults);
  }
  symbols.erase(typed);
  if (failed(t))
    return failure();
  symbols.insert(*t);

  // Forward values that only the skipped (zero-cotangent) parts needed.
  eraseDeadOps(*t);
  // Type the result from scratch: this inserts the pvarys it needs and
  // checks it like any program.
  stripVarianceInside(*t, /*keepArguments=*/device);
  LogicalResult typedResult =
      device ? inferVariance(*t, variance) : inferVarianceIn(*t, variance);
  if (failed(typedResult))
    return (*t)->emitOpError("(the transpose of @")
           << primal.getSymName()
           << ") fails the variance check; this is a bug in spmd-transpose";
  return *t;
}

void mlir::spmd::registerTransposeOpInterfaceExternalModels(
    DialectRegistry &registry) {
  transpose::registerElementwiseTransposeModels(registry);
  transpose::registerLinalgTransposeModels(registry);
}
