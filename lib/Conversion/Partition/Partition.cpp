//===- Partition.cpp - Global view to one fully-manual shard_map ----------===//
//
// Each function with shardings becomes `spmd.shard_map` over all mesh axes.
// The body is built op by op: every global value has a local block and the
// Layout that block has; an op's sharding rule says which layout each
// operand must have for the op to run locally, the Resharder moves blocks
// there, and the op is re-emitted on local shapes.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/spmd/Transforms/VarianceInference.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "lib/Conversion/Partition/Resharder.h"
#include "lib/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"

#include <map>

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISPARTITION
#include "lib/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;
using namespace mlir::trellis;

namespace {

/// The sharding an op result or argument is meant to have: the
/// `trellis.sharding` attribute (auto propagation, user hints) or else the
/// type's encoding (explicit mode). Null means replicated.
ShardingAttr declaredSharding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast<func::FuncOp>(owner))
      if (auto attr = func.getArgAttrOfType<ShardingAttr>(
              arg.getArgNumber(), TrellisDialect::kShardingAttrName))
        return attr;
    if (auto forOp = dyn_cast<scf::ForOp>(owner))
      if (arg.getArgNumber() > 0)
        return declaredSharding(forOp.getResult(arg.getArgNumber() - 1));
    if (auto args = owner->getAttrOfType<ArrayAttr>(
            TrellisDialect::kArgShardingsAttrName))
      if (arg.getArgNumber() < args.size())
        if (auto s = dyn_cast<ShardingAttr>(args[arg.getArgNumber()]))
          return s;
    return getShardingEncoding(value.getType());
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  if (Attribute attr = op->getAttr(TrellisDialect::kShardingAttrName)) {
    if (auto sharding = dyn_cast<ShardingAttr>(attr))
      return sharding;
    if (auto array = dyn_cast<ArrayAttr>(attr))
      if (result.getResultNumber() < array.size())
        return dyn_cast<ShardingAttr>(array[result.getResultNumber()]);
  }
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
    return constraint.getSharding();
  return getShardingEncoding(value.getType());
}

/// Strips the sharding encoding: local types are plain tensors.
Type plain(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
  return type;
}

/// Whether `value` is a fresh destination the partitioner can rebuild in
/// any layout: tensor.empty, or a linalg.fill of one (whatever its type's
/// sharding). Narrower than InferShardings' isUnshardedFreshInit, which
/// takes any linalg op without tensor inputs but only unsharded results.
bool isEmptyOrFillOfEmpty(Value value) {
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(op))
    return true;
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op))
    return isEmptyOrFillOfEmpty(fill.getOutputs()[0]);
  return false;
}

/// Whether `value` is a fresh destination filled with zero (the identity of
/// a sum), so partial sums can each start from it.
bool isZeroFilled(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill || !isEmptyOrFillOfEmpty(fill.getOutputs()[0]))
    return false;
  Value constant = fill.getInputs()[0];
  return matchPattern(constant, m_Zero()) ||
         matchPattern(constant, m_AnyZeroFloat());
}

/// How the reductions of `op` combine: sums (a contraction, or a reduction
/// whose payload adds into the output), maxima or minima; none otherwise.
std::optional<PartialKind> reductionKind(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  if (linalg::isaContractionOpInterface(linalgOp))
    return PartialKind::Sum;
  Block *body = linalgOp.getBlock();
  if (!body || linalgOp.getNumDpsInits() != 1)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *combiner = yield.getValues()[0].getDefiningOp();
  Value out = body->getArgument(body->getNumArguments() - 1);
  if (!combiner || !llvm::is_contained(combiner->getOperands(), out))
    return std::nullopt;
  if (isa<arith::AddFOp, arith::AddIOp>(combiner))
    return PartialKind::Sum;
  // pmax/pmin propagate NaN (arith.maximumf/minimumf). maxnumf/minnumf
  // drop it, so their partial results cannot be combined with them: such
  // reductions run on replicated operands.
  if (isa<arith::MaximumFOp, arith::MaxSIOp>(combiner))
    return PartialKind::Max;
  if (isa<arith::MinimumFOp, arith::MinSIOp>(combiner))
    return PartialKind::Min;
  return std::nullopt;
}

class FunctionPartitioner {
public:
  FunctionPartitioner(func::FuncOp func, MeshOp mesh)
      : func(func), mesh(mesh), b(func.getContext()), resharder(b, mesh) {}

  LogicalResult run();

private:
  LogicalResult partitionBlock(Block &block);
  LogicalResult partitionOp(Operation *op);
  LogicalResult partitionRuleOp(Operation *op, const ShardingRule &rule);
  int64_t planBytes(Operation *op, const ShardingRule &rule,
                    ArrayRef<SmallVector<StringAttr>> factorAxes,
                    ArrayRef<StringAttr> reduced);
  LogicalResult partitionFallback(Operation *op);
  LogicalResult partitionFor(scf::ForOp op);
  LogicalResult partitionIf(scf::IfOp op);
  LogicalResult partitionWhile(scf::WhileOp op);
  /// The one layout a loop-carried tensor keeps: its declared sharding,
  /// else its init's, never partial.
  Layout carryLayout(Value result, Value init);
  LogicalResult partitionShardMap(spmd::ShardMapOp op);
  LogicalResult partitionAxisRegion(Operation *op);

  /// The layout a global tensor value is meant to have.
  Layout desiredLayout(Value global) {
    auto type = cast<RankedTensorType>(global.getType());
    return Layout::fromSharding(declaredSharding(global), type.getRank());
  }
  /// The local block of `global` in layout `layout`.
  Value localIn(Value global, const Layout &layout);
  /// A fresh destination (tensor.empty, possibly filled) built directly in
  /// `layout`, or null if `global` is not one.
  Value materializeFresh(Value global, const Layout &layout);
  Operation *cloneOn(Operation *op, ValueRange operands);
  SmallVector<StringAttr> carriedPartialSums(Operation *op);
  void setLocal(Value global, Value local, const Layout &layout) {
    mapping.map(global, local);
    layouts[global] = layout;
  }
  Value createLocalOp(Operation *op, ValueRange operands,
                      ArrayRef<Type> resultTypes,
                      const SmallVector<SmallVector<StringAttr>> &factorAxes,
                      const ShardingRule &rule, SmallVector<Value> &results);

