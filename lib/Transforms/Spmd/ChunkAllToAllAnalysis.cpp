//===- ChunkAllToAllAnalysis.cpp - Regions and producers to chunk ---------===//
//
// spmd-chunk-all-to-all's analysis: the ops an all_to_all feeds that can
// run once per chunk (found in one walk over the block in order, with the
// dimension holding the chunk of every value) and the ops that compute its
// operand alone, walked backwards.
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/ChunkAllToAll.h"

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/Interfaces/ReshapeUtils.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <limits>

namespace mlir::spmd::chunking {

bool chunkableTensor(RankedTensorType type) {
  return type.hasStaticShape() && !llvm::is_contained(type.getShape(), 0) &&
         (!type.getEncoding() || isa<VaryAttr>(type.getEncoding()));
}

int64_t countCompute(ArrayRef<Operation *> ops) {
  return llvm::count_if(ops, [](Operation *op) {
    return isa<linalg::LinalgOp>(op) && !isa<linalg::FillOp>(op);
  });
}

namespace {

/// A region init operand that is rebuilt per chunk: a static tensor.empty,
/// through linalg.fill and spmd.pvary (which the variance check puts on
/// the zeros a matmul accumulates into).
bool isRegenerable(Value value) {
  Operation *def = value.getDefiningOp();
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(def))
    return isRegenerable(fill.getOutputs()[0]);
  if (auto pvary = dyn_cast_or_null<PvaryOp>(def))
    return isRegenerable(pvary.getOperand());
  auto empty = dyn_cast_or_null<tensor::EmptyOp>(def);
  return empty && empty.getType().hasStaticShape();
}

/// Whether every tensor type `op` has is ranked and chunkableTensor, and a
/// reshape's reassociation (which the rules index shapes by) is well
/// formed.
bool staticTensors(Operation *op) {
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op) &&
      !trellis::hasWellFormedReassociation(op))
    return false;
  auto ok = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return !isa<ShapedType>(t) || (tensor && chunkableTensor(tensor));
  };
  return llvm::all_of(op->getOperandTypes(), ok) &&
         llvm::all_of(op->getResultTypes(), ok);
}

/// The chunk of the dimension `group` of `shape` (the unmerged side of a
/// reshape) becomes, as dimension `merged` of the other side, when it is
/// on `dim`, one of `group`.
Track mergeTrack(ArrayRef<int64_t> group, ArrayRef<int64_t> shape, int64_t dim,
                 int64_t merged) {
  Track t;
  t.dim = merged;
  for (int64_t d : group)
    t.factors.push_back(shape[d]);
  t.pos = llvm::find(group, dim) - group.begin();
  t.normalize();
  return t;
}

/// Where on the unmerged side (`group` of `shape`) the chunk of a merged
/// dimension held as `t` goes: along its own factors, or, when it is not
/// composite, to the one dimension of `group` that is not a unit; none
/// when the dimension comes apart otherwise.
std::optional<int64_t> splitTrack(ArrayRef<int64_t> group,
                                  ArrayRef<int64_t> shape, const Track &t) {
  if (t.isComposite()) {
    SmallVector<int64_t> sizes;
    for (int64_t d : group)
      sizes.push_back(shape[d]);
    if (sizes != t.factors)
      return std::nullopt;
    return group[t.pos];
  }
  std::optional<int64_t> found;
  for (int64_t d : group) {
    if (shape[d] == 1)
      continue;
    if (found)
      return std::nullopt;
    found = d;
  }
  return found;
}

/// Where loop `loop` appears in `map`: the one result that is exactly that
/// dimension; none when it is read twice, through an expression, or not
/// at all.
std::optional<int64_t> positionOfLoop(AffineMap map, unsigned loop) {
  std::optional<int64_t> at;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (!expr.isFunctionOfDim(loop))
      continue;
    if (at || !isa<AffineDimExpr>(expr))
      return std::nullopt;
    at = i;
  }
  return at;
}

