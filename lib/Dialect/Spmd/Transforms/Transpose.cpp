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

#include "lib/Dialect/Spmd/Transforms/Transposer.h"

#include "lib/Dialect/Spmd/Transforms/ArithBuilders.h"
#include "trellis/Dialect/Spmd/IR/ManualContext.h"
#include "trellis/Dialect/Spmd/IR/SpmdOps.h"
#include "trellis/Dialect/Spmd/Transforms/Passes.h"
#include "trellis/Dialect/Spmd/Transforms/TransposeOpInterfaceImpl.h"
#include "trellis/Dialect/Spmd/Transforms/VarianceInference.h"
#include "trellis/Dialect/Trellis/IR/ShardingUtils.h"

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
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"
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
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(), element);
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
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
    bool anyLinear = false;
    for (auto [result, value] :
         llvm::zip(map.getResults(),
                   map.getBodyBlock().getTerminator()->getOperands()))
      if (isLinear(value)) {
        linear.insert(result);
        anyLinear = true;
      }
    // Its non-linear outputs would have to be computed forward, by a
    // shard_map that also computes the linear ones.
    if (anyLinear)
      for (auto [j, result] : llvm::enumerate(map.getResults()))
        if (!isLinear(result) && !result.use_empty())
          return map.emitOpError("output #")
                 << j
                 << " does not depend on the linear arguments but is used, "
                    "while other outputs do; spmd-transpose needs the used "
                    "outputs of such a shard_map to be all linear (split it)";
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
      if (isLinear(arg))
        linear.insert(loop.getResult(k));
      else if (anyLinear)
        return loop.emitOpError("carries value #")
               << k
               << ", which does not depend on the linear arguments, beside "
                  "linear ones; spmd-transpose transposes loops whose "
                  "carried values are all linear";
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
    if (touchesLinear(&op))
      continue;
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
      local.map(operand,
                tensor::EmptyOp::create(b, op.getLoc(), type.getShape(),
                                        type.getElementType()));
    }
    Operation *copy = b.clone(op, local);
    for (auto [old, now] : llvm::zip(op.getResults(), copy->getResults()))
      s.fwd.map(old, now);
  }
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
      .Case([&](scf::ForOp loop) { return transposeFor(loop, s, b); })
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
                                        OpBuilder &b) {
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
  for (Type type : primal.getResultTypes())
    inputs.push_back(type);
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
  for (auto [j, value] : llvm::enumerate(ret->getOperands())) {
    if (!isLinear(value))
      return primal.emitOpError("result #")
             << j << " does not depend on the linear arguments";
    accumulate(s, fb, primal.getLoc(), value,
               entry->getArgument(nonlinearArgs.size() + j));
  }
  if (failed(transposeBackward(body, s, fb)))
    return failure();
  SmallVector<Value> cotangents;
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

/// Drops `#spmd.vary` from every type inside `func`'s body (but not from its
/// arguments when `keepArguments`) and from constants.
void stripVarianceInside(func::FuncOp func, bool keepArguments) {
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

/// Erases ops without uses or side effects (collectives stay).
void eraseDeadOps(func::FuncOp func) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    func.walk([&](Operation *op) {
      if (op != func && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead))
      if (isOpTriviallyDead(op)) {
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
    if (symbols.lookup(name))
      return primal.emitOpError("cannot be transposed into @")
             << name << ": that symbol exists already";
    bool device = primal->hasAttr(SpmdDialect::kMeshAttrName);

    // Type a copy of the primal: the rules read the variance of outputs.
    OpBuilder b(primal);
    auto typed = cast<func::FuncOp>(b.clone(*primal));
    symbols.insert(typed);
    VarianceOptions options;
    LogicalResult ok = device ? inferVariance(typed, options)
                              : inferVarianceIn(typed, options);
    FailureOr<func::FuncOp> t = failure();
    if (succeeded(ok)) {
      b.setInsertionPointAfter(primal);
      Transposer transposer(naive);
      t = transposer.run(typed, name, b);
    }
    symbols.erase(typed);
    if (failed(t))
      return failure();
    symbols.insert(*t);
    (*t)->removeAttr(kTransposeAttr);

    // Forward values that only the skipped (zero-cotangent) parts needed.
    eraseDeadOps(*t);
    // Type the result from scratch: this inserts the pvarys it needs and
    // checks it like any program.
    stripVarianceInside(*t, /*keepArguments=*/device);
    LogicalResult typedResult =
        device ? inferVariance(*t, options) : inferVarianceIn(*t, options);
    if (failed(typedResult))
      return (*t)->emitOpError("(the transpose of @")
             << primal.getSymName()
             << ") fails the variance check; this is a bug in spmd-transpose";
    return success();
  }
};

} // namespace

void mlir::spmd::registerTransposeOpInterfaceExternalModels(
    DialectRegistry &registry) {
  transpose::registerElementwiseTransposeModels(registry);
  transpose::registerLinalgTransposeModels(registry);
}