  func::FuncOp func;
  MeshOp mesh;
  OpBuilder b;
  Resharder resharder;
  IRMapping mapping;
  DenseMap<Value, Layout> layouts;
  std::map<std::pair<const void *, std::string>, Value> reshardCache;
};

Value FunctionPartitioner::localIn(Value global, const Layout &layout) {
  if (Value fresh = materializeFresh(global, layout))
    return fresh;
  Value local = mapping.lookup(global);
  auto type = cast<RankedTensorType>(global.getType());
  auto it = layouts.find(global);
  Layout from =
      it == layouts.end() ? Layout::replicated(type.getRank()) : it->second;
  if (from == layout)
    return local;
  // One reshard per (block, layouts): collectives have side effects, so CSE
  // would not merge repeated ones. A block made in an enclosing region is
  // visible here; one made inside a loop or branch body is not visible after
  // it.
  // The key names the source layout too: one block can stand for several
  // global values in different layouts (a shard_map yielding one value
  // under two out_specs), and their reshards differ.
  auto key = std::make_pair(local.getAsOpaquePointer(),
                            from.str() + " -> " + layout.str());
  auto cached = reshardCache.find(key);
  if (cached != reshardCache.end() &&
      cached->second.getParentRegion()->isAncestor(
          b.getInsertionBlock()->getParent()))
    return cached->second;
  Value result = resharder.reshard(global.getLoc(), local, type, from, layout);
  reshardCache[key] = result;
  return result;
}

/// The axes over which every tensor operand of `op` is a partial sum, when
/// `op` is linear in each of them (addition, subtraction, negation); empty
/// otherwise.
SmallVector<StringAttr> FunctionPartitioner::carriedPartialSums(Operation *op) {
  if (!isa<arith::AddFOp, arith::SubFOp, arith::AddIOp, arith::SubIOp,
           arith::NegFOp>(op))
    return {};
  std::optional<SmallVector<StringAttr>> common;
  for (Value operand : op->getOperands()) {
    auto it = layouts.find(operand);
    if (it == layouts.end() || it->second.unreduced.empty() ||
        it->second.partialKind != PartialKind::Sum)
      return {};
    SmallVector<StringAttr> axes(it->second.unreduced);
    llvm::sort(axes, [](StringAttr a, StringAttr b) {
      return a.getValue() < b.getValue();
    });
    if (common && *common != axes)
      return {};
    common = axes;
  }
  return common ? *common : SmallVector<StringAttr>();
}

/// Clones `op` with its operands replaced by `operands` (an operand used
/// twice may need two layouts, so this is not a mapping). Values the op's
/// regions capture use the mapping.
Operation *FunctionPartitioner::cloneOn(Operation *op, ValueRange operands) {
  // A region that reads a tensor defined outside it (a gather written as
  // tensor.extract in a linalg.generic body) indexes it globally: the clone
  // reads the whole (replicated) tensor, never the local block.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  SmallVector<std::pair<Value, Value>> saved;
  for (Value value : captured) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !mapping.contains(value))
      continue;
    saved.emplace_back(value, mapping.lookup(value));
    mapping.map(value, localIn(value, Layout::replicated(type.getRank())));
  }
  Operation *clone = b.clone(*op, mapping);
  for (auto [value, local] : saved)
    mapping.map(value, local);
  for (auto [i, local] : llvm::enumerate(operands))
    clone->setOperand(i, local);
  return clone;
}

/// Ops whose regions are cloned whole (not partitioned op by op) may hold
/// only code with global meaning on whole tensors: nothing of Trellis's own
/// dialects but position queries, and no sharded types.
static LogicalResult checkClonedWhole(Operation *op) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (inner == op)
      return WalkResult::advance();
    StringRef dialect = inner->getName().getDialectNamespace();
    bool sharded = llvm::any_of(inner->getResultTypes(), [](Type t) {
      return static_cast<bool>(getShardingEncoding(t));
    });
    // Position queries mean the same after partitioning (they can only
    // name manual axes of an enclosing shard_map).
    if (spmd::isAxisQuery(inner))
      return WalkResult::advance();
    if (dialect == "trellis" || dialect == "spmd" || sharded ||
        inner->hasAttr(TrellisDialect::kShardingAttrName)) {
      op->emitOpError("has regions the partitioner clones whole, so it "
                      "cannot partition ")
              .attachNote(inner->getLoc())
          << "'" << inner->getName() << "' here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

Value FunctionPartitioner::materializeFresh(Value global,
                                            const Layout &layout) {
  if (!isEmptyOrFillOfEmpty(global) || !layout.unreduced.empty())
    return {};
  auto type = cast<RankedTensorType>(global.getType());
  RankedTensorType local = resharder.localType(type, layout);
  if (global.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, global.getLoc(), local.getShape(),
                                   local.getElementType());
  auto fill = global.getDefiningOp<linalg::FillOp>();
  Value init = materializeFresh(fill.getOutputs()[0], layout);
  return linalg::FillOp::create(b, global.getLoc(),
                                mapping.lookupOrDefault(fill.getInputs()[0]),
                                init)
      .getResult(0);
}

LogicalResult FunctionPartitioner::partitionBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(partitionOp(&op)))
      return failure();
  return success();
}

LogicalResult FunctionPartitioner::partitionOp(Operation *op) {
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
    Layout to = desiredLayout(constraint.getResult());
    setLocal(constraint.getResult(), localIn(constraint.getInput(), to), to);
    return success();
  }
  if (auto reshard = dyn_cast<ReshardOp>(op)) {
    Layout to = desiredLayout(reshard.getResult());
    setLocal(reshard.getResult(), localIn(reshard.getInput(), to), to);
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return partitionFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return partitionIf(ifOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return partitionWhile(whileOp);
  if (auto map = dyn_cast<spmd::ShardMapOp>(op))
    return partitionShardMap(map);
  if (isa<AutoAxesOp, ExplicitAxesOp>(op))
    return partitionAxisRegion(op);
  if (isa<CallOpInterface>(op) &&
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>))
    return op->emitOpError(
        "calls a function on tensors; the partitioner works within one "
        "function, so inline calls first (trellis-global-to-manual does; "
        "recursive and external callees cannot be partitioned)");
  bool hasTensors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  if (op->getNumRegions() && failed(checkClonedWhole(op)))
    return failure();
  if (!hasTensors) {
    cloneOn(op, llvm::map_to_vector(op->getOperands(), [&](Value v) {
              return mapping.lookupOrDefault(v);
            }));
    return success();
  }
  if (op->getNumRegions() && !isa<linalg::LinalgOp, tensor::PadOp>(op))
    return op->emitOpError("has regions the partitioner does not know how to "
                           "partition");
  FailureOr<ShardingRule> rule = getShardingRule(op);
  if (succeeded(rule) && rule->operands.size() == op->getNumOperands() &&
      rule->results.size() == op->getNumResults())
    return partitionRuleOp(op, *rule);
  return partitionFallback(op);
}