/// Whether the body of `op` can be cloned per chunk of `loop`: it does not
/// read the loop's index and only computes (no effects, no collectives,
/// which would also run once per chunk).
bool bodyFits(linalg::LinalgOp op, unsigned loop) {
  bool unfit = false;
  op->walk([&](Operation *nested) {
    if (nested == op.getOperation())
      return;
    if (auto index = dyn_cast<linalg::IndexOp>(nested))
      unfit |= index.getDim() == loop;
    unfit |=
        !isMemoryEffectFree(nested) || isa<SpmdDialect>(nested->getDialect());
  });
  return !unfit;
}

/// Whether every result of `op`'s body combines its init's block argument,
/// read nowhere else, with a value computed without any init argument, by
/// an associative and commutative operation: then the loops that reduce
/// can be split into pieces whose results are combined in any order (up to
/// floating-point rounding, as in any partitioned reduction).
bool reducesAssociatively(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  unsigned firstInit = op.getNumDpsInputs();
  llvm::SmallPtrSet<Value, 4> initArgs;
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i)
    initArgs.insert(body->getArgument(firstInit + i));
  // Whether `v` depends on an init argument within the body.
  auto readsInit = [&](Value v) {
    SmallVector<Value> worklist{v};
    llvm::SmallPtrSet<Value, 8> seen;
    while (!worklist.empty()) {
      Value cur = worklist.pop_back_val();
      if (!seen.insert(cur).second)
        continue;
      if (initArgs.contains(cur))
        return true;
      if (Operation *def = cur.getDefiningOp())
        if (def->getBlock() == body)
          llvm::append_range(worklist, def->getOperands());
    }
    return false;
  };
  // Values computed in nested regions are not followed below: refuse them.
  for (Operation &nested : *body)
    if (nested.getNumRegions() != 0)
      return false;
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
    BlockArgument out = body->getArgument(firstInit + i);
    Operation *combine = yield.getOperand(i).getDefiningOp();
    // A partial sum in another order may overflow where the whole did
    // not: with nsw / nuw that would be poison.
    if (auto flags =
            dyn_cast_or_null<arith::ArithIntegerOverflowFlagsInterface>(
                combine))
      if (flags.getOverflowAttr().getValue() !=
          arith::IntegerOverflowFlags::none)
        return false;
    if (!out.hasOneUse() || !combine || combine->getBlock() != body ||
        combine->getNumOperands() != 2 ||
        !isa<arith::AddFOp, arith::AddIOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::OrIOp, arith::AndIOp,
             arith::XOrIOp>(combine))
      return false;
    Value lhs = combine->getOperand(0), rhs = combine->getOperand(1);
    Value other = lhs == out ? rhs : rhs == out ? lhs : Value();
    if (!other || readsInit(other))
      return false;
  }
  return true;
}

class RegionBuilder {
public:
  RegionBuilder(Region &region) : r(region) {}

