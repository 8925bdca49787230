//===- VarianceInference.cpp - Device-variance types (seed 001) -----------===//
//
// Two phases per manual region. The analysis (VarianceAnalysis.cpp, on MLIR's
// data-flow framework) computes, for every value (tensor or scalar), the set
// of manual axes it may vary over. The rewrite then lifts operands with
// `spmd.pvary` where an op
// needs more variance than they have (one pvary per value and axis set,
// placed right after the value's definition), annotates every ranked tensor
// type with `#spmd.vary`, and checks out_specs.
//
//===----------------------------------------------------------------------===//

#include "trellis/Transforms/Spmd/VarianceInference.h"
#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "lib/Transforms/Spmd/VarianceAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::spmd;

Type mlir::spmd::withVariance(Type type, ArrayRef<StringAttr> axes) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || (tensor.getEncoding() && !getVaryEncoding(tensor)))
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               VaryAttr::get(type.getContext(), axes));
}

namespace {

using Mask = AxisMask;

/// Whether `op` or anything in its regions has ranked tensor values, or its
/// regions hold spmd ops other than axis queries: what the rewrite must
/// type. Region ops on scalars only need nothing beyond the analysis.
bool carriesTypedValues(Operation *op) {
  WalkResult found = op->walk([&](Operation *inner) {
    if (inner != op && isa_and_nonnull<SpmdDialect>(inner->getDialect()) &&
        !axisQuery(inner))
      return WalkResult::interrupt();
    if (llvm::any_of(inner->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return WalkResult::interrupt();
    for (Region &region : inner->getRegions())
      for (Block &block : region)
        if (llvm::any_of(block.getArgumentTypes(),
                         llvm::IsaPred<RankedTensorType>))
          return WalkResult::interrupt();
    if (inner != op && inner->hasTrait<OpTrait::IsTerminator>() &&
        llvm::any_of(inner->getOperandTypes(), llvm::IsaPred<RankedTensorType>))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Region ops whose regions compute on scalars only: their results follow
/// the generic rule (union of operands and captured values).
bool hasScalarRegions(Operation *op) {
  return isa<linalg::LinalgOp, tensor::GenerateOp, tensor::PadOp>(op);
}

class Inferrer {
public:
  Inferrer(trellis::MeshOp mesh, const VarianceOptions &options)
      : axes(mesh), options(options) {}

  Mask maskOf(ArrayRef<StringAttr> names) const { return axes.maskOf(names); }
  SmallVector<StringAttr> axesOf(Mask m) const { return axes.axesOf(m); }

  /// Phase 1: the variance of every value under `root`.
  void analyze(Operation *root, Mask manual,
               const DenseMap<Value, Mask> &entry) {
    masks = analyzeVariance(root, axes, manual, entry);
  }

  Mask get(Value v) const { return masks.lookup(v); }
  void set(Value v, Mask m) { masks[v] = m; }

  /// Phase 2: pvary insertion, types and checks.
  LogicalResult rewriteBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(rewriteOp(&op)))
        return failure();
    return success();
  }

  /// Checks the outputs of `map` against its out_specs.
  LogicalResult checkOutputs(ShardMapOp map) {
    Operation *yield = map.getBodyBlock().getTerminator();
    for (auto [j, value] : llvm::enumerate(yield->getOperands()))
      if (failed(verifyOutputVariance(map, j, axesOf(get(value)), value)))
        return failure();
    return success();
  }

  /// Sets the type of `v` from its variance (a future's: that of the
  /// tensor it will hold).
  LogicalResult setType(Value v) {
    if (auto future = dyn_cast<FutureType>(v.getType())) {
      auto held = dyn_cast<RankedTensorType>(future.getValueType());
      if (!held)
        return success();
      v.setType(
          FutureType::get(v.getContext(), withVariance(held, axesOf(get(v)))));
      return success();
    }
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor)
      return success();
    if (tensor.getEncoding() && !getVaryEncoding(tensor)) {
      Operation *at = v.getDefiningOp();
      if (!at)
        at = v.getParentBlock()->getParentOp();
      return at->emitOpError("has a value of type ")
             << tensor
             << " in a manual region; its encoding leaves no room for "
                "#spmd.vary";
    }
    v.setType(withVariance(tensor, axesOf(get(v))));
    return success();
  }

private:
  /// Lifts the value used by `use` to vary over `want` (a superset of its
  /// variance), inserting or reusing a pvary; in explicit mode reports that
  /// one is needed. `what` names the use in messages.
  LogicalResult require(OpOperand &use, Mask want, const Twine &what,
                        StringRef why) {
    Value v = use.get();
    Mask have = get(v);
    Operation *user = use.getOwner();
    // A future cannot be lifted: the collective already runs on its operand.
    if (isa<FutureType>(v.getType()) && have != want)
      return user->emitOpError()
             << what << " is a future of a value that varies over "
             << axes.format(have) << " but must vary over " << axes.format(want)
             << " here; apply spmd.pvary to the collective's operand before "
                "it starts";
    if (!isa<RankedTensorType>(v.getType()))
      return success();
    if (have == want)
      return success();
    if (have & ~want)
      return user->emitOpError()
             << what << " varies over " << axes.format(have)
             << " but may only vary over " << axes.format(want) << " here";
    if (!options.insertPvary)
      return user->emitOpError()
             << what << " varies over " << axes.format(have)
             << " but must vary over " << axes.format(want) << " (" << why
             << "); insert spmd.pvary over " << axes.formatList(want & ~have)
             << " (spmd-check-variance does so unless insert-pvary=false)";
    use.set(getPvary(v, want));
    return success();
  }

  /// The memoized `spmd.pvary` of `v` to variance `want`, placed right after
  /// `v`'s definition so that it dominates every use.
  Value getPvary(Value v, Mask want) {
    auto key = std::make_pair(v, want);
    if (Value done = pvaryMemo.lookup(key))
      return done;
    OpBuilder b(v.getContext());
    if (auto arg = dyn_cast<BlockArgument>(v))
      b.setInsertionPointToStart(arg.getOwner());
    else
      b.setInsertionPointAfter(v.getDefiningOp());
    Mask have = get(v);
    v.setType(withVariance(v.getType(), axesOf(have)));
    SmallVector<StringRef> names;
    for (StringAttr axis : axesOf(want & ~have))
      names.push_back(axis.getValue());
    auto pvary =
        PvaryOp::create(b, v.getLoc(), withVariance(v.getType(), axesOf(want)),
                        v, b.getStrArrayAttr(names));
    set(pvary.getResult(), want);
    pvaryMemo[key] = pvary.getResult();
    return pvary.getResult();
  }

  LogicalResult setTypes(ValueRange values) {
    for (Value v : values)
      if (failed(setType(v)))
        return failure();
    return success();
  }

  /// The values `count` operands forwarded to `successor` of `op` land in,
  /// or failure when `op` does not say which.
  static FailureOr<ValueRange> successorInputs(RegionBranchOpInterface op,
                                               const RegionSuccessor &successor,
                                               size_t count) {
    ValueRange inputs = successor.getSuccessorInputs();
    if (inputs.size() == count)
      return inputs;
    ValueRange whole =
        successor.isParent()
            ? ValueRange(op->getResults())
            : ValueRange(successor.getSuccessor()->getArguments());
    if (whole.size() == count)
      return whole;
    return failure();
  }

  /// Any other op with region control flow (scf.index_switch,
  /// scf.execute_region, ...): every value forwarded to a region or to the
  /// results is lifted to the variance the analysis gave its destination.
  LogicalResult rewriteRegionBranch(RegionBranchOpInterface op) {
    auto unsupported = [&](const Twine &why) {
      return op->emitOpError("has region control flow that "
                             "spmd-check-variance cannot type: ")
             << why;
    };
    // Every value must reach the results through the operands of a
    // forwarding terminator or of the op itself; scf.forall's
    // parallel_insert_slice, for one, is a side channel the analysis does
    // not see.
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      if (!region.hasOneBlock())
        return unsupported("a region has more than one block");
      Operation *terminator = region.front().getTerminator();
      if (!isa<RegionBranchTerminatorOpInterface>(terminator) ||
          terminator->getNumRegions())
        return unsupported("a region ends in '" +
                           terminator->getName().getStringRef() +
                           "', whose values the analysis cannot follow");
    }
    // Results some operand or terminator forwards.
    llvm::SmallBitVector reached(op->getNumResults());
    SmallVector<RegionSuccessor> entries;
    op.getSuccessorRegions(RegionBranchPoint::parent(), entries);
    for (const RegionSuccessor &successor : entries) {
      OperandRange operands = op.getEntrySuccessorOperands(successor);
      FailureOr<ValueRange> inputs =
          successorInputs(op, successor, operands.size());
      if (failed(inputs))
        return unsupported("its operands do not map onto a successor");
      for (auto [k, input] : llvm::enumerate(*inputs)) {
        if (auto result = dyn_cast<OpResult>(input))
          reached.set(result.getResultNumber());
        OpOperand &use = op->getOpOperand(operands.getBeginOperandIndex() + k);
        if (failed(require(use, get(input),
                           "operand #" + Twine(use.getOperandNumber()),
                           "the value it is forwarded to varies there")))
          return failure();
      }
    }
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Block &block = region.front();
      if (failed(setTypes(block.getArguments())) || failed(rewriteBlock(block)))
        return failure();
      Operation *terminator = block.getTerminator();
      auto forwarding = cast<RegionBranchTerminatorOpInterface>(terminator);
      SmallVector<Attribute> unknown(terminator->getNumOperands());
      SmallVector<RegionSuccessor> successors;
      forwarding.getSuccessorRegions(unknown, successors);
      for (const RegionSuccessor &successor : successors) {
        MutableOperandRange uses =
            forwarding.getMutableSuccessorOperands(successor);
        FailureOr<ValueRange> inputs =
            successorInputs(op, successor, uses.size());
        if (failed(inputs))
          return unsupported("a terminator's operands do not map onto a "
                             "successor");
        for (auto [k, input] : llvm::enumerate(*inputs)) {
          if (auto result = dyn_cast<OpResult>(input))
            reached.set(result.getResultNumber());
          if (failed(require(uses[k], get(input), "yielded value #" + Twine(k),
                             "the value it is forwarded to varies there")))
            return failure();
        }
      }
    }
    if (!reached.all())
      return unsupported("result #" + Twine(reached.find_first_unset()) +
                         " is not forwarded from any region or operand");
    return setTypes(op->getResults());
  }

  LogicalResult rewriteOp(Operation *op) {
    if (auto map = dyn_cast<ShardMapOp>(op)) {
      if (failed(setTypes(map.getBodyBlock().getArguments())) ||
          failed(rewriteBlock(map.getBodyBlock())))
        return failure();
      if (failed(checkOutputs(map)))
        return failure();
      return setTypes(map.getResults());
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [k, pair] : llvm::enumerate(
               llvm::zip(loop.getInitArgsMutable(), loop.getRegionIterArgs())))
        if (failed(
                require(std::get<0>(pair), get(std::get<1>(pair)),
                        "the initial value of loop-carried value #" + Twine(k),
                        "the loop makes it vary")))
          return failure();
      if (failed(setTypes(loop.getRegionIterArgs())) ||
          failed(rewriteBlock(*loop.getBody())))
        return failure();
      Operation *yield = loop.getBody()->getTerminator();
      for (auto [k, use] : llvm::enumerate(yield->getOpOperands()))
        if (failed(require(use, get(loop.getRegionIterArgs()[k]),
                           "yielded value #" + Twine(k),
                           "the loop-carried value varies there")))
          return failure();
      return setTypes(loop.getResults());
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [name, region] :
           {std::make_pair(StringRef("then"), &branch.getThenRegion()),
            std::make_pair(StringRef("else"), &branch.getElseRegion())}) {
        if (region->empty())
          continue;
        if (failed(rewriteBlock(region->front())))
          return failure();
        Operation *yield = region->front().getTerminator();
        for (auto [k, use] : llvm::enumerate(yield->getOpOperands()))
          if (failed(require(use, get(branch.getResult(k)),
                             "yielded value #" + Twine(k) + " of the " + name +
                                 " branch",
                             "the result varies there: the other branch or "
                             "the condition makes it vary")))
            return failure();
      }
      return setTypes(branch.getResults());
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (auto [k, use] : llvm::enumerate(loop.getInitsMutable()))
        if (failed(
                require(use, get(loop.getBeforeArguments()[k]),
                        "the initial value of loop-carried value #" + Twine(k),
                        "the loop makes it vary")))
          return failure();
      if (failed(setTypes(loop.getBeforeArguments())) ||
          failed(rewriteBlock(loop.getBefore().front())))
        return failure();
      scf::ConditionOp cond = loop.getConditionOp();
      for (auto [k, use] : llvm::enumerate(cond.getArgsMutable()))
        if (failed(require(use, get(loop.getAfterArguments()[k]),
                           "forwarded value #" + Twine(k),
                           "the loop makes it vary")))
          return failure();
      if (failed(setTypes(loop.getAfterArguments())) ||
          failed(rewriteBlock(loop.getAfter().front())))
        return failure();
      Operation *yield = loop.getAfter().front().getTerminator();
      for (auto [k, use] : llvm::enumerate(yield->getOpOperands()))
        if (failed(require(use, get(loop.getBeforeArguments()[k]),
                           "yielded value #" + Twine(k),
                           "the loop-carried value varies there")))
          return failure();
      return setTypes(loop.getResults());
    }
    if (typedCollective(op)) {
      Mask lift;
      std::string reason;
      FailureOr<Mask> result =
          typeCollective(axes, op, get(op->getOperand(0)), lift, reason);
      if (failed(result))
        return op->emitOpError() << reason;
      if (lift != get(op->getOperand(0))) {
        if (!options.insertPvary)
          return op->emitOpError() << reason;
        if (failed(require(op->getOpOperand(0), lift, "the operand", "")))
          return failure();
      }
      return setTypes(op->getResults());
    }
    if (auto branch = dyn_cast<RegionBranchOpInterface>(op);
        branch && carriesTypedValues(op))
      return rewriteRegionBranch(branch);
    if (op->hasTrait<OpTrait::IsTerminator>())
      return success(); // typed by the enclosing op
    bool tensorResult =
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
    if (tensorResult && isa<CallOpInterface>(op))
      return op->emitOpError(
          "returns tensors in a manual region; spmd-check-variance cannot "
          "type calls (inline the callee first)");
    // The generic rule sees a region only through what it captures and
    // the axis_index ops in it: a collective inside would go untyped.
    if (op->getNumRegions()) {
      WalkResult nested = op->walk([&](Operation *inner) {
        if (inner != op && isa_and_nonnull<SpmdDialect>(inner->getDialect()) &&
            !axisQuery(inner)) {
          op->emitOpError("has regions holding '")
              << inner->getName()
              << "'; spmd-check-variance types spmd ops only in the body "
                 "of a shard_map, a device function or an op with region "
                 "control flow (scf.for, scf.if, scf.while, ...)";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (nested.wasInterrupted())
        return failure();
    }
    if (op->getNumRegions() && !hasScalarRegions(op)) {
      bool tensorInRegion = false;
      op->walk([&](Operation *inner) {
        if (inner == op)
          return;
        for (Region &region : inner->getRegions())
          for (Block &block : region)
            for (Type t : block.getArgumentTypes())
              tensorInRegion |= isa<RankedTensorType>(t);
        if (inner->hasTrait<OpTrait::IsTerminator>())
          for (Type t : inner->getOperandTypes())
            tensorInRegion |= isa<RankedTensorType>(t);
      });
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Type t : block.getArgumentTypes())
            tensorInRegion |= isa<RankedTensorType>(t);
      if (tensorInRegion)
        return op->emitOpError(
            "has regions that carry tensors; spmd-check-variance types "
            "ops with region control flow (scf.for, scf.if, "
            "scf.index_switch, ...), spmd.shard_map and ops whose regions "
            "compute on scalars (linalg)");
    }
    if (tensorResult) {
      Mask want = get(op->getResult(0));
      for (OpOperand &use : op->getOpOperands())
        if (failed(require(use, want,
                           "operand #" + Twine(use.getOperandNumber()),
                           "the union of the operands' variance")))
          return failure();
      if (failed(setTypes(op->getResults())))
        return failure();
      // A constant's value carries its type.
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!dense)
          return op->emitOpError(
              "holds a tensor constant that is not a dense elements "
              "attribute; spmd-check-variance cannot annotate its type");
        constant.setValueAttr(
            dense.reshape(cast<ShapedType>(constant.getType())));
      }
    }
    return success();
  }

  AxisMasks axes;
  VarianceOptions options;
  DenseMap<Value, Mask> masks;
  DenseMap<std::pair<Value, Mask>, Value> pvaryMemo;
};

} // namespace