/// Ops without a rule run on whole (replicated) tensors.
LogicalResult FunctionPartitioner::partitionFallback(Operation *op) {
  // The whole operands are mapped for this clone only: other users of an
  // operand keep its block in the operand's own layout.
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    operands.push_back(
        type ? localIn(operand, Layout::replicated(type.getRank()))
             : mapping.lookupOrDefault(operand));
  }
  Operation *clone = cloneOn(op, operands);
  for (OpResult result : clone->getResults())
    result.setType(plain(result.getType()));
  for (auto [global, local] :
       llvm::zip(op->getResults(), clone->getResults())) {
    auto type = dyn_cast<RankedTensorType>(global.getType());
    if (!type) {
      mapping.map(global, local);
      continue;
    }
    Layout replicated = Layout::replicated(type.getRank());
    setLocal(global, local, replicated);
    Layout want = desiredLayout(global);
    if (want != replicated)
      setLocal(global,
               resharder.reshard(op->getLoc(), local, type, replicated, want),
               want);
  }
  return success();
}

/// The layout of a value whose dimensions hold `dims` (per dimension, its
/// factors) when each factor is split over `factorAxes`: a dimension takes
/// its major factor's axes.
static Layout factorLayout(const ShardingRule &rule,
                           ArrayRef<SmallVector<StringAttr>> factorAxes,
                           const ValueFactors &dims) {
  Layout layout = Layout::replicated(dims.size());
  for (auto [d, factors] : llvm::enumerate(dims)) {
    int64_t f = rule.majorFactor(factors);
    if (f >= 0)
      layout.dims[d] = factorAxes[f];
  }
  return layout;
}

/// Bytes per element of `type` (at least one).
static int64_t elementBytes(RankedTensorType type) {
  return trellis::elementBytes(type.getElementType());
}

/// Bytes a device receives to move a block of `type` from layout `from`
/// to `to`, roughly as the Resharder does it: nothing for slicing, the
/// missing part for gathering, (n-1)/n of the block for an all_to_all
/// (axes moved between dimensions), and gathering what differs otherwise.
static int64_t reshardBytes(RankedTensorType type, const Layout &from,
                            const Layout &to, MeshOp mesh) {
  if (!type.hasStaticShape() || from.dims.size() != to.dims.size())
    return 0;
  int64_t total = type.getNumElements() * elementBytes(type);
  auto allAxes = [](const Layout &layout) {
    SmallVector<StringAttr> axes;
    for (const auto &dim : layout.dims)
      llvm::append_range(axes, dim);
    return axes;
  };
  SmallVector<StringAttr> fromAxes = allAxes(from), toAxes = allAxes(to);
  int64_t fromBlock = total / mesh.getAxesSize(fromAxes);
  // Axes common to both, dimension by dimension (the longest common prefix).
  SmallVector<StringAttr> kept;
  for (auto [a, b] : llvm::zip(from.dims, to.dims))
    for (auto [x, y] : llvm::zip(a, b)) {
      if (x != y)
        break;
      kept.push_back(x);
    }
  if (kept.size() == fromAxes.size())
    return 0; // only slicing
  llvm::SmallDenseSet<StringAttr> toSet(toAxes.begin(), toAxes.end());
  bool onlyMoved =
      fromAxes.size() == toAxes.size() &&
      llvm::all_of(fromAxes, [&](StringAttr a) { return toSet.contains(a); });
  if (onlyMoved) {
    int64_t moved = mesh.getAxesSize(fromAxes) / mesh.getAxesSize(kept);
    return fromBlock - fromBlock / moved;
  }
  return total / mesh.getAxesSize(kept) - fromBlock;
}

int64_t
FunctionPartitioner::planBytes(Operation *op, const ShardingRule &rule,
                               ArrayRef<SmallVector<StringAttr>> factorAxes,
                               ArrayRef<StringAttr> reduced) {
  auto layoutOf = [&](const ValueFactors &dims) {
    return factorLayout(rule, factorAxes, dims);
  };
  int64_t bytes = 0;
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || k >= rule.operands.size() || isEmptyOrFillOfEmpty(operand))
      continue;
    auto it = layouts.find(operand);
    Layout from =
        it == layouts.end() ? Layout::replicated(type.getRank()) : it->second;
    from.unreduced.clear();
    bytes += reshardBytes(type, from, layoutOf(rule.operands[k]), mesh);
  }
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || r >= rule.results.size())
      continue;
    Layout layout = layoutOf(rule.results[r]);
    // A partial result is reduced (scattered where it is wanted split):
    // about (n-1)/n of the local block.
    if (!reduced.empty()) {
      int64_t block = resharder.localType(type, layout).getNumElements() *
                      elementBytes(type);
      int64_t n = mesh.getAxesSize(reduced);
      bytes += block - block / n;
      // Scattered over the reduced axes where the result wants them.
      Layout want = desiredLayout(result);
      for (auto [d, axes] : llvm::enumerate(want.dims))
        if (d < layout.dims.size())
          for (StringAttr axis : axes)
            if (llvm::is_contained(reduced, axis) &&
                !llvm::is_contained(layout.dims[d], axis))
              layout.dims[d].push_back(axis);
    }
    bytes += reshardBytes(type, layout, desiredLayout(result), mesh);
  }
  return bytes;
}

