//===- InferShardings.cpp - Shardings in types, per op rule ---------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISINFERSHARDINGS
#include "trellis/Transforms/Trellis/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {

using Axes = SmallVector<StringAttr>;

/// JAX's name for the primitive an op computes (for error messages).
std::string primitiveName(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    // An elementwise generic computing one arith/math op is that op.
    Block &body = generic.getRegion().front();
    if (body.getOperations().size() == 2)
      return primitiveName(&body.front());
    if (linalg::isaContractionOpInterface(generic))
      return "dot_general";
    return "generic";
  }
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
      (isa<linalg::LinalgOp>(op) &&
       linalg::isaContractionOpInterface(cast<linalg::LinalgOp>(op))))
    return "dot_general";
  static const std::pair<StringRef, StringRef> renames[] = {
      {"addf", "add"},
      {"addi", "add"},
      {"subf", "sub"},
      {"subi", "sub"},
      {"mulf", "mul"},
      {"muli", "mul"},
      {"divf", "div"},
      {"divsi", "div"},
      {"divui", "div"},
      {"maximumf", "max"},
      {"maxnumf", "max"},
      {"maxsi", "max"},
      {"minimumf", "min"},
      {"minnumf", "min"},
      {"minsi", "min"},
      {"negf", "neg"},
      {"expand_shape", "reshape"},
      {"collapse_shape", "reshape"},
      {"extract_slice", "slice"},
      {"insert_slice", "dynamic_update_slice"},
      {"concat", "concatenate"}};
  for (auto [from, to] : renames)
    if (name == from)
      return to.str();
  return name.str();
}

/// JAX's spelling of one dimension's axes inside a spec tuple.
std::string specEntry(ArrayRef<StringAttr> axes) {
  if (axes.empty())
    return "None";
  if (axes.size() == 1)
    return "'" + axes[0].getValue().str() + "'";
  return formatAxesTuple(axes);
}

std::string specTuple(ArrayRef<Axes> dims) {
  std::string text = "(" + llvm::join(llvm::map_range(dims, specEntry), ", ");
  if (dims.size() == 1)
    text += ",";
  return text + ")";
}

Axes axesOf(ShardingAttr sharding, unsigned dim) {
  if (!sharding)
    return {};
  return Axes(sharding.getAxes(dim).begin(), sharding.getAxes(dim).end());
}

/// An op that creates a fresh tensor whose sharding nothing has asked for
/// (its type has no sharding encoding): tensor.empty, or a destination-style
/// op with no tensor inputs writing into one (linalg.fill, or a generic
/// computing from indices). Wider than the partitioner's isEmptyOrFillOfEmpty,
/// which takes only tensor.empty and fills of it, sharded or not.
bool isUnshardedFreshInit(Operation *op) {
  if (!op || op->getNumResults() != 1 ||
      getShardingEncoding(op->getResult(0).getType()))
    return false;
  if (isa<tensor::EmptyOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInits() != 1)
    return false;
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (isa<RankedTensorType>(input->get().getType()))
      return false;
  return isUnshardedFreshInit(
      linalgOp.getDpsInitOperand(0)->get().getDefiningOp());
}

struct Inferrer {
  ModuleOp module;
  /// Whether some function had shardings in its types to infer from.
  bool inferredAny = false;