LogicalResult mlir::spmd::inferVariance(ShardMapOp op,
                                        const VarianceOptions &options) {
  trellis::MeshOp mesh = op.getMeshOp();
  if (!mesh)
    return op.emitOpError("names unknown mesh ") << op.getMeshAttr();
  if (mesh.getNumAxes() > 64)
    return op.emitOpError("spmd-check-variance supports meshes of at most "
                          "64 axes");
  Inferrer inferrer(mesh, options);
  SmallVector<StringAttr> enclosing;
  for (StringAttr axis : op.getAllManualAxes())
    if (!llvm::is_contained(op.getOwnManualAxes(), axis))
      enclosing.push_back(axis);
  Mask outer = inferrer.maskOf(enclosing);
  // Operands from an enclosing manual context are treated as varying over
  // all of its axes: without a typed enclosing body nothing better is known.
  DenseMap<Value, Mask> entry;
  for (Value input : op.getInputs())
    entry[input] = outer;
  for (auto [k, arg] : llvm::enumerate(op.getBodyBlock().getArguments())) {
    auto spec = cast<trellis::SpecAttr>(op.getInSpecs()[k]);
    entry[arg] = outer | inferrer.maskOf(spec.getAllAxes());
  }
  inferrer.analyze(op, outer | inferrer.maskOf(op.getOwnManualAxes()), entry);
  for (BlockArgument arg : op.getBodyBlock().getArguments())
    if (failed(inferrer.setType(arg)))
      return failure();
  if (failed(inferrer.rewriteBlock(op.getBodyBlock())))
    return failure();
  Operation *yield = op.getBodyBlock().getTerminator();
  for (auto [j, value] : llvm::enumerate(yield->getOperands()))
    if (failed(verifyOutputVariance(op, j, inferrer.axesOf(inferrer.get(value)),
                                    value)))
      return failure();
  return success();
}