LogicalResult FunctionPartitioner::partitionRuleOp(Operation *op,
                                                   const ShardingRule &rule) {
  const int64_t numFactors = rule.numFactors();
  SmallVector<SmallVector<StringAttr>> factorAxes(numFactors);
  SmallVector<bool> assigned(numFactors, false);

  // Parallel factors take the axes the results are meant to have.
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      continue;
    Layout want = desiredLayout(result);
    for (auto [d, factors] : llvm::enumerate(rule.results[r])) {
      int64_t f = rule.majorFactor(factors);
      if (f < 0 || assigned[f] || rule.needsReplication(f))
        continue;
      factorAxes[f] = want.dims[d];
      assigned[f] = true;
    }
  }

  // Reduction factors keep the operands' axes when the partial results can
  // be combined afterwards: a sum into a zero-filled destination, or a
  // maximum or minimum (idempotent, so any destination the devices share).
  std::optional<PartialKind> kind = reductionKind(op);
  bool combinable = kind.has_value();
  for (auto [r, init] : llvm::enumerate(rule.tiedInit))
    if (init >= 0 && kind == PartialKind::Sum &&
        !isZeroFilled(op->getOperand(init)))
      combinable = false;
  // A plan: factor axes after the reduction factors took their operands'
  // axes (except `banned` ones) and the parallel factors gave up the axes
  // the reductions use (those come back by reduce-scatter).
  struct Plan {
    SmallVector<SmallVector<StringAttr>> factorAxes;
    SmallVector<StringAttr> reduced;
  };
  auto makePlan = [&](const llvm::SmallDenseSet<StringAttr> &banned) {
    Plan plan{factorAxes, {}};
    SmallVector<bool> taken = assigned;
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || k >= rule.operands.size())
        continue;
      auto it = layouts.find(operand);
      for (auto [d, factors] : llvm::enumerate(rule.operands[k])) {
        int64_t f = rule.majorFactor(factors);
        if (f < 0 || taken[f])
          continue;
        taken[f] = true;
        if (rule.needsReplication(f))
          continue;
        if (rule.isReduction(f) && !combinable)
          continue;
        auto &axes = plan.factorAxes[f];
        if (it != layouts.end() && d < it->second.dims.size())
          axes = it->second.dims[d];
        if (rule.isReduction(f)) {
          axes.erase(
              llvm::find_if(axes,
                            [&](StringAttr a) { return banned.contains(a); }),
              axes.end());
          llvm::append_range(plan.reduced, axes);
        }
      }
    }
    for (int64_t f = 0; f < numFactors; ++f) {
      if (rule.isReduction(f))
        continue;
      auto &axes = plan.factorAxes[f];
      axes.erase(llvm::find_if(axes,
                               [&](StringAttr a) {
                                 return llvm::is_contained(plan.reduced, a);
                               }),
                 axes.end());
    }
    return plan;
  };
  Plan chosen = makePlan({});
  // When a reduction keeps an axis the result wants on a parallel factor
  // (seed 003's FFN: x[B, D@Y] . w[D, F@Y] with the result wanted F@Y), the
  // other plan gathers the reduced operand over that axis instead of
  // reducing and scattering the result. Take whichever moves fewer bytes.
  llvm::SmallDenseSet<StringAttr> conflicting;
  for (int64_t f = 0; f < numFactors; ++f)
    if (!rule.isReduction(f))
      for (StringAttr axis : factorAxes[f])
        if (llvm::is_contained(chosen.reduced, axis))
          conflicting.insert(axis);
  if (!conflicting.empty()) {
    Plan gather = makePlan(conflicting);
    if (planBytes(op, rule, gather.factorAxes, gather.reduced) <
        planBytes(op, rule, chosen.factorAxes, chosen.reduced))
      chosen = std::move(gather);
  }
  factorAxes = std::move(chosen.factorAxes);
  SmallVector<StringAttr> reduced = std::move(chosen.reduced);
  // Tensor ops compute a factor only their results hold (a slice's or a
  // pad's extent) whole; the result is then sliced locally if wanted split.
  if (!isa<linalg::LinalgOp, tensor::EmptyOp>(op) &&
      !(isa<arith::ConstantOp>(op) &&
        isa<SplatElementsAttr>(cast<arith::ConstantOp>(op).getValue()))) {
    llvm::SmallBitVector inOperands(numFactors);
    for (const ValueFactors &dims : rule.operands)
      for (const DimFactors &factors : dims)
        for (int64_t f : factors)
          inOperands.set(f);
    for (int64_t f = 0; f < numFactors; ++f)
      if (!inOperands.test(f))
        factorAxes[f].clear();
  }

  // Partial sums pass through ops linear in every operand (add, sub,
  // negate) when all operands are partial over the same axes: one psum after
  // the op instead of one per operand.
  SmallVector<StringAttr> carried = carriedPartialSums(op);
  // Each axis splits one factor; each factor must divide; a compound
  // dimension carries only its major factor's axes.
  llvm::SmallDenseSet<StringAttr> used(carried.begin(), carried.end());
  for (int64_t f = 0; f < numFactors; ++f) {
    auto &axes = factorAxes[f];
    auto firstUsed =
        llvm::find_if(axes, [&](StringAttr a) { return used.contains(a); });
    axes.erase(firstUsed, axes.end());
    while (!axes.empty() && (ShapedType::isDynamic(rule.factorSizes[f]) ||
                             rule.factorSizes[f] % mesh.getAxesSize(axes) != 0))
      axes.pop_back();
    used.insert(axes.begin(), axes.end());
  }
  auto forEachCompound = [&](ArrayRef<ValueFactors> values) {
    for (const ValueFactors &value : values)
      for (const DimFactors &factors : value) {
        int64_t major = rule.majorFactor(factors);
        for (int64_t f : factors)
          if (f != major)
            factorAxes[f].clear();
      }
  };
  forEachCompound(rule.operands);
  forEachCompound(rule.results);
  SmallVector<StringAttr> partial;
  for (int64_t f = 0; f < numFactors; ++f)
    if (rule.isReduction(f))
      llvm::append_range(partial, factorAxes[f]);

  auto layoutOf = [&](const ValueFactors &dims) {
    return factorLayout(rule, factorAxes, dims);
  };

  // Operands in the layouts the op needs.
  SmallVector<Value> operands;
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type) {
      operands.push_back(mapping.lookupOrDefault(operand));
      continue;
    }
    Layout need = layoutOf(rule.operands[k]);
    need.unreduced = carried;
    // A zero-filled destination of a sum must hold zeros on every device,
    // not be one device's copy: rebuild it in place.
    operands.push_back(localIn(operand, need));
  }

  // The op on local blocks.
  SmallVector<Type> resultTypes;
  SmallVector<Layout> resultLayouts;
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      resultTypes.push_back(result.getType());
      resultLayouts.push_back(Layout());
      continue;
    }
    Layout layout = layoutOf(rule.results[r]);
    layout.unreduced = partial;
    llvm::append_range(layout.unreduced, carried);
    if (kind)
      layout.partialKind = *kind;
    resultTypes.push_back(resharder.localType(type, layout));
    resultLayouts.push_back(layout);
  }
  SmallVector<Value> results;
  if (!createLocalOp(op, operands, resultTypes, factorAxes, rule, results))
    return op->emitOpError("could not be partitioned");

  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      mapping.map(result, results[r]);
      continue;
    }
    Layout want = desiredLayout(result);
    Value local = results[r];
    // A partial result already split as wanted stays partial: consumers
    // reduce it when they need it, and linear ones carry it further.
    Layout reduced = resultLayouts[r];
    reduced.unreduced.clear();
    if (!resultLayouts[r].unreduced.empty() && want.unreduced.empty() &&
        reduced == want) {
      setLocal(result, local, resultLayouts[r]);
      continue;
    }
    if (resultLayouts[r] != want)
      local =
          resharder.reshard(op->getLoc(), local, type, resultLayouts[r], want);
    setLocal(result, local, want);
  }
  return success();
}

