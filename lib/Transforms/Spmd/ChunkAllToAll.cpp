//===- ChunkAllToAll.cpp - All-to-alls in chunks pipelined with compute ---===//
//
// spmd-chunk-all-to-all: an all_to_all feeding compute that is independent
// along one of its other dimensions (the capacity dimension of a
// Mixture-of-Experts dispatch, feeding the expert matmul) is split into k
// all_to_alls of slices along that dimension, and the compute it feeds,
// down to the next all_to_all (the combine) and beyond, is cloned once per
// chunk with that dimension k times smaller. spmd-async-collectives then
// starts every dispatch chunk at once and waits for each just before its
// compute, so chunk j + 1 travels while chunk j's experts run, and chunk
// j's combine travels while chunk j + 1's run.
//
// The cloned ops ("the region") are found in one walk over the block in
// order. Every region value carries the dimension that holds the chunk:
// either a dimension of its own, or a factor of a dimension that a
// collapse_shape formed (the collapsed rows of [experts, capacity, d] ->
// [experts * capacity, d]); such a value's rows are a chunk in a fixed
// order that is not contiguous, which is fine for ops that treat rows
// independently, and it is put back in place by expanding it again. Values
// used outside the region are reassembled from their chunks by
// insert_slice after the last chunk. A reduction along the chunk (the
// combine einsum, summing over the capacity slots) is a "sink": it runs
// once per chunk, accumulating into the previous chunk's result, and its
// whole result ends the chain.
//
//===----------------------------------------------------------------------===//

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

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCHUNKALLTOALL
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

/// Where a region value holds the chunk: dimension `dim`, or, when
/// `factors` is not empty, factor `pos` of dimension `dim`, which is the
/// product of `factors` (outermost first).
struct Track {
  int64_t dim = 0;
  SmallVector<int64_t> factors;
  int64_t pos = 0;

  bool isComposite() const { return !factors.empty(); }
  bool sameChunking(const Track &other) const {
    return factors == other.factors && pos == other.pos;
  }
  bool operator==(const Track &other) const {
    return dim == other.dim && sameChunking(other);
  }
  /// Drops factors of one around a lone factor.
  void normalize() {
    if (factors.empty())
      return;
    for (auto [i, f] : llvm::enumerate(factors))
      if (static_cast<int64_t>(i) != pos && f != 1)
        return;
    factors.clear();
    pos = 0;
  }
};

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

RankedTensorType shrink(Type type, int64_t dim, int64_t chunks) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[dim] /= chunks;
  return tensor.clone(shape);
}

/// The bytes of a static tensor, saturating at INT64_MAX (a huge tensor
/// is above any threshold).
int64_t bytesOf(RankedTensorType type) {
  uint64_t bytes = trellis::elementBytes(type.getElementType());
  for (int64_t size : type.getShape())
    bytes = llvm::SaturatingMultiply<uint64_t>(bytes, size);
  return static_cast<int64_t>(
      std::min<uint64_t>(bytes, std::numeric_limits<int64_t>::max()));
}

/// Whether the pass can slice and rebuild values of `type`: static, with
/// no dimension of size 0 (a slice at offset 0 of one does not verify),
/// and no encoding other than device variance (a sharding in the type
/// depends on the shape, which chunks change).
bool chunkableTensor(RankedTensorType type) {
  return type.hasStaticShape() && !llvm::is_contained(type.getShape(), 0) &&
         (!type.getEncoding() || isa<VaryAttr>(type.getEncoding()));
}

/// The ops of `ops` that compute (linalg ops other than fills).
int64_t countCompute(ArrayRef<Operation *> ops) {
  return llvm::count_if(ops, [](Operation *op) {
    return isa<linalg::LinalgOp>(op) && !isa<linalg::FillOp>(op);
  });
}

/// A linalg op that reduces region values along the chunk (the MoE
/// combine einsum, summing over the capacity slots): it runs once per
/// chunk, each chunk accumulating into the results of the one before, the
/// first into the original inits. Its results are whole values, so the
/// chunked chain ends there.
struct Sink {
  Operation *op; // a linalg::LinalgOp
  /// Operands from outside the region read along the chunk: sliced per
  /// chunk, held as the track says.
  SmallVector<std::pair<OpOperand *, Track>> sliced;
};

