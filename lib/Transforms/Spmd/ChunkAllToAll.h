//===- ChunkAllToAll.h - spmd-chunk-all-to-all's regions -------*- C++ -*-===//
//
// Private to spmd-chunk-all-to-all (ChunkAllToAll.cpp, which says what the
// pass does): the region an all_to_all feeds and the producer of its
// operand, as ChunkAllToAllAnalysis.cpp finds them, and the rewrite that
// clones both once per chunk (ChunkAllToAllRewrite.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_TRANSFORMS_SPMD_CHUNKALLTOALL_H
#define TRELLIS_LIB_TRANSFORMS_SPMD_CHUNKALLTOALL_H

#include "dialects/spmd/IR/SpmdOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::spmd::chunking {

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

/// Whether the pass can slice and rebuild values of `type`: static, with
/// no dimension of size 0 (a slice at offset 0 of one does not verify),
/// and no encoding other than device variance (a sharding in the type
/// depends on the shape, which chunks change).
bool chunkableTensor(RankedTensorType type);

/// The ops of `ops` that compute (linalg ops other than fills).
int64_t countCompute(ArrayRef<Operation *> ops);

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

/// The region of `seed` chunked along `dim` of its result.
std::optional<Region> analyze(AllToAllOp seed, int64_t dim, int64_t chunks);

/// The producer of `seed`'s operand chunked along `dim` (none when it has
/// no compute to split).
std::optional<Producer> analyzeProducer(AllToAllOp seed, int64_t dim,
                                        int64_t chunks);

/// Replaces the region (and the producer, when there is one) by one copy
/// per chunk.
void rewrite(Region &r, Producer *p);

} // namespace mlir::spmd::chunking

#endif // TRELLIS_LIB_TRANSFORMS_SPMD_CHUNKALLTOALL_H