Value FunctionPartitioner::createLocalOp(
    Operation *op, ValueRange operands, ArrayRef<Type> resultTypes,
    const SmallVector<SmallVector<StringAttr>> &factorAxes,
    const ShardingRule &rule, SmallVector<Value> &results) {
  Location loc = op->getLoc();
  auto localSizes = [&](ArrayRef<OpFoldResult> sizes, RankedTensorType global,
                        RankedTensorType local) {
    SmallVector<OpFoldResult> out(sizes);
    for (int64_t d = 0; d < global.getRank(); ++d) {
      std::optional<int64_t> s = getConstantIntValue(sizes[d]);
      if (s && *s == global.getDimSize(d))
        out[d] = b.getIndexAttr(local.getDimSize(d));
    }
    return out;
  };
  auto mapped = [&](ArrayRef<OpFoldResult> values) {
    SmallVector<OpFoldResult> out;
    for (OpFoldResult v : values)
      out.push_back(isa<Value>(v)
                        ? OpFoldResult(mapping.lookupOrDefault(cast<Value>(v)))
                        : v);
    return out;
  };

  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    auto global = slice.getSourceType();
    auto local = cast<RankedTensorType>(operands[0].getType());
    Value r = tensor::ExtractSliceOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        mapped(slice.getMixedOffsets()),
        localSizes(slice.getMixedSizes(), global, local),
        mapped(slice.getMixedStrides()));
    results.push_back(r);
    return r;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    auto global = insert.getDestType();
    auto local = cast<RankedTensorType>(operands[1].getType());
    Value r = tensor::InsertSliceOp::create(
        b, loc, operands[0], operands[1], mapped(insert.getMixedOffsets()),
        localSizes(insert.getMixedSizes(), global, local),
        mapped(insert.getMixedStrides()));
    results.push_back(r);
    return r;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    Value r = tensor::ExpandShapeOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        expand.getReassociationIndices());
    results.push_back(r);
    return r;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    Value r = tensor::CollapseShapeOp::create(
        b, loc, cast<RankedTensorType>(resultTypes[0]), operands[0],
        collapse.getReassociationIndices());
    results.push_back(r);
    return r;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    Value r = tensor::ConcatOp::create(b, loc, resultTypes[0], concat.getDim(),
                                       operands);
    results.push_back(r);
    return r;
  }
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    auto type = cast<RankedTensorType>(resultTypes[0]);
    Value r =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    results.push_back(r);
    return r;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    auto type = cast<RankedTensorType>(resultTypes[0]);
    if (dense && dense.isSplat()) {
      Value r = arith::ConstantOp::create(b, loc, dense.resizeSplat(type));
      results.push_back(r);
      return r;
    }
    // A non-splat constant exists whole on every device; the caller slices
    // it if the rule wanted it split.
    if (type != plain(constant.getType()))
      return {};
    Value r =
        arith::ConstantOp::create(b, loc,
                                  dense ? DenseElementsAttr(dense.reshape(type))
                                        : cast<TypedAttr>(constant.getValue()));
    results.push_back(r);
    return r;
  }

  // Generic path: clone on the local operands, with local result types.
  Operation *clone = cloneOn(op, operands);
  for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
    result.setType(type);
  clone->removeAttr(TrellisDialect::kShardingAttrName);

  // linalg.index yields local loop indices; add the block's offset for
  // loops that are split.
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(clone)) {
    SmallVector<linalg::IndexOp> indices;
    clone->walk([&](linalg::IndexOp index) { indices.push_back(index); });
    for (linalg::IndexOp index : indices) {
      int64_t d = index.getDim();
      if (d >= static_cast<int64_t>(factorAxes.size()) || factorAxes[d].empty())
        continue;
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(clone);
      int64_t block = rule.factorSizes[d] / mesh.getAxesSize(factorAxes[d]);
      SmallVector<Attribute> axes(factorAxes[d].begin(), factorAxes[d].end());
      Value rank = spmd::AxisIndexOp::create(b, loc, b.getIndexType(),
                                             b.getArrayAttr(axes));
      Value offset = arith::MulIOp::create(
          b, loc, rank, arith::ConstantIndexOp::create(b, loc, block));
      b.setInsertionPointAfter(index);
      Value global = arith::AddIOp::create(b, loc, index, offset);
      index.getResult().replaceAllUsesExcept(global, global.getDefiningOp());
    }
  }
  llvm::append_range(results, clone->getResults());
  return clone->getNumResults() ? clone->getResult(0) : Value();
}

Layout FunctionPartitioner::carryLayout(Value result, Value init) {
  auto type = cast<RankedTensorType>(result.getType());
  Layout layout =
      declaredSharding(result)
          ? desiredLayout(result)
          : (layouts.count(init) ? layouts[init]
                                 : Layout::replicated(type.getRank()));
  layout.unreduced.clear();
  return layout;
}