/// The ops to clone per chunk, the chunk dimension of every value they
/// define, and the inits to rebuild per chunk.
struct Region {
  AllToAllOp seed;
  int64_t chunks = 1;
  SmallVector<Operation *> ops; // block order, seed first
  llvm::DenseMap<Value, Track> tracks;
  /// Init operands of region ops rebuilt per chunk, and the dimension
  /// that shrinks.
  llvm::MapVector<OpOperand *, int64_t> regenerated;
  /// Region values used outside the region.
  SmallVector<Value> exits;
  /// The first op after the region that uses an exit (the clones go
  /// before it).
  Operation *end = nullptr;
  /// Reductions of region values along the chunk.
  SmallVector<Sink> sinks;

  bool contains(Value v) const { return tracks.count(v); }
  /// The compute the chunks split: linalg ops cloned per chunk and sinks.
  int64_t computeOps() const {
    return countCompute(ops) + static_cast<int64_t>(sinks.size());
  }
  bool isSinkResult(Value v) const {
    return llvm::any_of(
        sinks, [&](const Sink &sink) { return v.getDefiningOp() == sink.op; });
  }
};

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

/// The region of `seed` chunked along `dim` of its result.
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

/// The ops that compute the seed's operand and nothing else, cloned per
/// chunk so that chunk j can leave as soon as it is computed: each has one
/// result, used once, by the seed or another of them. Values they read
/// along the chunk that come from elsewhere ("leaves": arguments, values
/// with other users, ops without a rule) are sliced per chunk.
struct Producer {
  SmallVector<Operation *> ops; // block order
  llvm::DenseMap<Value, Track> tracks;
  SmallVector<Value> leaves;
  /// The operands that read a leaf along the chunk (they get its slice;
  /// other reads of the same value, whole inputs of a contraction or
  /// values captured by a body, keep the whole value).
  SmallVector<std::pair<OpOperand *, Value>> leafUses;
  llvm::MapVector<OpOperand *, int64_t> regenerated;
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

/// The producer of `seed`'s operand chunked along `dim` (none when it has
/// no compute to split).
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

/// The chunk count `chunks=0` asks for, for an all_to_all that sends
/// `blockBytes` to each member of its group: about 64 KiB of each block per
/// chunk, at least 2 and at most 8. In virtual time (bench/moe_overlap.py,
/// 8 devices, 20 us links at comm = compute) 4 chunks of 64 KiB blocks
/// beat 2 and 8 (1.65x over whole all_to_alls, against 1.49x and 1.49x),
/// and 8 chunks of 128 KiB beat 4 (1.79x, 1.66x): below that size each
/// chunk's latency and smaller matmuls cost more than the overlap gains,
/// above it the unhidden first and last chunks shrink.
int64_t automaticChunks(int64_t blockBytes) {
  constexpr int64_t kChunkBytes = 64 << 10, kMaxChunks = 8;
  return std::clamp<int64_t>(blockBytes / kChunkBytes, 2, kMaxChunks);
}

/// Chunks whose count divides `size`: the largest at most `chunks`.
int64_t chunkCount(int64_t size, int64_t chunks) {
  for (int64_t k = std::min(chunks, size); k >= 2; --k)
    if (size % k == 0)
      return k;
  return 1;
}

/// Rebuilds a regenerated init (isRegenerable) with `dim` `chunks` times
/// smaller.
Value regenerate(OpBuilder &b, Value init, int64_t dim, int64_t chunks) {
  Location loc = init.getLoc();
  Operation *def = init.getDefiningOp();
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return linalg::FillOp::create(
               b, loc, fill.getInputs()[0],
               regenerate(b, fill.getOutputs()[0], dim, chunks))
        .getResult(0);
  if (auto pvary = dyn_cast<PvaryOp>(def)) {
    Value operand = regenerate(b, pvary.getOperand(), dim, chunks);
    Operation *clone = b.clone(*pvary);
    clone->setOperand(0, operand);
    clone->getResult(0).setType(shrink(init.getType(), dim, chunks));
    return clone->getResult(0);
  }
  RankedTensorType type = shrink(init.getType(), dim, chunks);
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 type.getEncoding());
}

/// The offsets, sizes and strides of chunk `j` along `dim` of `shape`.
struct ChunkBox {
  DenseI64ArrayAttr offsets, sizes, strides;
};
ChunkBox chunkBox(OpBuilder &b, ArrayRef<int64_t> shape, int64_t dim, int64_t j,
                  int64_t chunks) {
  SmallVector<int64_t> offsets(shape.size(), 0), sizes(shape),
      strides(shape.size(), 1);
  sizes[dim] /= chunks;
  offsets[dim] = j * sizes[dim];
  return {b.getDenseI64ArrayAttr(offsets), b.getDenseI64ArrayAttr(sizes),
          b.getDenseI64ArrayAttr(strides)};
}