LogicalResult mlir::spmd::inferVariance(FunctionOpInterface func,
                                        const VarianceOptions &options) {
  auto meshRef =
      func->getAttrOfType<FlatSymbolRefAttr>(SpmdDialect::kMeshAttrName);
  trellis::MeshOp mesh =
      meshRef ? trellis::lookupMesh(func, meshRef) : trellis::MeshOp();
  if (!mesh)
    return func->emitOpError("is not a device function with a known mesh");
  // Lowered functions (llvm.func) carry no tensors to type.
  if (func.isExternal() || !isa<FunctionType>(func.getFunctionType()))
    return success();
  if (!func.getFunctionBody().hasOneBlock())
    return func->emitOpError("has more than one block; spmd-check-variance "
                             "types single-block device functions");
  Inferrer inferrer(mesh, options);
  Mask all = inferrer.maskOf(getDeviceFunctionManualAxes(func, mesh));
  Block &body = func.getFunctionBody().front();
  DenseMap<Value, Mask> entry;
  for (BlockArgument arg : body.getArguments()) {
    VaryAttr vary = getVaryEncoding(arg.getType());
    entry[arg] = vary ? inferrer.maskOf(vary.getAxes()) & all : all;
  }
  inferrer.analyze(func, all, entry);
  for (BlockArgument arg : body.getArguments())
    if (failed(inferrer.setType(arg)))
      return failure();
  if (failed(inferrer.rewriteBlock(body)))
    return failure();
  Operation *ret = body.getTerminator();
  func.setType(FunctionType::get(func->getContext(), body.getArgumentTypes(),
                                 ret->getOperandTypes()));
  return success();
}

LogicalResult mlir::spmd::inferVarianceIn(Operation *root,
                                          const VarianceOptions &options) {
  bool ok = true;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op);
        func && func->hasAttr(SpmdDialect::kMeshAttrName)) {
      ok &= succeeded(inferVariance(func, options));
      return WalkResult::skip();
    }
    if (auto map = dyn_cast<ShardMapOp>(op)) {
      ok &= succeeded(inferVariance(map, options));
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return success(ok);
}