LogicalResult FunctionPartitioner::partitionFor(scf::ForOp op) {
  SmallVector<Layout> carry;
  SmallVector<Value> inits;
  for (auto [result, init] : llvm::zip(op.getResults(), op.getInitArgs())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      carry.push_back(Layout());
      inits.push_back(mapping.lookupOrDefault(init));
      continue;
    }
    Layout layout = carryLayout(result, init);
    carry.push_back(layout);
    inits.push_back(localIn(init, layout));
  }
  auto newFor = scf::ForOp::create(
      b, op.getLoc(), mapping.lookupOrDefault(op.getLowerBound()),
      mapping.lookupOrDefault(op.getUpperBound()),
      mapping.lookupOrDefault(op.getStep()), inits);
  Block *body = newFor.getBody();
  mapping.map(op.getInductionVar(), newFor.getInductionVar());
  for (auto [k, arg] : llvm::enumerate(op.getRegionIterArgs())) {
    if (isa<RankedTensorType>(arg.getType()))
      setLocal(arg, newFor.getRegionIterArgs()[k], carry[k]);
    else
      mapping.map(arg, newFor.getRegionIterArgs()[k]);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    if (!body->empty())
      body->getTerminator()->erase();
    b.setInsertionPointToEnd(body);
    if (failed(partitionBlock(*op.getBody())))
      return failure();
    SmallVector<Value> yields;
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    for (auto [k, value] : llvm::enumerate(yield.getOperands()))
      yields.push_back(isa<RankedTensorType>(value.getType())
                           ? localIn(value, carry[k])
                           : mapping.lookupOrDefault(value));
    scf::YieldOp::create(b, yield.getLoc(), yields);
  }
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    if (isa<RankedTensorType>(result.getType()))
      setLocal(result, newFor.getResult(k), carry[k]);
    else
      mapping.map(result, newFor.getResult(k));
  }
  return success();
}

/// Like a for: every carried tensor keeps one layout (its declared one, else
/// its init's) through both regions; what the condition forwards and the
/// body yields is resharded to it. The condition is a scalar, the same on
/// every device, so every device runs the same trips.
LogicalResult FunctionPartitioner::partitionWhile(scf::WhileOp op) {
  if (TypeRange(op.getBeforeArguments()) != op.getResultTypes() ||
      TypeRange(op.getAfterArguments()) != op.getResultTypes())
    return op.emitOpError("carries values whose types change between the "
                          "condition and the body; the partitioner needs "
                          "one type per carried value");
  SmallVector<Layout> carry;
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (auto [result, init] : llvm::zip(op.getResults(), op.getInits())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      carry.push_back(Layout());
      inits.push_back(mapping.lookupOrDefault(init));
      types.push_back(result.getType());
      continue;
    }
    Layout layout = carryLayout(result, init);
    carry.push_back(layout);
    inits.push_back(localIn(init, layout));
    types.push_back(inits.back().getType());
  }
  auto newWhile = scf::WhileOp::create(b, op.getLoc(), types, inits);
  auto fillRegion = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&to);
    for (auto [k, arg] : llvm::enumerate(from.front().getArguments())) {
      Value local = block->addArgument(types[k], arg.getLoc());
      if (isa<RankedTensorType>(arg.getType()))
        setLocal(arg, local, carry[k]);
      else
        mapping.map(arg, local);
    }
    if (failed(partitionBlock(from.front())))
      return failure();
    Operation *terminator = from.front().getTerminator();
    ValueRange carried = terminator->getOperands();
    if (auto condition = dyn_cast<scf::ConditionOp>(terminator))
      carried = condition.getArgs();
    SmallVector<Value> locals;
    for (auto [k, value] : llvm::enumerate(carried))
      locals.push_back(isa<RankedTensorType>(value.getType())
                           ? localIn(value, carry[k])
                           : mapping.lookupOrDefault(value));
    if (auto condition = dyn_cast<scf::ConditionOp>(terminator))
      scf::ConditionOp::create(
          b, condition.getLoc(),
          mapping.lookupOrDefault(condition.getCondition()), locals);
    else
      scf::YieldOp::create(b, terminator->getLoc(), locals);
    return success();
  };
  if (failed(fillRegion(op.getBefore(), newWhile.getBefore())) ||
      failed(fillRegion(op.getAfter(), newWhile.getAfter())))
    return failure();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    if (isa<RankedTensorType>(result.getType()))
      setLocal(result, newWhile.getResult(k), carry[k]);
    else
      mapping.map(result, newWhile.getResult(k));
  }
  return success();
}

LogicalResult FunctionPartitioner::partitionIf(scf::IfOp op) {
  SmallVector<Layout> want;
  SmallVector<Type> types;
  for (OpResult result : op.getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      want.push_back(Layout());
      types.push_back(result.getType());
      continue;
    }
    Layout layout = desiredLayout(result);
    layout.unreduced.clear();
    want.push_back(layout);
    types.push_back(resharder.localType(type, layout));
  }
  auto newIf = scf::IfOp::create(
      b, op.getLoc(), types, mapping.lookupOrDefault(op.getCondition()),
      /*withElseRegion=*/!op.getElseRegion().empty());
  auto fillRegion = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    Block *block = &to.front();
    if (!block->empty())
      block->getTerminator()->erase();
    b.setInsertionPointToEnd(block);
    if (failed(partitionBlock(from.front())))
      return failure();
    auto yield = cast<scf::YieldOp>(from.front().getTerminator());
    SmallVector<Value> yields;
    for (auto [k, value] : llvm::enumerate(yield.getOperands()))
      yields.push_back(isa<RankedTensorType>(value.getType())
                           ? localIn(value, want[k])
                           : mapping.lookupOrDefault(value));
    scf::YieldOp::create(b, yield.getLoc(), yields);
    return success();
  };
  if (failed(fillRegion(op.getThenRegion(), newIf.getThenRegion())))
    return failure();
  if (!op.getElseRegion().empty() &&
      failed(fillRegion(op.getElseRegion(), newIf.getElseRegion())))
    return failure();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    if (isa<RankedTensorType>(result.getType()))
      setLocal(result, newIf.getResult(k), want[k]);
    else
      mapping.map(result, newIf.getResult(k));
  }
  return success();
}