/// Extracts chunk `j` of `value` along `dim`.
Value sliceChunk(OpBuilder &b, Location loc, Value value, int64_t dim,
                 int64_t j, int64_t chunks) {
  auto type = cast<RankedTensorType>(value.getType());
  ChunkBox box = chunkBox(b, type.getShape(), dim, j, chunks);
  return tensor::ExtractSliceOp::create(
      b, loc, shrink(type, dim, chunks), value, ValueRange{}, ValueRange{},
      ValueRange{}, box.offsets, box.sizes, box.strides);
}

/// `type` with the chunked dimension of `track` (composite) expanded into
/// its factors, and the reassociation back to `type`.
std::pair<RankedTensorType, SmallVector<ReassociationIndices>>
expandFactors(RankedTensorType type, const Track &track) {
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    ReassociationIndices group;
    for (int64_t f : d == track.dim ? ArrayRef<int64_t>(track.factors)
                                    : ArrayRef<int64_t>(type.getShape()[d])) {
      group.push_back(shape.size());
      shape.push_back(f);
    }
    groups.push_back(group);
  }
  return {type.clone(shape), groups};
}

/// Puts `parts` (the chunks of a value of `type` chunked as `track`) back
/// together.
Value reassemble(OpBuilder &b, Location loc, RankedTensorType type,
                 const Track &track, ArrayRef<Value> parts) {
  int64_t chunks = parts.size();
  // Composite: expand the chunked dimension into its factors, insert each
  // chunk along the chunked factor, and collapse again.
  RankedTensorType fullType = type;
  SmallVector<ReassociationIndices> groups;
  int64_t dim = track.dim;
  if (track.isComposite()) {
    std::tie(fullType, groups) = expandFactors(type, track);
    dim = track.dim + track.pos;
  }
  Value acc = tensor::EmptyOp::create(
      b, loc, fullType.getShape(), type.getElementType(), type.getEncoding());
  for (auto [j, chunk] : llvm::enumerate(parts)) {
    Value part = chunk;
    if (track.isComposite())
      part = tensor::ExpandShapeOp::create(
          b, loc, shrink(fullType, dim, chunks), part, groups);
    ChunkBox box = chunkBox(b, fullType.getShape(), dim, j, chunks);
    acc = tensor::InsertSliceOp::create(b, loc, part, acc, ValueRange{},
                                        ValueRange{}, ValueRange{}, box.offsets,
                                        box.sizes, box.strides);
  }
  if (track.isComposite())
    acc = tensor::CollapseShapeOp::create(b, loc, type, acc, groups);
  return acc;
}

/// Clones `op` of the region for one chunk, with its results' chunk
/// dimensions shrunk and its rebuilt inits.
Operation *
cloneForChunk(OpBuilder &b, Operation *op, IRMapping &mapping,
              const llvm::DenseMap<Value, Track> &tracks,
              const llvm::MapVector<OpOperand *, int64_t> &regenerated,
              int64_t k) {
  // The inits rebuilt for this chunk come first.
  SmallVector<std::pair<unsigned, Value>> inits;
  for (auto [i, operand] : llvm::enumerate(op->getOpOperands())) {
    auto it = regenerated.find(&operand);
    if (it != regenerated.end())
      inits.push_back({i, regenerate(b, operand.get(), it->second, k)});
  }
  Operation *clone = b.clone(*op, mapping);
  for (auto [i, init] : inits)
    clone->setOperand(i, init);
  for (OpResult result : clone->getResults()) {
    Value original = op->getResult(result.getResultNumber());
    result.setType(shrink(original.getType(), tracks.lookup(original).dim, k));
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(clone))
    expand.setStaticOutputShape(expand.getResultType().getShape());
  return clone;
}

/// Chunk `j` of leaf `value`, chunked as `track`: a slice, of the
/// expanded value when the chunk is a factor of a collapsed dimension.
Value sliceLeaf(OpBuilder &b, Location loc, Value value, const Track &track,
                int64_t j, int64_t chunks) {
  if (!track.isComposite())
    return sliceChunk(b, loc, value, track.dim, j, chunks);
  auto type = cast<RankedTensorType>(value.getType());
  auto [expandedType, groups] = expandFactors(type, track);
  Value expanded =
      tensor::ExpandShapeOp::create(b, loc, expandedType, value, groups);
  Value slice = sliceChunk(b, loc, expanded, track.dim + track.pos, j, chunks);
  return tensor::CollapseShapeOp::create(
      b, loc, shrink(type, track.dim, chunks), slice, groups);
}

