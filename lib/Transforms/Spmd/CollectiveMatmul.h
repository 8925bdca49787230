//===- CollectiveMatmul.h - spmd-collective-matmul's pieces -----*- C++ -*-===//
//
// Private to spmd-collective-matmul (the ring conventions are in
// CollectiveMatmul.cpp's file comment). CollectiveMatmul.cpp matches, holds
// the rewrite patterns and the pass that applies them; the Emitter builds
// the loop of one match, its shared steps in CollectiveMatmulEmitter.cpp,
// the all_gather side in CollectiveMatmulGather.cpp and the psum_scatter
// side in CollectiveMatmulScatter.cpp; CollectiveMatmulMicrobatch.cpp
// splits an FFN chain into row blocks and interleaves their steps.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_TRANSFORMS_SPMD_COLLECTIVEMATMUL_H
#define TRELLIS_LIB_TRANSFORMS_SPMD_COLLECTIVEMATMUL_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>

namespace mlir::spmd {

/// Adds the rewrites of spmd-collective-matmul, as configured by `options`:
/// all_gather -> matmul and matmul -> psum_scatter into rings of chunk
/// matmuls (bidirectional, unrolled as the options say) and, with
/// `microbatches` > 1, the split of an FFN chain into interleaved row
/// blocks. They are meant for walkAndApplyPatterns: each rewrite erases
/// only its root and ops before it, and none folds (CollectiveMatmul.cpp).
void populateCollectiveMatmulPatterns(
    RewritePatternSet &patterns, const SpmdCollectiveMatmulOptions &options);

} // namespace mlir::spmd

namespace mlir::spmd::collective_matmul {

/// What a match communicates and how the matmul uses it.
enum class Pattern {
  GatherLhsRows,        ///< all_gather of the lhs along dim 0
  GatherLhsContracting, ///< all_gather of the lhs along dim 1
  GatherRhsCols,        ///< all_gather of the rhs along dim 1
  GatherRhsContracting, ///< all_gather of the rhs along dim 0
  ScatterRows,          ///< psum_scatter of the result along dim 0
  ScatterCols,          ///< psum_scatter of the result along dim 1
};

struct Match {
  Pattern pattern;
  linalg::MatmulOp matmul;
  Operation *collective; ///< the all_gather or the psum_scatter
  ArrayAttr axes;
  int64_t groupSize = 0;
};

//===----------------------------------------------------------------------===//
// Matching and rewriting (CollectiveMatmul.cpp)
//===----------------------------------------------------------------------===//

bool isStatic2D(Type type);

/// A plain 2-D matmul on static shapes with one element type throughout.
bool isPlainMatmul(linalg::MatmulOp matmul);

/// The match rooted at `matmul`, if any (size threshold aside).
std::optional<Match> matchAt(linalg::MatmulOp matmul);

/// Set on the rewriter while a chain is microbatched: records, for every op
/// built (unless suspended), the key and block it was built for, forgets
/// erased ops (a later op at the same address must not inherit a tag), and
/// passes every notification on to the listener it wraps.
struct StepTagger : RewriterBase::ForwardingListener {
  struct Tag {
    int64_t key, block;
  };
  explicit StepTagger(OpBuilder::Listener *next) : ForwardingListener(next) {}
  llvm::DenseMap<Operation *, Tag> tags;
  Tag current{0, 0};
  bool suspended = false;
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    if (!suspended)
      tags[op] = current;
    ForwardingListener::notifyOperationInserted(op, previous);
  }
  void notifyOperationErased(Operation *op) override {
    tags.erase(op);
    ForwardingListener::notifyOperationErased(op);
  }
};

/// Replaces the match's collective and matmul by the emitted loop, built
/// with `rewriter` at the matmul. `tagger`, when given, is the rewriter's
/// listener.
void rewriteMatch(RewriterBase &rewriter, Match &match, bool bidirectional,
                  bool unrollSteps, StepTagger *tagger = nullptr,
                  std::function<void(int64_t)> onStep = nullptr);

//===----------------------------------------------------------------------===//
// Building the loops (CollectiveMatmulEmitter.cpp, ...Gather.cpp,
// ...Scatter.cpp)
//===----------------------------------------------------------------------===//

RankedTensorType withShape(Type like, ArrayRef<int64_t> shape);

/// `source[off : off + size]` along `dim` of a 2-D tensor.
Value sliceAlong(OpBuilder &b, Location loc, Value source, int64_t dim,
                 OpFoldResult off, int64_t size);

/// A 2-D `piece` inserted into `into` at `off` along `dim`.
Value insertAlong(OpBuilder &b, Location loc, Value piece, Value into,
                  int64_t dim, OpFoldResult off);

Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init);

/// Emits the loop of one match with a rewriter. All values are built at
/// the matmul.
class Emitter {
public:
  /// `tagger`, when given, is `rewriter`'s listener; it does not tag index
  /// constants.
  Emitter(RewriterBase &rewriter, Match match, bool bidirectional, bool unroll,
          StepTagger *tagger = nullptr)
      : m(match), b(rewriter), loc(match.matmul.getLoc()),
        bidirectional(bidirectional), unroll(unroll), tagger(tagger) {}