  /// Tries to add `op` (which reads a region value) to the region.
  bool tryAdd(Operation *op) {
    pendingRegenerated.clear();
    if (!staticTensors(op) || op->getNumResults() == 0)
      return false;
    std::optional<SmallVector<Track>> results;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      results = collapseRule(collapse);
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      results = expandRule(expand);
    else if (auto a2a = dyn_cast<AllToAllOp>(op))
      results = allToAllRule(a2a);
    else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      results = linalgRule(linalgOp);
    else if (op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op))
      results = elementwiseRule(op);
    if (!results)
      return false;
    for (auto [result, track] : llvm::zip(op->getResults(), *results)) {
      // The chunk dimension must divide.
      auto type = cast<RankedTensorType>(result.getType());
      if (type.getDimSize(track.dim) % r.chunks != 0)
        return false;
    }
    for (auto [result, track] : llvm::zip(op->getResults(), *results))
      r.tracks[result] = track;
    for (auto [operand, dim] : pendingRegenerated)
      r.regenerated[operand] = dim;
    r.ops.push_back(op);
    return true;
  }

  /// Tries to make `op` (which reads a region value, and cannot join the
  /// region) a sink: a reduction along the chunk loop.
  bool trySink(Operation *op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() || !staticTensors(op))
      return false;
    std::optional<unsigned> loop;
    std::optional<Track> chunking;
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      if (!r.contains(input->get()))
        continue;
      Track t = r.tracks.lookup(input->get());
      AffineMap map = linalgOp.getMatchingIndexingMap(input);
      auto dimExpr = dyn_cast<AffineDimExpr>(map.getResult(t.dim));
      if (!dimExpr || (loop && *loop != dimExpr.getPosition()) ||
          (chunking && !chunking->sameChunking(t)) ||
          positionOfLoop(map, dimExpr.getPosition()) != t.dim)
        return false;
      loop = dimExpr.getPosition();
      chunking = t;
    }
    if (!loop ||
        linalgOp.getIteratorTypesArray()[*loop] !=
            utils::IteratorType::reduction ||
        !bodyFits(linalgOp, *loop) || !reducesAssociatively(linalgOp))
      return false;
    int64_t range = linalgOp.getStaticLoopRanges()[*loop];
    Sink sink;
    sink.op = op;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      if (linalgOp.isDpsInit(&operand)) {
        // The accumulators: whole values from outside the region.
        if (r.contains(operand.get()) || map.isFunctionOfDim(*loop))
          return false;
        continue;
      }
      if (r.contains(operand.get()) || !map.isFunctionOfDim(*loop))
        continue;
      std::optional<int64_t> at = positionOfLoop(map, *loop);
      if (!at ||
          cast<RankedTensorType>(operand.get().getType()).getDimSize(*at) !=
              range)
        return false;
      Track t = *chunking;
      t.dim = *at;
      sink.sliced.push_back({&operand, t});
    }
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    if (llvm::any_of(above, [&](Value v) { return r.contains(v); }))
      return false;
    r.sinks.push_back(std::move(sink));
    return true;
  }