  LogicalResult inferBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(inferOp(&op)))
        return failure();
    return success();
  }

  LogicalResult inferRegions(Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(inferBlock(block)))
          return failure();
    return success();
  }

  LogicalResult inferOp(Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op))
      return inferFunc(func);
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return inferFor(forOp);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return inferIf(ifOp);
    if (isa<AutoAxesOp, ExplicitAxesOp, spmd::ShardMapOp, scf::WhileOp>(op))
      return inferRegions(op);
    if (isa<ReshardOp, ShardingConstraintOp, PropagationBarrierOp,
            ShardingGroupOp, func::ReturnOp, scf::YieldOp, YieldOp,
            spmd::YieldOp>(op))
      return success();
    if (isa_and_nonnull<spmd::SpmdDialect>(op->getDialect()))
      return inferCollective(op);
    FailureOr<ShardingRule> rule = getShardingRule(op);
    if (succeeded(rule))
      return inferRuleOp(op, *rule);
    return checkNoRule(op);
  }

  /// Ops without a rule accept only unsharded tensors (or already carry
  /// result types that say what they do).
  LogicalResult checkNoRule(Operation *op) {
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      if (!getShardingEncoding(operand.getType()))
        continue;
      bool typedResults = llvm::all_of(op->getResultTypes(), [](Type t) {
        return !isa<RankedTensorType>(t) || getShardingEncoding(t);
      });
      if (typedResults && op->getNumResults() > 0)
        return success();
      return op->emitOpError("has no sharding rule, but operand #")
             << k << " is sharded (" << formatJaxType(operand.getType(), true)
             << "); reshard it to replicated first, or wrap the op in "
                "trellis.auto_axes";
    }
    return success();
  }

  /// Collectives in partially manual shard_maps pass the shardings of the
  /// explicit axes through; shape-changing ones need those dimensions whole.
  LogicalResult inferCollective(Operation *op) {
    if (op->getNumOperands() != 1 || op->getNumResults() != 1)
      return success();
    Type in = op->getOperand(0).getType(), out = op->getResult(0).getType();
    ShardingAttr sharding = getShardingEncoding(in);
    if (!sharding)
      return success();
    auto inType = cast<RankedTensorType>(in);
    auto outType = cast<RankedTensorType>(out);
    if (inType.getShape() != outType.getShape())
      return op->emitOpError("changes the shape of an operand that is "
                             "sharded over explicit axes (")
             << formatJaxType(in, true) << "); reshard it to replicated first";
    if (!getShardingEncoding(out))
      op->getResult(0).setType(withSharding(outType, sharding));
    return success();
  }

  /// Whether any value of `func` (arguments, results, op results, block
  /// arguments inside) has a sharding in its type.
  static bool hasShardedTypes(func::FuncOp func) {
    auto sharded = [](Type type) {
      return static_cast<bool>(getShardingEncoding(type));
    };
    if (llvm::any_of(func.getArgumentTypes(), sharded) ||
        llvm::any_of(func.getResultTypes(), sharded))
      return true;
    WalkResult found = func.walk([&](Operation *op) {
      if (llvm::any_of(op->getResultTypes(), sharded))
        return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (llvm::any_of(block.getArgumentTypes(), sharded))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return found.wasInterrupted();
  }

  LogicalResult inferFunc(func::FuncOp func) {
    // Inference only derives shardings in types from shardings in types:
    // an auto-mode function has none to derive (its rules would be
    // computed op by op for nothing).
    if (func.isExternal() || !hasShardedTypes(func))
      return success();
    inferredAny = true;
    if (failed(inferRegions(func)))
      return failure();
    // Results declared without a sharding take the inferred one. (A
    // declared sharding already matched the returned value's type when the
    // function was verified, and inference only fills missing shardings.)
    SmallVector<Type> results(func.getResultTypes());
    func.walk([&](func::ReturnOp ret) {
      for (auto [i, value] : llvm::enumerate(ret.getOperands()))
        results[i] = value.getType();
    });
    if (results != SmallVector<Type>(func.getResultTypes()))
      func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                     results));
    return success();
  }

  LogicalResult inferFor(scf::ForOp forOp) {
    if (failed(inferRegions(forOp)))
      return failure();
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (auto [i, pair] : llvm::enumerate(
             llvm::zip(forOp.getRegionIterArgs(), yield.getOperands()))) {
      auto [arg, value] = pair;
      if (arg.getType() != value.getType())
        return yield.emitOpError("yields loop-carried value #")
               << i << " as " << formatJaxType(value.getType(), true)
               << " but it enters the loop as "
               << formatJaxType(arg.getType(), true)
               << "; a carry keeps its sharding (reshard it)";
    }
    return success();
  }

  LogicalResult inferIf(scf::IfOp ifOp) {
    if (failed(inferRegions(ifOp)))
      return failure();
    if (ifOp.getNumResults() == 0)
      return success();
    SmallVector<Type> thenTypes(ifOp.thenYield().getOperandTypes());
    if (!ifOp.getElseRegion().empty()) {
      SmallVector<Type> elseTypes(ifOp.elseYield().getOperandTypes());
      for (auto [i, pair] : llvm::enumerate(llvm::zip(thenTypes, elseTypes)))
        if (std::get<0>(pair) != std::get<1>(pair))
          return ifOp.emitOpError("branches yield result #")
                 << i << " as " << formatJaxType(std::get<0>(pair), true)
                 << " and " << formatJaxType(std::get<1>(pair), true)
                 << "; both branches must give it the same sharding";
    }
    for (auto [result, type] : llvm::zip(ifOp.getResults(), thenTypes))
      result.setType(type);
    return success();
  }

  /// Gives `init` (a fresh tensor chain used as an op's destination) a
  /// private copy when others use it too, so it can be retyped.
  Value privatize(OpOperand &use) {
    Value value = use.get();
    if (value.hasOneUse())
      return value;
    Operation *def = value.getDefiningOp();
    OpBuilder b(def);
    Operation *clone = b.clone(*def);
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(clone)) {
      OpOperand *init = linalgOp.getDpsInitOperand(0);
      init->set(privatize(*init));
    }
    use.set(clone->getResult(0));
    return clone->getResult(0);
  }

  /// Retypes a fresh destination chain to `type`.
  void retypeFresh(Value value, Type type) {
    value.setType(type);
    if (auto linalgOp = value.getDefiningOp<linalg::LinalgOp>())
      retypeFresh(linalgOp.getDpsInitOperand(0)->get(), type);
  }

  LogicalResult inferRuleOp(Operation *op, const ShardingRule &rule) {
    if (rule.operands.size() != op->getNumOperands() ||
        rule.results.size() != op->getNumResults())
      return op->emitOpError("has an inconsistent sharding rule");
    // Destinations that are fresh tensors leave the result to inference.
    SmallVector<bool> freshOperand(op->getNumOperands(), false);
    for (int64_t k : rule.tiedInit)
      if (k >= 0 && isUnshardedFreshInit(op->getOperand(k).getDefiningOp())) {
        privatize(op->getOpOperand(k));
        freshOperand[k] = true;
      }

    FlatSymbolRefAttr mesh;
    SmallVector<Axes> factorAxes(rule.numFactors());
    SmallVector<std::pair<unsigned, unsigned>> factorSource(rule.numFactors(),
                                                            {~0u, ~0u});
    bool reshapeOfSharded = false;
    auto inputTypes = [&]() {
      SmallVector<Value> inputs;
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
        inputs = llvm::to_vector(dps.getDpsInputs());
      else
        inputs = llvm::to_vector(op->getOperands());
      SmallVector<std::string> types;
      for (Value v : inputs)
        if (isa<RankedTensorType>(v.getType()))
          types.push_back(formatJaxType(v.getType(), true));
      return llvm::join(types, ", ");
    };

    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || freshOperand[k])
        continue;
      ShardingAttr sharding = getShardingEncoding(type);
      if (sharding) {
        if (mesh && mesh != sharding.getMesh())
          return op->emitOpError("has operands sharded over different meshes (")
                 << mesh << " and " << sharding.getMesh() << ")";
        mesh = sharding.getMesh();
      }
      for (auto [d, factors] : llvm::enumerate(rule.operands[k])) {
        Axes axes = axesOf(sharding, d);
        if (axes.empty())
          continue;
        SmallVector<int64_t> nonUnit;
        for (int64_t f : factors)
          if (rule.factorSizes[f] != 1)
            nonUnit.push_back(f);
        // A sliced dimension (read through a window of the result's
        // factor) has no factor of its own: explicit mode asks for it
        // whole, as it did before slices had windows.
        bool windowed = isa<tensor::ExtractSliceOp>(op) &&
                        llvm::any_of(rule.windows, [&, k = k,
                                                    d = d](const WindowDim &w) {
                          return w.operand == static_cast<int64_t>(k) &&
                                 w.dim == static_cast<int64_t>(d);
                        });
        if (windowed)
          return op->emitOpError()
                 << "needs dimension " << d << " of operand #" << k << " ("
                 << formatJaxType(type, true)
                 << ") whole, but it is sharded over " << formatAxesTuple(axes)
                 << "; reshard it to replicated first";
        if (nonUnit.size() != 1) {
          if (!factors.empty())
            reshapeOfSharded = true;
          continue;
        }
        int64_t f = nonUnit[0];
        if (rule.needsReplication(f))
          return op->emitOpError()
                 << "needs dimension " << d << " of operand #" << k << " ("
                 << formatJaxType(type, true)
                 << ") whole, but it is sharded over " << formatAxesTuple(axes)
                 << "; reshard it to replicated first";
        if (factorAxes[f].empty()) {
          factorAxes[f] = axes;
          factorSource[f] = {static_cast<unsigned>(k),
                             static_cast<unsigned>(d)};
        } else if (factorAxes[f] != axes) {
          return op->emitError()
                 << primitiveName(op)
                 << " operation with inputs: " << inputTypes()
                 << " has conflicting shardings for one "
                 << "dimension: " << formatAxesTuple(factorAxes[f]) << " and "
                 << formatAxesTuple(axes)
                 << "; reshard an operand (trellis.reshard) so they agree";
        }
      }
    }
    if (!mesh)
      return success(); // nothing is sharded: results stay replicated

    bool reductionSharded = false;
    for (int64_t f = 0; f < rule.numFactors(); ++f)
      if (rule.isReduction(f) && !factorAxes[f].empty())
        reductionSharded = true;

    for (auto [r, resultFactors] : llvm::enumerate(rule.results)) {
      OpResult result = op->getResult(r);
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      int64_t tied = rule.tiedInit[r];
      bool userSpecified =
          getShardingEncoding(type) || (tied >= 0 && !freshOperand[tied]);
      SmallVector<Axes> dims;
      bool mergesSharded = false;
      for (const DimFactors &factors : resultFactors) {
        SmallVector<int64_t> nonUnit;
        for (int64_t f : factors)
          if (rule.factorSizes[f] != 1)
            nonUnit.push_back(f);
        if (nonUnit.size() == 1 && !rule.needsReplication(nonUnit[0])) {
          dims.push_back(factorAxes[nonUnit[0]]);
          continue;
        }
        for (int64_t f : nonUnit)
          if (!factorAxes[f].empty())
            mergesSharded = true;
        dims.push_back({});
      }
      if (userSpecified)
        continue;
      if (reductionSharded) {
        // JAX reports the contracting specs of the two inputs.
        auto contracting = [&](unsigned k) {
          SmallVector<Axes> specs;
          if (k >= op->getNumOperands() || k >= rule.operands.size())
            return specs;
          ShardingAttr s = getShardingEncoding(op->getOperand(k).getType());
          for (auto [d, factors] : llvm::enumerate(rule.operands[k]))
            if (factors.size() == 1 && rule.isReduction(factors[0]))
              specs.push_back(axesOf(s, d));
          return specs;
        };
        return op->emitError()
               << "Contracting dimensions are sharded and it is ambiguous how "
                  "the output should be sharded. Please specify the output "
                  "sharding (give the result type a sharding, or an "
                  "out_sharding). Got lhs_contracting_spec="
               << specTuple(contracting(0))
               << " and rhs_contracting_spec=" << specTuple(contracting(1));
      }
      if (reshapeOfSharded || mergesSharded)
        return op->emitError()
               << primitiveName(op) << " from " << inputTypes() << " to "
               << formatJaxType(type, true)
               << " splits or merges a sharded dimension; give the result "
                  "type a sharding (an out_sharding) or reshard the operand";
      llvm::SmallDenseSet<StringAttr> seen;
      for (const Axes &axes : dims)
        for (StringAttr axis : axes)
          if (!seen.insert(axis).second)
            return op->emitError()
                   << primitiveName(op)
                   << " operation with inputs: " << inputTypes()
                   << " produces an illegally sharded result: "
                   << formatJaxType(
                          type,
                          [&](int64_t d) -> ArrayRef<StringAttr> {
                            return dims[d];
                          },
                          /*shortName=*/true);
      SmallVector<DimShardingAttr> dimAttrs;
      for (const Axes &axes : dims)
        dimAttrs.push_back(DimShardingAttr::get(op->getContext(), axes));
      RankedTensorType newType = withSharding(
          type, ShardingAttr::get(op->getContext(), mesh, dimAttrs));
      result.setType(newType);
      if (tied >= 0)
        retypeFresh(op->getOperand(tied), newType);
    }
    return success();
  }
};

struct InferShardingsPass
    : mlir::trellis::impl::TrellisInferShardingsBase<InferShardingsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyShardingEncodings(module)))
      return signalPassFailure();
    Inferrer inferrer{module};
    for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
      if (failed(inferrer.inferOp(&op)))
        return signalPassFailure();
    // Nothing typed, nothing changed: the IR need not be verified again.
    if (!inferrer.inferredAny)
      markAllAnalysesPreserved();
  }
};

} // namespace

LogicalResult mlir::trellis::inferShardingsInFunction(func::FuncOp func) {
  if (failed(verifyShardingEncodings(func)))
    return failure();
  Inferrer inferrer{func->getParentOfType<ModuleOp>()};
  return inferrer.inferOp(func);
}