  /// Unrolled only: called with a key whenever the emitted code moves on to
  /// another step, before the ops of that step are built. Keys count half
  /// steps: 2 * step for a step's transfer and matmul, 2 * step + 1 for the
  /// add of a received partial sum; the steps of a psum_scatter follow those
  /// of an all_gather (its step 0 is the all_gather's last, n - 1).
  std::function<void(int64_t)> onStep;

  /// Builds the replacement and returns the value that replaces the
  /// collective's result (all_gather: the matmul's result).
  Value emit();

private:
  Match m;
  RewriterBase &b;
  Location loc;
  bool bidirectional, unroll;
  StepTagger *tagger;
  int64_t n = 0;
  Value axisSize, axisIndex, c0, c1;
  Operation *lastConstant = nullptr;
  llvm::DenseMap<int64_t, Value> constants;
  Value lhs, rhs, init, fillValue;
  RankedTensorType resultType;
  int64_t currentStep = 0;

  /// Moves on to `step` (`half`: the second half of it), for `onStep`.
  void mark(int64_t step, int64_t half = 0);

  /// An index constant, created once before everything else the emitter
  /// builds (so loops use constants defined outside them).
  Value index(int64_t v);

  /// (idx + i + k) mod n, or (idx + n - i - k) mod n going right.
  Value owner(Value i, int64_t k, bool left);

  /// owner * chunk (+ extra).
  Value offset(Value owner, int64_t chunk, int64_t extra = 0);

  Value slice(Value source, int64_t dim, OpFoldResult off, int64_t size);

  /// The block of a 2-D `source` at (rowOff, colOff) of the given sizes.
  Value block(Value source, OpFoldResult rowOff, int64_t rows,
              OpFoldResult colOff, int64_t cols);

  /// The matmul's init restricted to a block: a fill of the same value, or
  /// a slice of the init.
  Value initBlock2D(OpFoldResult rowOff, int64_t rows, OpFoldResult colOff,
                    int64_t cols);

  /// `top` over `bottom`, a tensor of `type`.
  Value stackRows(Value top, Value bottom, RankedTensorType type);

  Value insert(Value piece, Value into, int64_t dim, OpFoldResult off);

  /// The matmul's init restricted to a block of the result: a fill of the
  /// same value when the init is a fill, otherwise a slice of it. `off` is
  /// only evaluated (built) for the slice.
  Value initBlock(int64_t dim, int64_t size,
                  llvm::function_ref<OpFoldResult()> off);

  Value matmul(Value a, Value bb, Value c);

  Value ppermute(Value v, bool left);

  Value add(Value x, Value y);

  /// Runs `body(i, carried) -> next carried` for i in [lo, hi): as an
  /// scf.for, or unrolled.
  SmallVector<Value>
  loop(int64_t lo, int64_t hi, Value loVal, Value hiVal,
       SmallVector<Value> carried,
       llvm::function_ref<SmallVector<Value>(Value, ValueRange)> body);

  // all_gather -> matmul (CollectiveMatmulGather.cpp).

  Value emitGather();

  /// The bidirectional ring of emitGather: `chunk` split into two halves
  /// of rows, running to `last`.
  Value emitGatherHalves(Value chunk, Value last);

  /// Rows of the gathered operand's per-device chunk.
  int64_t chunkRows();

  /// The gathered operand's per-device size along the gathered dimension.
  int64_t chunkSize();

  /// One piece of a chunk (the whole chunk or a half): multiply it, call
  /// `hook` (which sends pieces on), and place or accumulate the product.
  Value computePiece(Value acc, Value piece, Value i, Value own, int64_t extra,
                     int64_t size, llvm::function_ref<void()> hook);

  /// A contracting chunk piece: the matching rows (columns) of the other
  /// operand, a matmul accumulating into `acc`, then `hook`.
  Value computeContracting(Value acc, Value piece, Value own, int64_t extra,
                           int64_t size, llvm::function_ref<void()> hook);

  /// A non-contracting chunk piece: init block, matmul, `hook` (the
  /// send), then the placement. `own` is the owner when already computed
  /// (null: computed after the hook, the seed's order; unidirectional
  /// only).
  Value computeNonContracting(Value acc, Value piece, Value i, Value own,
                              int64_t extra, int64_t size,
                              llvm::function_ref<void()> hook);

  // matmul -> psum_scatter (CollectiveMatmulScatter.cpp).

  Value emitScatter();
};

//===----------------------------------------------------------------------===//
// Microbatching (CollectiveMatmulMicrobatch.cpp)
//===----------------------------------------------------------------------===//

/// all_gather (lhs, contracting dimension) -> matmul -> elementwise
/// generics -> matmul (as lhs) -> psum_scatter (columns), in one block and
/// one group, each value used once. Every op maps rows to the same rows.
struct Chain {
  AllGatherOp gather;
  linalg::MatmulOp up;
  SmallVector<linalg::GenericOp> middle; ///< in program order
  linalg::MatmulOp down;
  PsumScatterOp scatter;
};

std::optional<Chain> matchChain(PsumScatterOp scatter);

/// Splits `chain` into `microbatches` row blocks, rewrites each block's
/// two matmuls unrolled and interleaves the blocks' steps, all with
/// `rewriter` (its listener sees every change).
void microbatch(RewriterBase &rewriter, Chain &chain, int64_t microbatches,
                bool bidirectional);

} // namespace mlir::spmd::collective_matmul

#endif // TRELLIS_LIB_TRANSFORMS_SPMD_COLLECTIVEMATMUL_H