private:
  Region &r;
  /// The inits linalgRule found to rebuild per chunk for the op tryAdd is
  /// looking at.
  SmallVector<std::pair<OpOperand *, int64_t>> pendingRegenerated;

  std::optional<SmallVector<Track>> collapseRule(tensor::CollapseShapeOp op) {
    Track in = r.tracks.lookup(op.getSrc());
    auto srcShape = op.getSrcType().getShape();
    for (auto [g, group] : llvm::enumerate(op.getReassociationIndices())) {
      if (!llvm::is_contained(group, in.dim))
        continue;
      if (in.isComposite()) {
        // A composite dimension may only be collapsed with unit ones.
        for (int64_t d : group)
          if (d != in.dim && srcShape[d] != 1)
            return std::nullopt;
        Track out = in;
        out.dim = g;
        return SmallVector<Track>{out};
      }
      return SmallVector<Track>{mergeTrack(group, srcShape, in.dim, g)};
    }
    return std::nullopt;
  }

  std::optional<SmallVector<Track>> expandRule(tensor::ExpandShapeOp op) {
    Track in = r.tracks.lookup(op.getSrc());
    std::optional<int64_t> dim =
        splitTrack(op.getReassociationIndices()[in.dim],
                   op.getResultType().getShape(), in);
    if (!dim)
      return std::nullopt;
    Track out;
    out.dim = *dim;
    return SmallVector<Track>{out};
  }

  std::optional<SmallVector<Track>> allToAllRule(AllToAllOp op) {
    Track in = r.tracks.lookup(op.getOperand());
    if (in.isComposite() || in.dim == static_cast<int64_t>(op.getSplitDim()) ||
        in.dim == static_cast<int64_t>(op.getConcatDim()))
      return std::nullopt;
    return SmallVector<Track>{in};
  }

  std::optional<SmallVector<Track>> elementwiseRule(Operation *op) {
    std::optional<Track> common;
    for (Value operand : op->getOperands()) {
      if (!isa<ShapedType>(operand.getType()))
        continue;
      if (!r.contains(operand))
        return std::nullopt; // an outside tensor would need slicing
      Track t = r.tracks.lookup(operand);
      if (common && !(*common == t))
        return std::nullopt;
      common = t;
    }
    for (Type t : op->getResultTypes())
      if (!isa<RankedTensorType>(t))
        return std::nullopt;
    return SmallVector<Track>(op->getNumResults(), *common);
  }

  std::optional<SmallVector<Track>> linalgRule(linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics())
      return std::nullopt;
    // The chunk dimension of every region operand must be one loop, the
    // same one, parallel, read nowhere else.
    std::optional<unsigned> loop;
    std::optional<Track> chunking;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!r.contains(operand.get()))
        continue;
      Track t = r.tracks.lookup(operand.get());
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto dimExpr = dyn_cast<AffineDimExpr>(map.getResult(t.dim));
      if (!dimExpr)
        return std::nullopt;
      if (loop && *loop != dimExpr.getPosition())
        return std::nullopt;
      if (chunking && !chunking->sameChunking(t))
        return std::nullopt;
      loop = dimExpr.getPosition();
      chunking = t;
    }
    if (!loop ||
        op.getIteratorTypesArray()[*loop] != utils::IteratorType::parallel)
      return std::nullopt;
    SmallVector<std::pair<OpOperand *, int64_t>> regenerated;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      bool reads = map.isFunctionOfDim(*loop);
      std::optional<int64_t> at = positionOfLoop(map, *loop);
      if (r.contains(operand.get())) {
        if (!at)
          return std::nullopt;
        continue;
      }
      if (!reads)
        continue;
      // An outside operand along the loop: only an init rebuilt per chunk.
      if (!at || !op.isDpsInit(&operand) || !isRegenerable(operand.get()))
        return std::nullopt;
      regenerated.push_back({&operand, *at});
    }
    // The body must fit, and not read region values.
    if (!bodyFits(op, *loop))
      return std::nullopt;
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    if (llvm::any_of(above, [&](Value v) { return r.contains(v); }))
      return std::nullopt;
    SmallVector<Track> results;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      std::optional<int64_t> at =
          positionOfLoop(op.getMatchingIndexingMap(&init), *loop);
      if (!at)
        return std::nullopt;
      Track t = *chunking;
      t.dim = *at;
      results.push_back(t);
    }
    // Recorded once the op has joined (tryAdd may still refuse it).
    pendingRegenerated.assign(regenerated.begin(), regenerated.end());
    return results;
  }
};

using TrackedOperands = SmallVector<std::pair<OpOperand *, Track>>;

/// How the operands of `op` hold the chunk when its result holds it as
/// `t`; none when `op` cannot compute one chunk alone.
std::optional<TrackedOperands> backwardRule(Operation *op, const Track &t,
                                            Producer &p) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    if (t.isComposite())
      return std::nullopt;
    for (auto [g, group] : llvm::enumerate(expand.getReassociationIndices()))
      if (llvm::is_contained(group, t.dim))
        return TrackedOperands{
            {&expand.getSrcMutable(),
             mergeTrack(group, expand.getResultType().getShape(), t.dim, g)}};
    return std::nullopt;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    std::optional<int64_t> dim =
        splitTrack(collapse.getReassociationIndices()[t.dim],
                   collapse.getSrcType().getShape(), t);
    if (!dim)
      return std::nullopt;
    Track in;
    in.dim = *dim;
    return TrackedOperands{{&collapse.getSrcMutable(), in}};
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics() || linalgOp.getNumDpsInits() != 1)
      return std::nullopt;
    OpOperand &init = linalgOp.getDpsInitsMutable()[0];
    auto dimExpr = dyn_cast<AffineDimExpr>(
        linalgOp.getMatchingIndexingMap(&init).getResult(t.dim));
    if (!dimExpr)
      return std::nullopt;
    unsigned loop = dimExpr.getPosition();
    if (positionOfLoop(linalgOp.getMatchingIndexingMap(&init), loop) != t.dim ||
        linalgOp.getIteratorTypesArray()[loop] !=
            utils::IteratorType::parallel ||
        !bodyFits(linalgOp, loop) || !isRegenerable(init.get()))
      return std::nullopt;
    TrackedOperands operands;
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      AffineMap map = linalgOp.getMatchingIndexingMap(input);
      if (!map.isFunctionOfDim(loop))
        continue;
      std::optional<int64_t> at = positionOfLoop(map, loop);
      if (!at)
        return std::nullopt;
      Track in = t;
      in.dim = *at;
      operands.push_back({input, in});
    }
    p.regenerated[&init] = t.dim;
    return operands;
  }
  if (op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op) &&
      op->getNumResults() == 1) {
    TrackedOperands operands;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<ShapedType>(operand.get().getType()))
        continue;
      if (operand.get().getType() != op->getResult(0).getType())
        return std::nullopt;
      operands.push_back({&operand, t});
    }
    return operands;
  }
  return std::nullopt;
}

} // namespace