void rewrite(Region &r, Producer *p) {
  int64_t k = r.chunks;
  AllToAllOp seed = r.seed;
  Location loc = seed.getLoc();
  // The dispatch chunks, where the seed was (so that their starts can go
  // as early as the seed's), each computed by its own copy of the
  // producer when there is one.
  OpBuilder b(seed);
  int64_t dim = r.tracks.lookup(seed.getResult()).dim;
  SmallVector<IRMapping> mappings(k);
  for (int64_t j = 0; j < k; ++j) {
    Value slice;
    if (p) {
      // Leaves are sliced where they are read along the chunk only.
      llvm::DenseMap<Value, Value> sliced;
      for (Value leaf : p->leaves)
        sliced[leaf] =
            sliceLeaf(b, leaf.getLoc(), leaf, p->tracks.lookup(leaf), j, k);
      IRMapping produced;
      for (Operation *op : p->ops) {
        Operation *clone =
            cloneForChunk(b, op, produced, p->tracks, p->regenerated, k);
        for (auto [use, leaf] : p->leafUses)
          if (use->getOwner() == op)
            clone->setOperand(use->getOperandNumber(), sliced.lookup(leaf));
      }
      slice = produced.lookup(seed.getOperand());
    } else {
      slice = sliceChunk(b, loc, seed.getOperand(), dim, j, k);
    }
    Operation *clone = b.clone(*seed);
    clone->setOperand(0, slice);
    clone->getResult(0).setType(shrink(seed.getType(), dim, k));
    mappings[j].map(seed.getResult(), clone->getResult(0));
  }
  // The rest of every chunk, chunk after chunk, before the first op after
  // the region that uses it.
  if (r.end)
    b.setInsertionPoint(r.end);
  else if (seed->getBlock()->mightHaveTerminator())
    b.setInsertionPoint(seed->getBlock()->getTerminator());
  else
    b.setInsertionPointToEnd(seed->getBlock());
  // Ops after a further all_to_all (the combine) of every chunk come after
  // the ops before it of all chunks, so that its wait can come late: phase
  // p holds the ops that p all_to_alls after the seed's feed.
  llvm::DenseMap<Value, int64_t> valuePhase;
  llvm::DenseMap<Operation *, int64_t> opPhase;
  int64_t phases = 1;
  auto assignPhase = [&](Operation *op) {
    int64_t phase = 0;
    for (Value operand : op->getOperands())
      phase = std::max(phase, valuePhase.lookup(operand));
    opPhase[op] = phase;
    phases = std::max(phases, phase + 1);
    return phase;
  };
  for (Operation *op : ArrayRef(r.ops).drop_front()) {
    int64_t phase = assignPhase(op);
    for (Value result : op->getResults())
      valuePhase[result] = phase + (isa<AllToAllOp>(op) ? 1 : 0);
  }
  // A sink's results are whole values that no region op reads.
  for (Sink &sink : r.sinks)
    assignPhase(sink.op);
  // Each sink's results so far (after the chunks cloned up to now).
  llvm::DenseMap<Operation *, SmallVector<Value>> partial;
  for (int64_t phase = 0; phase < phases; ++phase) {
    for (int64_t j = 0; j < k; ++j) {
      IRMapping &mapping = mappings[j];
      for (Operation *op : ArrayRef(r.ops).drop_front()) {
        if (opPhase.lookup(op) == phase)
          cloneForChunk(b, op, mapping, r.tracks, r.regenerated, k);
      }
      for (Sink &sink : r.sinks) {
        if (opPhase.lookup(sink.op) != phase)
          continue;
        SmallVector<std::pair<unsigned, Value>> slices;
        for (auto [use, track] : sink.sliced)
          slices.push_back(
              {use->getOperandNumber(),
               sliceLeaf(b, use->get().getLoc(), use->get(), track, j, k)});
        Operation *clone = b.clone(*sink.op, mapping);
        for (auto [i, slice] : slices)
          clone->setOperand(i, slice);
        SmallVector<Value> &acc = partial[sink.op];
        if (!acc.empty())
          for (auto [init, value] : llvm::zip(
                   cast<linalg::LinalgOp>(clone).getDpsInitsMutable(), acc))
            init.set(value);
        acc.assign(clone->result_begin(), clone->result_end());
      }
    }
  }
  for (Sink &sink : r.sinks) {
    for (auto [result, value] :
         llvm::zip(sink.op->getResults(), partial[sink.op]))
      result.replaceAllUsesWith(value);
    sink.op->erase();
  }
  for (Value exit : r.exits) {
    SmallVector<Value> parts;
    for (IRMapping &mapping : mappings)
      parts.push_back(mapping.lookup(exit));
    Value whole =
        reassemble(b, exit.getLoc(), cast<RankedTensorType>(exit.getType()),
                   r.tracks.lookup(exit), parts);
    exit.replaceAllUsesWith(whole);
  }
  // The inits the chunks rebuilt, to drop once nothing reads them.
  llvm::SetVector<Operation *> inits;
  auto collect = [&](const llvm::MapVector<OpOperand *, int64_t> &rebuilt) {
    for (auto &entry : rebuilt)
      for (Value v = entry.first->get(); Operation *def = v.getDefiningOp();) {
        inits.insert(def);
        if (auto fill = dyn_cast<linalg::FillOp>(def))
          v = fill.getOutputs()[0];
        else if (auto pvary = dyn_cast<PvaryOp>(def))
          v = pvary.getOperand();
        else
          break;
      }
  };
  collect(r.regenerated);
  if (p)
    collect(p->regenerated);
  for (Operation *op : llvm::reverse(r.ops))
    op->erase();
  if (p)
    for (Operation *op : llvm::reverse(p->ops))
      op->erase();
  // Erase what nothing reads any more, until nothing changes (a chain's
  // ops may be read by another chain's, in any order).
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : inits.takeVector()) {
      if (op->use_empty()) {
        op->erase();
        changed = true;
      } else {
        inits.insert(op);
      }
    }
  }
}

