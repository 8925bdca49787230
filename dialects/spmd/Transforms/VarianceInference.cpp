//===- VarianceInference.cpp - Device-variance types (seed 001) -----------===//
//
// Two phases per manual region. The analysis computes, for every value (tensor
// or scalar), the set of manual axes it may vary over, iterating loops to a
// fixed point. The rewrite then lifts operands with `spmd.pvary` where an op
// needs more variance than they have (one pvary per value and axis set,
// placed right after the value's definition), annotates every ranked tensor
// type with `#spmd.vary`, and checks out_specs.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/Transforms/VarianceInference.h"
#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/trellis/IR/ShardingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"

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

/// A set of mesh axes, bit k for the mesh's k-th axis (so iteration order
/// is mesh order).
using Mask = uint64_t;

/// `op` when it is a collective typed from its operand (every collective
/// with a variance rule except the axis queries), else null.
CollectiveOpInterface typedCollective(Operation *op) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  if (!collective || op->getNumOperands() == 0 || !collective.getVarianceRule())
    return nullptr;
  return collective;
}

/// `op` when it is an axis query (a collective without operands, whose
/// result's variance its rule gives from its axes alone), else null.
CollectiveOpInterface axisQuery(Operation *op) {
  if (!isAxisQuery(op) || !cast<CollectiveOpInterface>(op).getVarianceRule())
    return nullptr;
  return cast<CollectiveOpInterface>(op);
}

/// Region ops whose regions compute on scalars only: their results follow
/// the generic rule (union of operands and captured values).
bool hasScalarRegions(Operation *op) {
  return isa<linalg::LinalgOp, tensor::GenerateOp, tensor::PadOp>(op);
}

class Inferrer {
public:
  Inferrer(trellis::MeshOp mesh, const VarianceOptions &options)
      : mesh(mesh), options(options) {}

  Mask maskOf(ArrayRef<StringAttr> axes) const {
    Mask m = 0;
    for (StringAttr axis : axes)
      if (std::optional<unsigned> index = mesh.getAxisIndex(axis.getValue()))
        m |= Mask(1) << *index;
    return m;
  }
  Mask maskOf(ArrayAttr axes) const {
    return maskOf(llvm::to_vector(axes.getAsRange<StringAttr>()));
  }
  /// The variance of an axis query's result: its rule applied to its
  /// axes alone.
  Mask queryMask(CollectiveOpInterface query) const {
    std::string ignored;
    FailureOr<SmallVector<StringAttr>> vary =
        query.getVarianceRule()->apply({}, query.getAxisList(), ignored);
    return succeeded(vary) ? maskOf(*vary) : 0;
  }
  SmallVector<StringAttr> axesOf(Mask m) const {
    SmallVector<StringAttr> axes;
    for (auto [k, name] : llvm::enumerate(mesh.getAxisNames()))
      if (m & (Mask(1) << k))
        axes.push_back(cast<StringAttr>(name));
    return axes;
  }
  std::string format(Mask m) const {
    std::string text = "{";
    for (auto [i, axis] : llvm::enumerate(axesOf(m)))
      text += (i ? ", \"" : "\"") + axis.getValue().str() + "\"";
    return text + "}";
  }
  std::string formatList(Mask m) const {
    std::string text = "[";
    for (auto [i, axis] : llvm::enumerate(axesOf(m)))
      text += (i ? ", \"" : "\"") + axis.getValue().str() + "\"";
    return text + "]";
  }

  Mask get(Value v) const { return masks.lookup(v); }
  void set(Value v, Mask m) { masks[v] = m; }

