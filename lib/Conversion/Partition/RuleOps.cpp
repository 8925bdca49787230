//===- RuleOps.cpp - Partitioning ops with a sharding rule ----------------===//
//
// An op's sharding rule names its factors; each factor is split over the
// mesh axes the results want (parallel factors) or the operands have
// (reductions whose partial results can be combined). When both pull on
// one axis, the plan that moves fewer bytes wins. The operands are then
// resharded to the factors' layouts and the op is re-emitted locally.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Runtime/CommCost.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

namespace {

/// Whether `value` is a fresh destination filled with zero, or a zero
/// constant (the identity of a sum), so partial sums can each start from
/// it.
bool isZeroFilled(Value value) {
  if (isZeroConstant(value))
    return true;
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill || !isEmptyOrFillOfEmpty(fill.getOutputs()[0]))
    return false;
  return isZeroConstant(fill.getInputs()[0]);
}

/// How the reductions of `op` combine: sums (a contraction, or a reduction
/// whose payload adds into the output), maxima or minima; none otherwise.
std::optional<PartialKind> reductionKind(Operation *op,
                                         const ShardingRule &rule) {
  if (op->hasAttr(TrellisDialect::kRuleAttrName)) {
    if (rule.declaredReduction == "sum")
      return PartialKind::Sum;
    if (rule.declaredReduction == "max")
      return PartialKind::Max;
    if (rule.declaredReduction == "min")
      return PartialKind::Min;
    return std::nullopt;
  }
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

} // namespace

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

/// The factors of a dimension that are larger than 1, major to minor.
static SmallVector<int64_t> splittableFactors(const ShardingRule &rule,
                                              const DimFactors &factors) {
  SmallVector<int64_t> out;
  for (int64_t f : factors)
    if (rule.factorSizes[f] != 1)
      out.push_back(f);
  return out;
}

/// The layout of a value whose dimensions hold `dims` (per dimension, its
/// factors) when each factor is split over `factorAxes`: a dimension takes
/// its factors' axes, major to minor, as far as each factor before is
/// split wholly (a reshape's merged dimension: its blocks are then those
/// of its factors).
static Layout factorLayout(const ShardingRule &rule,
                           ArrayRef<SmallVector<StringAttr>> factorAxes,
                           const ValueFactors &dims, MeshOp mesh) {
  Layout layout = Layout::replicated(dims.size());
  for (auto [d, factors] : llvm::enumerate(dims))
    for (int64_t f : splittableFactors(rule, factors)) {
      llvm::append_range(layout.dims[d], factorAxes[f]);
      if (ShapedType::isDynamic(rule.factorSizes[f]) ||
          mesh.getAxesSize(factorAxes[f]) != rule.factorSizes[f])
        break;
    }
  return layout;
}

/// Gives each factor of a dimension split over `axes` its share of them
/// (splitAxesOverFactors, without splitting axes), or, when they do not
/// fit that way, all of them to the major factor. Calls `take(f, axes)`
/// for each factor.
static void
forEachFactorShare(const ShardingRule &rule, const DimFactors &factors,
                   ArrayRef<StringAttr> axes, MeshOp mesh,
                   function_ref<void(int64_t, ArrayRef<StringAttr>)> take) {
  SmallVector<int64_t> split = splittableFactors(rule, factors);
  if (split.size() > 1) {
    auto sizes = llvm::map_to_vector(
        split, [&](int64_t f) { return rule.factorSizes[f]; });
    if (auto shares =
            splitAxesOverFactors(mesh, sizes, axes, /*splitAxes=*/false)) {
      for (auto [f, share] : llvm::zip(split, *shares))
        take(f, share);
      return;
    }
  }
  if (int64_t f = rule.majorFactor(factors); f >= 0)
    take(f, axes);
}