struct ChunkAllToAllPass
    : spmd::impl::SpmdChunkAllToAllBase<ChunkAllToAllPass> {
  using SpmdChunkAllToAllBase::SpmdChunkAllToAllBase;

  void runOnOperation() override {
    if ((chunks != 0 && chunks < 2) || chunks > 64) {
      getOperation()->emitError("spmd-chunk-all-to-all: chunks must be 0 "
                                "(chosen per all_to_all) or 2 to 64, not ")
          << static_cast<int64_t>(chunks);
      return signalPassFailure();
    }
    SmallVector<AllToAllOp> seeds;
    getOperation()->walk([&](AllToAllOp op) {
      if (getManualContext(op))
        seeds.push_back(op);
    });
    llvm::DenseSet<Operation *> erased;
    for (AllToAllOp seed : seeds) {
      if (erased.contains(seed))
        continue;
      auto type = seed.getOperand().getType();
      if (!chunkableTensor(type) || !chunkableTensor(seed.getType()))
        continue;
      // Counted by the block sent to each member, not the whole operand
      // (a 2 MiB operand on 8 devices sends 256 KiB blocks, which take 4
      // chunks): the transfers and their latencies scale with the block.
      int64_t block = bytesOf(type) / std::max<int64_t>(1, seed.getGroupSize());
      if (block < thresholdBytes)
        continue;
      int64_t wanted = chunks ? chunks : automaticChunks(block);
      // The dimension whose region has the most compute (the first of
      // equals).
      std::optional<Region> best;
      for (int64_t d = 0; d < seed.getType().getRank(); ++d) {
        if (d == static_cast<int64_t>(seed.getSplitDim()) ||
            d == static_cast<int64_t>(seed.getConcatDim()))
          continue;
        int64_t k = chunkCount(seed.getType().getDimSize(d), wanted);
        if (k < 2)
          continue;
        std::optional<Region> region = analyze(seed, d, k);
        if (region && (!best || region->computeOps() > best->computeOps()))
          best = std::move(region);
      }
      if (!best)
        continue;
      // The compute that produces the seed's operand is chunked too when
      // it can be, so that the first chunk leaves before the rest is
      // computed.
      std::optional<Producer> producer = analyzeProducer(
          seed, best->tracks.lookup(seed.getResult()).dim, best->chunks);
      // A later seed may be among the ops the rewrite erases (a combine).
      for (Operation *op : best->ops)
        erased.insert(op);
      if (remarks) {
        InFlightDiagnostic remark = seed.emitRemark();
        remark << "split into " << best->chunks << " chunks along dimension "
               << best->tracks.lookup(seed.getResult()).dim << " ("
               << block / best->chunks << " bytes to each device per chunk)";
        int64_t later = llvm::count_if(best->ops, [&](Operation *op) {
          return op != seed && isa<AllToAllOp>(op);
        });
        if (later)
          remark << " with the compute after it, down through " << later
                 << " later all_to_all(s)";
      }
      rewrite(*best, producer ? &*producer : nullptr);
    }
  }
};

} // namespace