/// A shard_map over every mesh axis inside a global function: its inputs
/// are resharded to its in_specs, its body is inlined (its collectives are
/// already per device), and its results have the layout of its out_specs.
LogicalResult FunctionPartitioner::partitionShardMap(spmd::ShardMapOp op) {
  if (op.getMeshAttr().getValue() != mesh.getSymName())
    return op.emitOpError("uses mesh ")
           << op.getMeshAttr() << ", but the function is partitioned over @"
           << mesh.getSymName();
  SmallVector<StringAttr> manual = op.getAllManualAxes();
  const bool partial = manual.size() != mesh.getNumAxes();
  // An outer dimension is split by the spec's (manual) axes, then by the
  // body value's free axes.
  auto composed = [&](trellis::SpecAttr spec, const Layout &inner) {
    Layout layout = Layout::replicated(inner.dims.size());
    for (int64_t d = 0, e = inner.dims.size(); d < e; ++d) {
      ArrayRef<StringAttr> axes = spec.getAxes(d);
      layout.dims[d].assign(axes.begin(), axes.end());
      llvm::append_range(layout.dims[d], inner.dims[d]);
    }
    return layout;
  };
  Block &body = op.getBodyBlock();
  for (auto [k, input] : llvm::enumerate(op.getInputs())) {
    BlockArgument arg = body.getArgument(k);
    auto argType = cast<RankedTensorType>(arg.getType());
    Layout inner =
        partial ? desiredLayout(arg) : Layout::replicated(argType.getRank());
    inner.unreduced.clear();
    if (!resharder.divides(argType, inner))
      inner = Layout::replicated(argType.getRank());
    Layout outer = composed(cast<trellis::SpecAttr>(op.getInSpecs()[k]), inner);
    setLocal(arg, localIn(input, outer), inner);
  }
  if (!partial) {
    // A fully-manual body is already per device.
    for (Operation &inner : body.without_terminator())
      b.clone(inner, mapping);
  } else if (failed(partitionBlock(body))) {
    // A partially-manual body partitions its free axes; its collectives over
    // manual axes run on whole (free-axis replicated) blocks.
    return failure();
  }
  Operation *yield = body.getTerminator();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    Value value = yield->getOperand(k);
    auto type = cast<RankedTensorType>(value.getType());
    Layout inner = Layout::replicated(type.getRank());
    Value local = mapping.lookupOrDefault(value);
    if (partial) {
      auto it = layouts.find(value);
      if (it != layouts.end())
        inner = it->second;
      inner.unreduced.clear();
      local = localIn(value, inner);
    }
    setLocal(result, local,
             composed(cast<trellis::SpecAttr>(op.getOutSpecs()[k]), inner));
  }
  return success();
}

/// auto_axes and explicit_axes only change which axes types may mention:
/// after partitioning every axis is manual, so the body is inlined. Inputs
/// take the layouts the body's arguments declare; results keep the layouts
/// of the values yielded (consumers reshard them as they need).
LogicalResult FunctionPartitioner::partitionAxisRegion(Operation *op) {
  Block &body = op->getRegion(0).front();
  for (auto [input, arg] : llvm::zip(op->getOperands(), body.getArguments())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type) {
      mapping.map(arg, mapping.lookupOrDefault(input));
      continue;
    }
    Layout layout = desiredLayout(arg);
    setLocal(arg, localIn(input, layout), layout);
  }
  if (failed(partitionBlock(body)))
    return failure();
  Operation *yield = body.getTerminator();
  for (auto [result, value] :
       llvm::zip(op->getResults(), yield->getOperands())) {
    if (!isa<RankedTensorType>(result.getType())) {
      mapping.map(result, mapping.lookupOrDefault(value));
      continue;
    }
    auto it = layouts.find(value);
    Layout layout =
        it != layouts.end()
            ? it->second
            : Layout::replicated(
                  cast<RankedTensorType>(value.getType()).getRank());
    setLocal(result, mapping.lookupOrDefault(value), layout);
  }
  return success();
}

SpecAttr specOf(MLIRContext *ctx, const Layout &layout) {
  SmallVector<DimShardingAttr> dims;
  for (const auto &axes : layout.dims)
    dims.push_back(DimShardingAttr::get(ctx, axes));
  return SpecAttr::get(ctx, dims);
}