/// Bytes a device receives to move a block of `type` from layout `from`
/// to `to`, roughly as the Resharder does it, with CommCost.h's ring
/// formulas: nothing for slicing, an all_to_all of the block over the axes
/// moved between dimensions, and otherwise an all-gather over the axes not
/// kept (then slicing).
static int64_t reshardBytes(RankedTensorType type, const Layout &from,
                            const Layout &to, MeshOp mesh) {
  if (!type.hasStaticShape() || from.dims.size() != to.dims.size())
    return 0;
  int64_t total =
      type.getNumElements() * trellis::elementBytes(type.getElementType());
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
  int64_t keptSize = mesh.getAxesSize(kept);
  // The kept axes are some of `from`'s, so their size divides its size.
  int64_t n = mesh.getAxesSize(fromAxes) / keptSize;
  if (onlyMoved)
    return rt::ringShareBytes(fromBlock, n);
  // The gathered block is n of `from`'s: total / keptSize, whose n-th
  // (rounded down) is fromBlock.
  return rt::ringShareBytes(total / keptSize, n);
}

int64_t
FunctionPartitioner::planBytes(Operation *op, const ShardingRule &rule,
                               ArrayRef<SmallVector<StringAttr>> factorAxes,
                               ArrayRef<StringAttr> reduced) {
  auto layoutOf = [&](const ValueFactors &dims) {
    return factorLayout(rule, factorAxes, dims, mesh);
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
    // counted as a reduce-scatter of the local block.
    if (!reduced.empty()) {
      int64_t block = resharder.localType(type, layout).getNumElements() *
                      elementBytes(type.getElementType());
      bytes += rt::ringShareBytes(block, mesh.getAxesSize(reduced));
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

/// Parallel factors take the axes the results are meant to have; marks
/// them `assigned`.
void FunctionPartitioner::takeResultAxes(Operation *op,
                                         const ShardingRule &rule,
                                         FactorAxes &factorAxes,
                                         SmallVector<bool> &assigned) {
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      continue;
    Layout want = desiredLayout(result);
    for (auto [d, factors] : llvm::enumerate(rule.results[r]))
      forEachFactorShare(rule, factors, want.dims[d], mesh,
                         [&](int64_t f, ArrayRef<StringAttr> axes) {
                           if (assigned[f] || rule.needsReplication(f))
                             return;
                           factorAxes[f].assign(axes.begin(), axes.end());
                           assigned[f] = true;
                         });
  }
}

/// Reduction factors keep the operands' axes when the partial results can
/// be combined afterwards: a sum into a zero-filled destination, or a
/// maximum or minimum (idempotent, so any destination the devices share).
static bool canCombinePartials(Operation *op, const ShardingRule &rule,
                               std::optional<PartialKind> kind) {
  bool combinable = kind.has_value();
  for (auto [r, init] : llvm::enumerate(rule.tiedInit))
    if (init >= 0 && kind == PartialKind::Sum &&
        !isZeroFilled(op->getOperand(init)))
      combinable = false;
  return combinable;
}

FunctionPartitioner::FactorPlan
FunctionPartitioner::makePlan(Operation *op, const ShardingRule &rule,
                              const FactorAxes &factorAxes,
                              ArrayRef<bool> assigned, bool combinable,
                              const llvm::SmallDenseSet<StringAttr> &banned) {
  const int64_t numFactors = rule.numFactors();
  FactorPlan plan{factorAxes, {}};
  SmallVector<bool> taken(assigned);
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || k >= rule.operands.size())
      continue;
    auto it = layouts.find(operand);
    for (auto [d, factors] : llvm::enumerate(rule.operands[k])) {
      ArrayRef<StringAttr> held;
      if (it != layouts.end() && d < it->second.dims.size())
        held = it->second.dims[d];
      forEachFactorShare(
          rule, factors, held, mesh,
          [&](int64_t f, ArrayRef<StringAttr> share) {
            if (taken[f])
              return;
            taken[f] = true;
            if (rule.needsReplication(f))
              return;
            if (rule.isReduction(f) && !combinable)
              return;
            auto &axes = plan.factorAxes[f];
            axes.assign(share.begin(), share.end());
            if (rule.isReduction(f)) {
              axes.erase(
                  llvm::find_if(
                      axes, [&](StringAttr a) { return banned.contains(a); }),
                  axes.end());
              llvm::append_range(plan.reduced, axes);
            }
          });
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
}

FunctionPartitioner::FactorPlan
FunctionPartitioner::choosePlan(Operation *op, const ShardingRule &rule,
                                const FactorAxes &factorAxes,
                                ArrayRef<bool> assigned, bool combinable) {
  FactorPlan chosen = makePlan(op, rule, factorAxes, assigned, combinable, {});
  // When a reduction keeps an axis the result wants on a parallel factor
  // (seed 003's FFN: x[B, D@Y] . w[D, F@Y] with the result wanted F@Y), the
  // other plan gathers the reduced operand over that axis instead of
  // reducing and scattering the result. Take whichever moves fewer bytes.
  llvm::SmallDenseSet<StringAttr> conflicting;
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    if (!rule.isReduction(f))
      for (StringAttr axis : factorAxes[f])
        if (llvm::is_contained(chosen.reduced, axis))
          conflicting.insert(axis);
  if (!conflicting.empty()) {
    FactorPlan gather =
        makePlan(op, rule, factorAxes, assigned, combinable, conflicting);
    if (planBytes(op, rule, gather.factorAxes, gather.reduced) <
        planBytes(op, rule, chosen.factorAxes, chosen.reduced))
      chosen = std::move(gather);
  }
  return chosen;
}

/// Tensor ops compute a factor only their results hold (a slice's or a
/// pad's extent) whole; the result is then sliced locally if wanted split.
static void unsplitResultOnlyFactors(Operation *op, const ShardingRule &rule,
                                     FactorAxes &factorAxes) {
  if (isa<linalg::LinalgOp, tensor::EmptyOp>(op) ||
      (isa<arith::ConstantOp>(op) &&
       isa<SplatElementsAttr>(cast<arith::ConstantOp>(op).getValue())))
    return;
  llvm::SmallBitVector inOperands(rule.numFactors());
  for (const ValueFactors &dims : rule.operands)
    for (const DimFactors &factors : dims)
      for (int64_t f : factors)
        inOperands.set(f);
  // A factor read through a window (a shifted slice) is in its operand.
  for (const WindowDim &window : rule.windows)
    inOperands.set(window.factor);
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    if (!inOperands.test(f))
      factorAxes[f].clear();
}

void FunctionPartitioner::fitAxesToFactors(Operation *op,
                                           const ShardingRule &rule,
                                           ArrayRef<StringAttr> carried,
                                           FactorAxes &factorAxes) {
  // Each axis splits one factor; each factor must divide unless it may be
  // split unevenly (Uneven.cpp); a compound dimension carries only its
  // major factor's axes.
  // Which factors may be split unevenly, worked out only when some factor
  // does not divide by its axes (most ops never ask).
  std::optional<SmallVector<bool>> uneven;
  auto mayBeUneven = [&](int64_t f) {
    if (!uneven)
      uneven = unevenFactors(op, rule);
    return (*uneven)[f];
  };
  llvm::SmallDenseSet<StringAttr> used(carried.begin(), carried.end());
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    auto &axes = factorAxes[f];
    auto firstUsed =
        llvm::find_if(axes, [&](StringAttr a) { return used.contains(a); });
    axes.erase(firstUsed, axes.end());
    auto fits = [&] {
      if (ShapedType::isDynamic(rule.factorSizes[f]))
        return false;
      int64_t parts = mesh.getAxesSize(axes);
      if (rule.factorSizes[f] % parts == 0)
        return true;
      return mayBeUneven(f) && windowsFitUnevenly(op, rule, f, parts);
    };
    while (!axes.empty() && !fits())
      axes.pop_back();
    used.insert(axes.begin(), axes.end());
  }
  // A factor of a compound dimension keeps its axes only when every factor
  // before it is split wholly (factorLayout).
  auto forEachCompound = [&](ArrayRef<ValueFactors> values) {
    for (const ValueFactors &value : values)
      for (const DimFactors &factors : value) {
        bool whole = true;
        for (int64_t f : splittableFactors(rule, factors)) {
          if (!whole)
            factorAxes[f].clear();
          whole = whole && !ShapedType::isDynamic(rule.factorSizes[f]) &&
                  mesh.getAxesSize(factorAxes[f]) == rule.factorSizes[f];
        }
      }
  };
  forEachCompound(rule.operands);
  forEachCompound(rule.results);
}

SmallVector<Value>
FunctionPartitioner::localOperands(Operation *op, const ShardingRule &rule,
                                   const FactorAxes &factorAxes,
                                   ArrayRef<StringAttr> carried) {
  SmallVector<Value> operands;
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type) {
      operands.push_back(mapping.lookupOrDefault(operand));
      continue;
    }
    Layout need = factorLayout(rule, factorAxes, rule.operands[k], mesh);
    need.unreduced.assign(carried.begin(), carried.end());
    // A zero-filled destination of a sum must hold zeros on every device,
    // not be one device's copy: rebuild it in place.
    operands.push_back(localWindowed(op, rule, factorAxes, k, need));
  }
  return operands;
}