std::optional<Region> analyze(AllToAllOp seed, int64_t dim, int64_t chunks) {
  Region r;
  r.seed = seed;
  r.chunks = chunks;
  Track t;
  t.dim = dim;
  r.tracks[seed.getResult()] = t;
  r.ops.push_back(seed);
  RegionBuilder builder(r);
  Block *block = seed->getBlock();
  // Walk the block in order; the region ends at the first op that uses a
  // region value and cannot join it.
  for (Operation *op = seed->getNextNode(); op; op = op->getNextNode()) {
    bool reads = false, readsSink = false;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        if (r.contains(v))
          reads = true;
        if (r.isSinkResult(v))
          readsSink = true;
      }
    });
    // A sink's results exist once its last chunk is computed, where the
    // clones go: whatever reads them comes after.
    if (readsSink) {
      r.end = op;
      break;
    }
    if (!reads)
      continue;
    bool direct =
        llvm::any_of(op->getOperands(), [&](Value v) { return r.contains(v); });
    if (op->getNumRegions() == 0 || isa<linalg::LinalgOp>(op))
      if (direct && (builder.tryAdd(op) || builder.trySink(op)))
        continue;
    r.end = op;
    break;
  }
  // The exits: region values with users outside it (all after r.end, or
  // r.end itself, as the walk stopped at the first).
  llvm::SmallPtrSet<Operation *, 16> inRegion(r.ops.begin(), r.ops.end());
  for (Sink &sink : r.sinks)
    inRegion.insert(sink.op);
  for (Operation *op : r.ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *ancestor = block->findAncestorOpInBlock(*user);
            return !ancestor || !inRegion.contains(ancestor);
          }))
        r.exits.push_back(result);
  if (r.computeOps() == 0)
    return std::nullopt;
  return r;
}

std::optional<Producer> analyzeProducer(AllToAllOp seed, int64_t dim,
                                        int64_t chunks) {
  Producer p;
  Block *block = seed->getBlock();
  Track first;
  first.dim = dim;
  SmallVector<std::pair<OpOperand *, Track>> worklist{
      {&seed.getOperandMutable(), first}};
  while (!worklist.empty()) {
    auto [use, t] = worklist.pop_back_val();
    Value v = use->get();
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !chunkableTensor(type) || type.getDimSize(t.dim) % chunks)
      return std::nullopt;
    if (auto it = p.tracks.find(v); it != p.tracks.end()) {
      // A leaf read twice (a value in the region has one use).
      if (!(it->second == t))
        return std::nullopt;
      p.leafUses.push_back({use, v});
      continue;
    }
    p.tracks[v] = t;
    Operation *def = v.getDefiningOp();
    std::optional<TrackedOperands> operands;
    if (def && def->getBlock() == block && def->getNumResults() == 1 &&
        v.hasOneUse() && staticTensors(def))
      operands = backwardRule(def, t, p);
    if (!operands) {
      p.leaves.push_back(v);
      p.leafUses.push_back({use, v});
      continue;
    }
    p.ops.push_back(def);
    for (auto [operand, track] : *operands)
      worklist.push_back({operand, track});
  }
  if (countCompute(p.ops) == 0)
    return std::nullopt;
  llvm::sort(p.ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return p;
}

} // namespace mlir::spmd::chunking
