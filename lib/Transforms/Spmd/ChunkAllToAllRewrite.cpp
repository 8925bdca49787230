//===- ChunkAllToAllRewrite.cpp - One copy of a region per chunk ----------===//
//
// spmd-chunk-all-to-all's rewrite: the chunks of the all_to_all (each
// computed by its own copy of the producer), then the region's ops cloned
// per chunk phase by phase, sinks accumulating chunk after chunk, and the
// values used after the region put back together.
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
namespace {

RankedTensorType shrink(Type type, int64_t dim, int64_t chunks) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[dim] /= chunks;
  return tensor.clone(shape);
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

} // namespace

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

} // namespace mlir::spmd::chunking
