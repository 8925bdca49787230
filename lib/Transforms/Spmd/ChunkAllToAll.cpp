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

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCHUNKALLTOALL
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

namespace mlir::spmd::chunking {
namespace {

/// The bytes of a static tensor, saturating at INT64_MAX (a huge tensor
/// is above any threshold).
int64_t bytesOf(RankedTensorType type) {
  uint64_t bytes = trellis::elementBytes(type.getElementType());
  for (int64_t size : type.getShape())
    bytes = llvm::SaturatingMultiply<uint64_t>(bytes, size);
  return static_cast<int64_t>(
      std::min<uint64_t>(bytes, std::numeric_limits<int64_t>::max()));
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
} // namespace mlir::spmd::chunking