LogicalResult FunctionPartitioner::run() {
  MLIRContext *ctx = func.getContext();
  Block &oldBody = func.getBody().front();
  auto ret = cast<func::ReturnOp>(oldBody.getTerminator());

  // in_specs from the arguments, out_specs from the results.
  SmallVector<Attribute> inSpecs, outSpecs;
  SmallVector<Layout> argLayouts, resultLayouts;
  // Scalars (integers, floats, index) cross the shard_map as replicated 0-d
  // tensors: every device gets the same value.
  auto isScalar = [](Type type) { return type.isIntOrIndexOrFloat(); };
  for (BlockArgument arg : oldBody.getArguments()) {
    if (isScalar(arg.getType())) {
      argLayouts.push_back(Layout::replicated(0));
      inSpecs.push_back(specOf(ctx, argLayouts.back()));
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return func.emitOpError("argument #")
             << arg.getArgNumber()
             << " is neither a ranked tensor nor a scalar; the partitioner "
                "takes tensors, integers, floats and indices";
    Layout layout = desiredLayout(arg);
    if (!layout.unreduced.empty() || !resharder.divides(type, layout))
      return func.emitOpError("argument #")
             << arg.getArgNumber() << " cannot be laid out as " << layout.str();
    argLayouts.push_back(layout);
    inSpecs.push_back(specOf(ctx, layout));
  }
  for (auto [j, value] : llvm::enumerate(ret.getOperands())) {
    if (isScalar(value.getType())) {
      resultLayouts.push_back(Layout::replicated(0));
      outSpecs.push_back(specOf(ctx, resultLayouts.back()));
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return ret.emitOpError("result #")
             << j
             << " is neither a ranked tensor nor a scalar; the partitioner "
                "takes tensors, integers, floats and indices";
    ShardingAttr declared = func.getResultAttrOfType<ShardingAttr>(
        j, TrellisDialect::kShardingAttrName);
    if (!declared)
      declared = getShardingEncoding(func.getResultTypes()[j]);
    if (!declared)
      declared = declaredSharding(value);
    Layout layout = Layout::fromSharding(declared, type.getRank());
    layout.unreduced.clear();
    if (!resharder.divides(type, layout))
      layout = Layout::replicated(type.getRank());
    resultLayouts.push_back(layout);
    outSpecs.push_back(specOf(ctx, layout));
  }

  // The new body: one shard_map over every axis.
  Block *entry = new Block();
  for (BlockArgument arg : oldBody.getArguments())
    entry->addArgument(arg.getType(), arg.getLoc());
  b.setInsertionPointToStart(entry);
  auto asTensor = [](Type type) -> Type {
    if (isa<RankedTensorType>(type))
      return type;
    return RankedTensorType::get({}, type);
  };
  SmallVector<Value> inputs;
  for (BlockArgument arg : entry->getArguments())
    inputs.push_back(
        isScalar(arg.getType())
            ? tensor::FromElementsOp::create(
                  b, arg.getLoc(), asTensor(arg.getType()), ValueRange{arg})
                  .getResult()
            : Value(arg));
  SmallVector<Type> mapResultTypes =
      llvm::map_to_vector(func.getResultTypes(), asTensor);
  auto map = spmd::ShardMapOp::create(
      b, func.getLoc(), mapResultTypes,
      FlatSymbolRefAttr::get(mesh.getSymNameAttr()), b.getArrayAttr(inSpecs),
      b.getArrayAttr(outSpecs), /*manual_axes=*/ArrayAttr(),
      /*check_vma=*/b.getBoolAttr(false), inputs);
  Block *body = new Block();
  map.getBody().push_back(body);
  b.setInsertionPointToStart(body);
  for (auto [k, arg] : llvm::enumerate(oldBody.getArguments())) {
    if (isScalar(arg.getType())) {
      Value block = body->addArgument(asTensor(arg.getType()), arg.getLoc());
      mapping.map(
          arg, tensor::ExtractOp::create(b, arg.getLoc(), block, ValueRange())
                   .getResult());
      continue;
    }
    auto type = cast<RankedTensorType>(arg.getType());
    Value local = body->addArgument(resharder.localType(type, argLayouts[k]),
                                    arg.getLoc());
    setLocal(arg, local, argLayouts[k]);
  }
  if (failed(partitionBlock(oldBody))) {
    delete entry;
    return failure();
  }
  SmallVector<Value> yields;
  for (auto [j, value] : llvm::enumerate(ret.getOperands()))
    yields.push_back(isScalar(value.getType())
                         ? tensor::FromElementsOp::create(
                               b, ret.getLoc(), asTensor(value.getType()),
                               ValueRange{mapping.lookupOrDefault(value)})
                               .getResult()
                         : localIn(value, resultLayouts[j]));
  spmd::YieldOp::create(b, ret.getLoc(), yields);
  if (resharder.failed) {
    delete entry;
    return failure();
  }
  b.setInsertionPointToEnd(entry);
  SmallVector<Value> results;
  for (auto [j, result] : llvm::enumerate(map.getResults()))
    results.push_back(
        isScalar(func.getResultTypes()[j])
            ? tensor::ExtractOp::create(b, ret.getLoc(), result, ValueRange())
                  .getResult()
            : result);
  func::ReturnOp::create(b, ret.getLoc(), results);

  // Swap the bodies.
  oldBody.dropAllDefinedValueUses();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(oldBody)))
    op.dropAllReferences();
  func.getBody().getBlocks().clear();
  func.getBody().push_back(entry);
  return success();
}

/// Whether the function already is one fully-manual shard_map.
bool isPartitioned(func::FuncOp func) {
  Block &body = func.getBody().front();
  if (body.getOperations().size() != 2)
    return false;
  auto map = dyn_cast<spmd::ShardMapOp>(body.front());
  if (!map || !map.getMeshOp() ||
      map.getAllManualAxes().size() != map.getMeshOp().getNumAxes())
    return false;
  // Shardings the function declares must be over the shard_map's mesh.
  auto sameMesh = [&](ShardingAttr s) {
    return !s || s.getMesh() == map.getMeshAttr();
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (!sameMesh(func.getArgAttrOfType<ShardingAttr>(
            i, TrellisDialect::kShardingAttrName)))
      return false;
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (!sameMesh(func.getResultAttrOfType<ShardingAttr>(
            i, TrellisDialect::kShardingAttrName)))
      return false;
  return true;
}

/// Seed 001's check for the shard_maps a global function embeds: the
/// partitioner inlines their bodies into its own (unchecked) shard_map, so
/// an output that varies over an axis its out_spec omits would silently keep
/// one device's block. Each outermost shard_map is typed on a throw-away
/// copy (the inference rewrites types), as trellis-run types a manual entry.
LogicalResult checkEmbeddedShardMaps(func::FuncOp func) {
  SmallVector<spmd::ShardMapOp> maps;
  func.walk<WalkOrder::PreOrder>([&](spmd::ShardMapOp map) {
    maps.push_back(map);
    return WalkResult::skip();
  });
  for (spmd::ShardMapOp map : maps) {
    if (!map.getCheckVma())
      continue;
    OpBuilder b(map);
    auto copy = cast<spmd::ShardMapOp>(b.clone(*map));
    LogicalResult typed = spmd::inferVariance(copy, spmd::VarianceOptions());
    copy.erase();
    if (failed(typed))
      return failure(); // the inference explained why, at the copy's location
  }
  return success();
}

struct PartitionPass
    : mlir::trellis::impl::TrellisPartitionBase<PartitionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal() ||
          func->hasAttr(spmd::SpmdDialect::kMeshAttrName) ||
          isPartitioned(func))
        continue;
      FailureOr<MeshOp> mesh = findFunctionMesh(func);
      if (failed(mesh))
        return signalPassFailure();
      if (!*mesh)
        continue;
      if (!func.getBody().hasOneBlock()) {
        func.emitOpError("has several blocks; the partitioner takes "
                         "structured control flow (scf) only");
        return signalPassFailure();
      }
      if (failed(checkEmbeddedShardMaps(func)))
        return signalPassFailure();
      FunctionPartitioner partitioner(func, *mesh);
      if (failed(partitioner.run()))
        return signalPassFailure();
    }
  }
};

} // namespace