  /// Phase 1: the variance of every value in `block` (its arguments set).
  void analyzeBlock(Block &block) {
    for (Operation &op : block)
      analyzeOp(&op);
  }
  /// Phase 2: pvary insertion, types and checks.
  LogicalResult rewriteBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(rewriteOp(&op)))
        return failure();
    return success();
  }

  /// Sets the arguments of a shard_map body from its in_specs (and, nested,
  /// from its operands' variance over the enclosing manual axes).
  void initShardMapArgs(ShardMapOp map, Mask outerManual) {
    for (auto [k, arg] : llvm::enumerate(map.getBodyBlock().getArguments())) {
      auto spec = cast<trellis::SpecAttr>(map.getInSpecs()[k]);
      Mask outer = get(map.getInputs()[k]) & outerManual;
      set(arg, outer | maskOf(spec.getAllAxes()));
    }
  }

  /// Checks the outputs of `map` against its out_specs.
  LogicalResult checkOutputs(ShardMapOp map) {
    Operation *yield = map.getBodyBlock().getTerminator();
    for (auto [j, value] : llvm::enumerate(yield->getOperands()))
      if (failed(verifyOutputVariance(map, j, axesOf(get(value)), value)))
        return failure();
    return success();
  }

  /// Sets the type of `v` from its variance.
  LogicalResult setType(Value v) {
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

  Mask manual = 0;

private:
  /// The variance of what `op`'s regions read: values defined outside, and
  /// the device's position wherever an axis_index inside asks for it.
  Mask capturedMask(Operation *op) {
    Mask m = 0;
    op->walk([&](Operation *inner) {
      if (inner == op)
        return;
      if (CollectiveOpInterface query = axisQuery(inner))
        m |= queryMask(query);
      for (Value operand : inner->getOperands())
        if (!op->isAncestor(operand.getParentRegion()->getParentOp()))
          m |= get(operand);
    });
    return m;
  }

  /// Seed 001's rule for collective `op` given operand variance `in`. Sets
  /// `lift` to the variance the operand must be lifted to (auto pvary) and
  /// returns the result variance; fails with `reason` when no lift helps.
  FailureOr<Mask> typeCollective(Operation *op, Mask in, Mask &lift,
                                 std::string &reason) {
    FailureOr<SmallVector<StringAttr>> direct =
        inferCollectiveVariance(op, axesOf(in), reason);
    lift = in;
    if (succeeded(direct))
      return maskOf(*direct);
    Mask axes = maskOf(cast<CollectiveOpInterface>(op).getAxisList());
    std::string ignored;
    FailureOr<SmallVector<StringAttr>> lifted =
        inferCollectiveVariance(op, axesOf(in | axes), ignored);
    if (failed(lifted))
      return failure();
    lift = in | axes;
    return maskOf(*lifted);
  }

  void analyzeOp(Operation *op) {
    if (auto map = dyn_cast<ShardMapOp>(op)) {
      Mask own = maskOf(map.getOwnManualAxes());
      Mask saved = manual;
      initShardMapArgs(map, saved);
      manual |= own;
      analyzeBlock(map.getBodyBlock());
      manual = saved;
      Operation *yield = map.getBodyBlock().getTerminator();
      for (auto [result, value] :
           llvm::zip(map.getResults(), yield->getOperands()))
        set(result, get(value) & ~own);
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Mask bounds = get(loop.getLowerBound()) | get(loop.getUpperBound()) |
                    get(loop.getStep());
      set(loop.getInductionVar(),
          get(loop.getLowerBound()) | get(loop.getStep()));
      SmallVector<Mask> carried;
      for (Value init : loop.getInitArgs())
        carried.push_back(get(init) | bounds);
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      while (true) {
        for (auto [arg, m] : llvm::zip(loop.getRegionIterArgs(), carried))
          set(arg, m);
        analyzeBlock(*loop.getBody());
        bool changed = false;
        for (auto [k, value] : llvm::enumerate(yield.getOperands())) {
          Mask next = carried[k] | get(value);
          changed |= next != carried[k];
          carried[k] = next;
        }
        if (!changed)
          break;
      }
      for (auto [result, m] : llvm::zip(loop.getResults(), carried))
        set(result, m);
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      Mask cond = get(branch.getCondition());
      SmallVector<Mask> results(branch.getNumResults(), cond);
      for (Region *region :
           {&branch.getThenRegion(), &branch.getElseRegion()}) {
        if (region->empty())
          continue;
        analyzeBlock(region->front());
        for (auto [k, value] :
             llvm::enumerate(region->front().getTerminator()->getOperands()))
          if (k < results.size())
            results[k] |= get(value);
      }
      for (auto [result, m] : llvm::zip(branch.getResults(), results))
        set(result, m);
      return;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      SmallVector<Mask> before;
      for (Value init : loop.getInits())
        before.push_back(get(init));
      SmallVector<Mask> after(loop.getNumResults(), 0);
      scf::ConditionOp cond = loop.getConditionOp();
      while (true) {
        for (auto [arg, m] : llvm::zip(loop.getBeforeArguments(), before))
          set(arg, m);
        analyzeBlock(loop.getBefore().front());
        Mask c = get(cond.getCondition());
        for (auto [k, value] : llvm::enumerate(cond.getArgs()))
          after[k] = get(value) | c;
        for (auto [arg, m] : llvm::zip(loop.getAfterArguments(), after))
          set(arg, m);
        analyzeBlock(loop.getAfter().front());
        bool changed = false;
        for (auto [k, value] : llvm::enumerate(loop.getYieldedValues())) {
          Mask next = before[k] | get(value);
          changed |= next != before[k];
          before[k] = next;
        }
        if (!changed)
          break;
      }
      for (auto [result, m] : llvm::zip(loop.getResults(), after))
        set(result, m);
      return;
    }
    if (CollectiveOpInterface query = axisQuery(op)) {
      set(op->getResult(0), queryMask(query));
      return;
    }
    if (CollectiveOpInterface collective = typedCollective(op)) {
      Mask lift;
      std::string reason;
      FailureOr<Mask> result =
          typeCollective(op, get(op->getOperand(0)), lift, reason);
      // An ill-typed collective is reported by the rewrite; go on as if the
      // result varied over everything it could.
      set(op->getResult(0),
          succeeded(result)
              ? *result
              : get(op->getOperand(0)) | maskOf(collective.getAxisList()));
      return;
    }
    // Everything else: the union of the operands (and of the values its
    // regions capture).
    Mask m = 0;
    for (Value operand : op->getOperands())
      m |= get(operand);
    if (op->getNumRegions())
      m |= capturedMask(op);
    for (Value result : op->getResults())
      set(result, m);
  }

  /// Lifts the value used by `use` to vary over `want` (a superset of its
  /// variance), inserting or reusing a pvary; in explicit mode reports that
  /// one is needed. `what` names the use in messages.
  LogicalResult require(OpOperand &use, Mask want, const Twine &what,
                        StringRef why) {
    Value v = use.get();
    if (!isa<RankedTensorType>(v.getType()))
      return success();
    Mask have = get(v);
    if (have == want)
      return success();
    Operation *user = use.getOwner();
    if (have & ~want)
      return user->emitOpError()
             << what << " varies over " << format(have)
             << " but may only vary over " << format(want) << " here";
    if (!options.insertPvary)
      return user->emitOpError()
             << what << " varies over " << format(have)
             << " but must vary over " << format(want) << " (" << why
             << "); insert spmd.pvary over " << formatList(want & ~have)
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

  LogicalResult rewriteOp(Operation *op) {
    if (auto map = dyn_cast<ShardMapOp>(op)) {
      Mask saved = manual;
      manual |= maskOf(map.getOwnManualAxes());
      if (failed(setTypes(map.getBodyBlock().getArguments())) ||
          failed(rewriteBlock(map.getBodyBlock())))
        return failure();
      manual = saved;
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
          typeCollective(op, get(op->getOperand(0)), lift, reason);
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
                 "of a shard_map, device function, scf.for, scf.if or "
                 "scf.while";
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
            "scf.for, scf.if, scf.while, spmd.shard_map and ops whose "
            "regions compute on scalars (linalg)");
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

  mutable trellis::MeshOp mesh;
  VarianceOptions options;
  DenseMap<Value, Mask> masks;
  DenseMap<std::pair<Value, Mask>, Value> pvaryMemo;
};

/// Asynchronous ppermutes (spmd-async-collectives' output) carry futures,
/// which the inference does not type: it runs before that pass.
LogicalResult rejectFutures(Operation *root) {
  Operation *found = nullptr;
  root->walk([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<FutureType>) ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<FutureType>)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    return success();
  return found->emitOpError(
      "is asynchronous; spmd-check-variance types code before "
      "spmd-async-collectives splits ppermutes (write spmd.ppermute: the "
      "lowering makes it asynchronous)");
}

} // namespace

LogicalResult mlir::spmd::inferVariance(ShardMapOp op,
                                        const VarianceOptions &options) {
  trellis::MeshOp mesh = op.getMeshOp();
  if (!mesh)
    return op.emitOpError("names unknown mesh ") << op.getMeshAttr();
  if (mesh.getNumAxes() > 64)
    return op.emitOpError("spmd-check-variance supports meshes of at most "
                          "64 axes");
  if (failed(rejectFutures(op)))
    return failure();
  Inferrer inferrer(mesh, options);
  SmallVector<StringAttr> enclosing;
  for (StringAttr axis : op.getAllManualAxes())
    if (!llvm::is_contained(op.getOwnManualAxes(), axis))
      enclosing.push_back(axis);
  Mask outer = inferrer.maskOf(enclosing);
  // Operands from an enclosing manual context are treated as varying over
  // all of its axes: without a typed enclosing body nothing better is known.
  for (Value input : op.getInputs())
    inferrer.set(input, outer);
  inferrer.initShardMapArgs(op, outer);
  inferrer.manual = outer | inferrer.maskOf(op.getOwnManualAxes());
  inferrer.analyzeBlock(op.getBodyBlock());
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
  if (failed(rejectFutures(func)))
    return failure();
  Inferrer inferrer(mesh, options);
  SmallVector<StringAttr> manual;
  if (auto list =
          func->getAttrOfType<ArrayAttr>(SpmdDialect::kManualAxesAttrName))
    manual = llvm::to_vector(list.getAsRange<StringAttr>());
  else
    for (Attribute name : mesh.getAxisNames())
      manual.push_back(cast<StringAttr>(name));
  Mask all = inferrer.maskOf(manual);
  inferrer.manual = all;
  Block &body = func.getFunctionBody().front();
  for (BlockArgument arg : body.getArguments()) {
    VaryAttr vary = getVaryEncoding(arg.getType());
    inferrer.set(arg, vary ? inferrer.maskOf(vary.getAxes()) & all : all);
    if (failed(inferrer.setType(arg)))
      return failure();
  }
  inferrer.analyzeBlock(body);
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