void FunctionPartitioner::localResults(Operation *op, const ShardingRule &rule,
                                       const FactorAxes &factorAxes,
                                       ArrayRef<StringAttr> carried,
                                       std::optional<PartialKind> kind,
                                       SmallVector<Type> &resultTypes,
                                       SmallVector<Layout> &resultLayouts) {
  SmallVector<StringAttr> partial;
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    if (rule.isReduction(f))
      llvm::append_range(partial, factorAxes[f]);
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      resultTypes.push_back(result.getType());
      resultLayouts.push_back(Layout());
      continue;
    }
    Layout layout = factorLayout(rule, factorAxes, rule.results[r], mesh);
    layout.unreduced = partial;
    llvm::append_range(layout.unreduced, carried);
    if (kind)
      layout.partialKind = *kind;
    resultTypes.push_back(resharder.localType(type, layout));
    resultLayouts.push_back(layout);
  }
}

void FunctionPartitioner::bindResults(Operation *op, ArrayRef<Value> results,
                                      ArrayRef<Layout> resultLayouts) {
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
}

LogicalResult FunctionPartitioner::partitionRuleOp(Operation *op,
                                                   const ShardingRule &rule) {
  // Every layout below has one entry per dimension of its tensor: a rule
  // that describes another number of dimensions would make them read
  // past their ends.
  auto mismatch = [&](ValueRange values, ArrayRef<ValueFactors> dims,
                      StringRef what) -> LogicalResult {
    if (dims.size() != values.size())
      return op->emitOpError("has a sharding rule for ")
             << dims.size() << " " << what << "s but " << values.size()
             << " " << what << "s; the partitioner cannot place it";
    for (auto [k, value] : llvm::enumerate(values))
      if (auto type = dyn_cast<RankedTensorType>(value.getType()))
        if (static_cast<int64_t>(dims[k].size()) != type.getRank())
          return op->emitOpError("has a sharding rule with ")
                 << dims[k].size() << " dimensions for " << what << " #" << k
                 << " of rank " << type.getRank()
                 << "; the partitioner cannot place it";
    return success();
  };
  if (failed(mismatch(op->getOperands(), rule.operands, "operand")) ||
      failed(mismatch(op->getResults(), rule.results, "result")))
    return failure();
  FactorAxes factorAxes(rule.numFactors());
  SmallVector<bool> assigned(rule.numFactors(), false);
  takeResultAxes(op, rule, factorAxes, assigned);
  std::optional<PartialKind> kind = reductionKind(op, rule);
  bool combinable = canCombinePartials(op, rule, kind);
  factorAxes =
      choosePlan(op, rule, factorAxes, assigned, combinable).factorAxes;
  unsplitResultOnlyFactors(op, rule, factorAxes);
  // Partial sums pass through ops linear in every operand (add, sub,
  // negate) when all operands are partial over the same axes: one psum after
  // the op instead of one per operand.
  SmallVector<StringAttr> carried = carriedPartialSums(op);
  fitAxesToFactors(op, rule, carried, factorAxes);

  // Operands in the layouts the op needs; the op on local blocks, the
  // padding of unevenly split reductions masked.
  SmallVector<Value> operands = localOperands(op, rule, factorAxes, carried);
  FailureOr<SmallVector<std::pair<int64_t, Value>>> payloadMasks =
      maskPaddedReductions(op, rule, factorAxes, operands);
  if (failed(payloadMasks))
    return failure();
  SmallVector<Type> resultTypes;
  SmallVector<Layout> resultLayouts;
  localResults(op, rule, factorAxes, carried, kind, resultTypes, resultLayouts);
  FailureOr<SmallVector<Value>> results =
      createLocalOp(op, operands, resultTypes, factorAxes, rule, *payloadMasks);
  // An op without results is not modelled either.
  if (failed(results) || results->empty())
    return op->emitOpError("could not be partitioned");
  shiftWindowMaps(results->front().getDefiningOp(),
                  splitWindows(op, rule, factorAxes));
  bindResults(op, *results, resultLayouts);
  return success();
}
