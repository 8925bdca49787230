//===- Grad.cpp - Reverse-mode differentiation (trellis-grad) -------------===//
//
// grad(f) = transpose(linearize(f)), as JAX builds it: the Linearizer
// builds lin(x, dx) = (f(x), df(x)[dx]), linear in dx with x as non-linear
// arguments; spmd-transpose's machinery turns it into (x, dloss) ->
// (f(x), df(x)^T[dloss]), copying the forward part (f itself) once; the
// cotangent of the loss is then fixed to 1. Seed 001's collective rules and
// device-variance types come with the transposition, so the backward pass of
// a shard_map communicates what the efficient transposes say.
//
//===----------------------------------------------------------------------===//

#include "trellis/Autodiff/Passes.h"

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisDialect.h"
#include "lib/Autodiff/Linearizer.h"
#include "trellis/Autodiff/DerivativeOpInterface.h"
#include "trellis/Transforms/Spmd/Transpose.h"
#include "trellis/Transforms/Spmd/TransposeOpInterfaceImpl.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISGRAD
#include "trellis/Autodiff/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {

constexpr StringLiteral kGradAttr = TrellisDialect::kGradAttrName;
constexpr StringLiteral kNameAttr = TrellisDialect::kNameAttrName;

struct GradPass : trellis::impl::TrellisGradBase<GradPass> {
  using TrellisGradBase::TrellisGradBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    TrellisGradBase::getDependentDialects(registry);
    registerDerivativeOpInterfaceExternalModels(registry);
    spmd::registerTransposeOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (const std::string &name : funcs)
      if (!symbols.lookup<func::FuncOp>(name)) {
        module.emitError() << "trellis-grad: no function named @" << name;
        return signalPassFailure();
      }
    SmallVector<func::FuncOp> todo;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kGradAttr) ||
          llvm::is_contained(funcs, func.getSymName()))
        todo.push_back(func);
    for (func::FuncOp func : todo) {
      // A marked function whose gradient exists (not just its declaration)
      // was done by an earlier run.
      auto existing = symbols.lookup<func::FuncOp>(
          (func.getSymName() + (jvp ? StringRef("_jvp") : suffix)).str());
      if (!llvm::is_contained(funcs, func.getSymName()) && existing &&
          !existing.isExternal())
        continue;
      if (failed(differentiate(func, symbols)))
        return signalPassFailure();
    }
  }

  /// The arguments to differentiate with respect to.
  FailureOr<SmallVector<unsigned>> chooseWrt(func::FuncOp f) {
    SmallVector<unsigned> chosen;
    if (!wrt.empty()) {
      chosen.assign(wrt.begin(), wrt.end());
    } else if (auto list = f->getAttrOfType<ArrayAttr>(kGradAttr)) {
      for (Attribute a : list) {
        auto index = dyn_cast<IntegerAttr>(a);
        if (!index || index.getInt() < 0)
          return f.emitOpError("has a trellis.grad attribute that is not a "
                               "list of argument indices");
        chosen.push_back(index.getInt());
      }
    } else {
      for (auto [k, type] : llvm::enumerate(f.getArgumentTypes()))
        if (autodiff::isFloatTensor(type))
          chosen.push_back(k);
      if (chosen.empty())
        return f.emitOpError("has no floating-point tensor argument to "
                             "differentiate with respect to");
    }
    for (auto [idx, k] : llvm::enumerate(chosen)) {
      if (k >= f.getNumArguments())
        return f.emitOpError("has no argument #")
               << k << " to differentiate with respect to";
      auto type = dyn_cast<RankedTensorType>(f.getArgumentTypes()[k]);
      if (!autodiff::isFloatTensor(f.getArgumentTypes()[k]) ||
          !type.hasStaticShape())
        return f.emitOpError("argument #")
               << k
               << " is not a statically shaped floating-point tensor; "
                  "trellis-grad differentiates with respect to those";
      if (llvm::is_contained(ArrayRef(chosen).take_front(idx), k))
        return f.emitOpError("lists argument #")
               << k << " twice to differentiate with respect to";
    }
    return chosen;
  }

  LogicalResult differentiate(func::FuncOp f, SymbolTable &symbols) {
    std::string name = (f.getSymName() + suffix).str();
    // A declaration of the gradient (so that other code can call it before
    // it exists) is replaced by it; anything else in the way is an error.
    auto declared = symbols.lookup<func::FuncOp>(name);
    FunctionType declaredType;
    SymbolTable::Visibility declaredVisibility =
        SymbolTable::Visibility::Public;
    if (declared && declared.isExternal() && !jvp) {
      declaredType = declared.getFunctionType();
      declaredVisibility = declared.getVisibility();
      symbols.erase(declared);
    } else if (symbols.lookup(name)) {
      return f.emitOpError("cannot be differentiated into @")
             << name << ": that symbol exists already";
    }
    if (f.isExternal())
      return f.emitOpError("has no body to differentiate");
    if (!f.getBody().hasOneBlock())
      return f.emitOpError("has more than one block; trellis-grad "
                           "differentiates single-block functions");
    auto loss = f.getNumResults()
                    ? dyn_cast<RankedTensorType>(f.getResultTypes()[0])
                    : RankedTensorType();
    if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType()))
      return f.emitOpError("must return a scalar floating-point loss "
                           "(e.g. tensor<f32>) as result #0 to be "
                           "differentiated");
    FailureOr<SmallVector<unsigned>> chosen = chooseWrt(f);
    if (failed(chosen))
      return failure();
    bool device = f->hasAttr(spmd::SpmdDialect::kMeshAttrName);

    // Work on a copy without variance types inside: the linearized program
    // is typed again by the transposition.
    OpBuilder b(f);
    auto work = cast<func::FuncOp>(b.clone(*f));
    symbols.insert(work);
    spmd::stripVarianceInside(work, /*keepArguments=*/device);
    // Explicit shardings in types are inferred first, so that tangents and
    // cotangents carry their primals' shardings (as JAX's avals do) and the
    // transposed reductions know the layout their result must have.
    if (failed(trellis::inferShardingsInFunction(work))) {
      symbols.erase(work);
      return failure();
    }
    SmallVector<Value> active;
    for (unsigned k : *chosen)
      active.push_back(work.getArgument(k));
    if (failed(spmd::rewriteWhileLoops(work, active,
                                       /*activeCondition=*/true))) {
      symbols.erase(work);
      return failure();
    }
    b.setInsertionPointAfter(work);
    autodiff::Linearizer linearizer;
    FailureOr<func::FuncOp> lin = linearizer.run(
        work, *chosen, (f.getSymName() + "_linearized").str(), b);
    FailureOr<func::FuncOp> grad = failure();
    if (succeeded(lin) && jvp) {
      symbols.erase(work);
      (*lin).setSymName((f.getSymName() + "_jvp").str());
      symbols.insert(*lin);
      (*lin)->moveAfter(f);
      (*lin).setVisibility(f.getVisibility());
      for (unsigned k = 0; k < f.getNumArguments(); ++k)
        (*lin).removeArgAttr(k, spmd::SpmdDialect::kNonlinearAttrName);
      return success();
    }
    if (succeeded(lin)) {
      symbols.insert(*lin);
      spmd::TransposeOptions options;
      options.numForwardResults = f.getNumResults();
      options.naive = naive;
      grad = spmd::transposeFunction(*lin, name, symbols, options);
      symbols.erase(*lin);
    }
    symbols.erase(work);
    if (failed(grad))
      return failure();
    (*grad)->moveAfter(f);
    finish(*grad, f, *chosen);
    if (declaredType) {
      grad->setVisibility(declaredVisibility);
      if (declaredType != grad->getFunctionType())
        return grad->emitOpError("is declared with type ")
               << declaredType << " but the gradient has type "
               << grad->getFunctionType();
    }
    return success();
  }

  /// Fixes the loss cotangent to 1 and gives the gradient f's attributes.
  void finish(func::FuncOp grad, func::FuncOp f, ArrayRef<unsigned> chosen) {
    unsigned n = f.getNumArguments(), results = f.getNumResults();
    Block &entry = grad.getBody().front();
    BlockArgument seed = entry.getArgument(n);
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Value one = autodiff::constantLike(b, f.getLoc(), seed.getType(), 1.0);
    seed.replaceAllUsesWith(one);
    (void)grad.eraseArgument(n);
    for (unsigned k = 0; k < n; ++k)
      grad.removeArgAttr(k, spmd::SpmdDialect::kNonlinearAttrName);
    for (unsigned j = 0; j < results; ++j)
      if (DictionaryAttr attrs = f.getResultAttrDict(j))
        grad.setResultAttrs(j, attrs);
    for (auto [idx, k] : llvm::enumerate(chosen)) {
      unsigned j = results + idx;
      for (NamedAttribute attr :
           cast<FunctionOpInterface>(f.getOperation()).getArgAttrs(k)) {
        if (attr.getName() == spmd::SpmdDialect::kNonlinearAttrName)
          continue;
        if (attr.getName() == kNameAttr) {
          if (auto str = dyn_cast<StringAttr>(attr.getValue()))
            grad.setResultAttr(j, kNameAttr,
                               b.getStringAttr("grad_" + str.getValue()));
          continue;
        }
        grad.setResultAttr(j, attr.getName(), attr.getValue());
      }
    }
    grad.setVisibility(f.getVisibility());
  }
};

} // namespace
