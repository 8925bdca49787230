//===- CollectiveMatmul.cpp - all_gather/psum_scatter into ppermute loops -===//
//
// The collective matmul of seeds 000 and 003: instead of gathering a whole
// operand before a matmul (or reduce-scattering its whole result after it),
// loop over the devices of the group, multiplying one chunk while the next
// travels to the ring neighbour by ppermute.
//
// Conventions used throughout (n devices in the group, `idx` this device's
// index in it, `s` the per-device chunk along the communicated dimension):
//
//  * all_gather, unidirectional: the chunk circulates to the left (device j
//    sends to j - 1), so at step i a device holds the chunk of device
//    (idx + i) mod n (the seed's `update_index`).
//  * all_gather, bidirectional: the first half of every chunk circulates to
//    the left as above, the second half to the right, so at step i the
//    second half comes from device (idx - i) mod n.
//  * psum_scatter, unidirectional: an accumulator circulates to the right
//    (device j sends to j + 1); at step i it holds partial sums of output
//    chunk (idx - i - 1) mod n, to which this device adds its own partial
//    product. After n - 1 transfers device idx holds chunk idx summed over
//    the group. It goes the other way round from the all_gather ring so
//    that an all_gather and a psum_scatter in flight at the same time (the
//    row blocks of a microbatched chain) use opposite directions of each
//    link instead of queueing on the same one.
//  * psum_scatter, bidirectional: the first half of every output chunk
//    travels left, holding chunk (idx + i + 1) mod n at step i; the second
//    half travels right as in the unidirectional ring.
//
// The pieces live beside this file, one job each (CollectiveMatmul.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Transforms/Spmd/CollectiveMatmul.h"

#include "dialects/spmd/IR/ManualContext.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCOLLECTIVEMATMUL
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;
using namespace mlir::spmd::collective_matmul;

namespace {

int64_t byteSize(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.getNumElements() *
         trellis::elementBytes(tensor.getElementType());
}

} // namespace

bool collective_matmul::isStatic2D(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 2 && tensor.hasStaticShape();
}

bool collective_matmul::isPlainMatmul(linalg::MatmulOp matmul) {
  if (matmul.hasUserDefinedMaps() || matmul.getInputs().size() != 2 ||
      matmul.getOutputs().size() != 1 || matmul->getNumResults() != 1)
    return false;
  Type lhs = matmul.getInputs()[0].getType();
  Type rhs = matmul.getInputs()[1].getType();
  Type out = matmul.getOutputs()[0].getType();
  if (!isStatic2D(lhs) || !isStatic2D(rhs) || !isStatic2D(out))
    return false;
  Type element = getElementTypeOrSelf(out);
  if (getElementTypeOrSelf(lhs) != element ||
      getElementTypeOrSelf(rhs) != element)
    return false;
  return isa<FloatType>(element) ||
         (isa<IntegerType>(element) && element.getIntOrFloatBitWidth() > 1);
}

std::optional<Match> collective_matmul::matchAt(linalg::MatmulOp matmul) {
  if (!isPlainMatmul(matmul) || !getManualContext(matmul))
    return std::nullopt;
  // all_gather -> matmul: the gathered value feeds only this matmul.
  for (int operand = 0; operand < 2; ++operand) {
    auto gather = matmul.getInputs()[operand].getDefiningOp<AllGatherOp>();
    if (!gather || !gather.getTiled() || !gather->hasOneUse() ||
        gather->getBlock() != matmul->getBlock() ||
        !isStatic2D(gather.getOperand().getType()))
      continue;
    int64_t n = gather.getGroupSize();
    if (n <= 1)
      continue;
    int64_t dim = gather.getDim();
    Pattern pattern = operand == 0 ? (dim == 0 ? Pattern::GatherLhsRows
                                               : Pattern::GatherLhsContracting)
                                   : (dim == 1 ? Pattern::GatherRhsCols
                                               : Pattern::GatherRhsContracting);
    return Match{pattern, matmul, gather, gather.getAxes(), n};
  }
  // matmul -> psum_scatter: the product only feeds the scatter.
  Value result = matmul->getResult(0);
  if (!result.hasOneUse())
    return std::nullopt;
  auto scatter = dyn_cast<PsumScatterOp>(*result.getUsers().begin());
  if (!scatter || !scatter.getTiled() ||
      scatter->getBlock() != matmul->getBlock() ||
      !isStatic2D(scatter.getType()))
    return std::nullopt;
  int64_t n = scatter.getGroupSize();
  if (n <= 1)
    return std::nullopt;
  return Match{scatter.getDim() == 0 ? Pattern::ScatterRows
                                     : Pattern::ScatterCols,
               matmul, scatter, scatter.getAxes(), n};
}

void collective_matmul::rewriteMatch(RewriterBase &rewriter, Match &match,
                                     bool bidirectional, bool unrollSteps,
                                     StepTagger *tagger,
                                     std::function<void(int64_t)> onStep) {
  Emitter emitter(rewriter, match, bidirectional, unrollSteps, tagger);
  emitter.onStep = std::move(onStep);
  Value replacement = emitter.emit();
  if (isa<AllGatherOp>(match.collective)) {
    rewriter.replaceOp(match.matmul, replacement);
    rewriter.eraseOp(match.collective);
  } else {
    rewriter.replaceOp(match.collective, replacement);
    rewriter.eraseOp(match.matmul);
  }
}

//===----------------------------------------------------------------------===//
// The patterns
//
// walkAndApplyPatterns applies them, not the greedy driver: it visits each
// op once, in order, never the ops a rewrite built, and neither folds nor
// erases dead ops, which is what the pass did by hand before, so its output
// is unchanged byte for byte. A greedy driver, even strict and with folding
// and region simplification off, erases trivially dead ops of the input and
// looks again at ops a rewrite touched. The walk steps to the next op before
// it rewrites one, so a rewrite may erase its root and ops before it, never
// an op after it (MLIR's expensive pattern API checks, off in release
// builds, would only allow the root). Each rewrite is therefore rooted at
// the later of its ops: all_gather -> matmul at the matmul; matmul ->
// psum_scatter at the psum_scatter, which also rewrites all_gather ->
// matmul when the matmul feeds a psum_scatter (the match takes the
// all_gather first; the psum_scatter then stays, and the loop's last chunk
// matmul, built later, is never matched again); a microbatched chain at its
// psum_scatter. The matmul pattern leaves to those what they rewrite.
//===----------------------------------------------------------------------===//

namespace {

/// The chain ending in `scatter` that `options` split into row blocks.
std::optional<Chain> chainToSplit(PsumScatterOp scatter,
                                  const SpmdCollectiveMatmulOptions &options) {
  if (options.microbatches <= 1)
    return std::nullopt;
  std::optional<Chain> chain = matchChain(scatter);
  int64_t rows = cast<RankedTensorType>(scatter.getType()).getDimSize(0);
  if (!chain || rows < options.microbatches || rows % options.microbatches != 0)
    return std::nullopt;
  if (!options.force &&
      (byteSize(chain->gather.getType()) < options.thresholdBytes ||
       byteSize(chain->down->getResultTypes()[0]) < options.thresholdBytes))
    return std::nullopt;
  return chain;
}

/// Whether `matmul` is the first matmul of a chain that `options` split.
bool headsChainToSplit(linalg::MatmulOp matmul,
                       const SpmdCollectiveMatmulOptions &options) {
  if (options.microbatches <= 1)
    return false;
  // Follow the single uses down to the psum_scatter the chain ends in.
  Value value = matmul->getResult(0);
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (auto scatter = dyn_cast<PsumScatterOp>(user)) {
      std::optional<Chain> chain = chainToSplit(scatter, options);
      return chain && chain->up == matmul;
    }
    if (!isa<linalg::GenericOp, linalg::MatmulOp>(user) ||
        user->getNumResults() != 1)
      return false;
    value = user->getResult(0);
  }
  return false;
}

/// Rewrites the match at `matmul` if it reaches the size threshold.
LogicalResult rewriteAt(PatternRewriter &rewriter, Operation *root,
                        linalg::MatmulOp matmul,
                        const SpmdCollectiveMatmulOptions &options) {
  std::optional<Match> match = matchAt(matmul);
  if (!match)
    return rewriter.notifyMatchFailure(
        root, "no plain matmul in a manual region between a single-use tiled "
              "all_gather and its operand or a tiled psum_scatter");
  bool gathers = isa<AllGatherOp>(match->collective);
  int64_t bytes = gathers ? byteSize(match->collective->getResultTypes()[0])
                          : byteSize(matmul->getResultTypes()[0]);
  if (!options.force && bytes < options.thresholdBytes)
    return rewriter.notifyMatchFailure(root,
                                       "fewer bytes than threshold-bytes");
  rewriteMatch(rewriter, *match, options.bidirectional, options.unroll);
  return success();
}

/// all_gather -> matmul into a ring of chunk matmuls, rooted at the matmul.
/// A matmul whose only use is a psum_scatter is rewritten from there.
struct GatherMatmulPattern : OpRewritePattern<linalg::MatmulOp> {
  GatherMatmulPattern(MLIRContext *context,
                      const SpmdCollectiveMatmulOptions &options)
      : OpRewritePattern(context), options(options) {}

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    // A matmul on buffers has no result; manual regions hold tensors.
    if (!matmul.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(matmul, "not on tensors");
    Value result = matmul->getResult(0);
    if (result.hasOneUse() && isa<PsumScatterOp>(*result.getUsers().begin()))
      return rewriter.notifyMatchFailure(
          matmul, "feeds a psum_scatter: rewritten from the psum_scatter");
    if (headsChainToSplit(matmul, options))
      return rewriter.notifyMatchFailure(
          matmul, "heads a chain split into microbatches");
    return rewriteAt(rewriter, matmul, matmul, options);
  }

  SpmdCollectiveMatmulOptions options;
};

/// matmul -> psum_scatter into a ring of partial sums, rooted at the
/// psum_scatter; when the matmul's operand is gathered (the match takes
/// the all_gather first), all_gather -> matmul as above instead.
struct MatmulScatterPattern : OpRewritePattern<PsumScatterOp> {
  MatmulScatterPattern(MLIRContext *context,
                       const SpmdCollectiveMatmulOptions &options)
      : OpRewritePattern(context), options(options) {}

  LogicalResult matchAndRewrite(PsumScatterOp scatter,
                                PatternRewriter &rewriter) const override {
    auto matmul = scatter.getOperand().getDefiningOp<linalg::MatmulOp>();
    if (!matmul || !matmul->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(
          scatter, "operand is not a matmul used only here");
    return rewriteAt(rewriter, scatter, matmul, options);
  }

  SpmdCollectiveMatmulOptions options;
};

/// all_gather -> matmul -> elementwise -> matmul -> psum_scatter split into
/// interleaved row blocks, rooted at the psum_scatter. Tried before
/// MatmulScatterPattern (higher benefit).
struct MicrobatchChainPattern : OpRewritePattern<PsumScatterOp> {
  MicrobatchChainPattern(MLIRContext *context,
                         const SpmdCollectiveMatmulOptions &options)
      : OpRewritePattern(context, /*benefit=*/2), options(options) {}

  LogicalResult matchAndRewrite(PsumScatterOp scatter,
                                PatternRewriter &rewriter) const override {
    std::optional<Chain> chain = chainToSplit(scatter, options);
    if (!chain)
      return rewriter.notifyMatchFailure(
          scatter, "not the end of a chain to split into microbatches");
    microbatch(rewriter, *chain, options.microbatches, options.bidirectional);
    return success();
  }

  SpmdCollectiveMatmulOptions options;
};

struct CollectiveMatmulPass
    : spmd::impl::SpmdCollectiveMatmulBase<CollectiveMatmulPass> {
  using SpmdCollectiveMatmulBase::SpmdCollectiveMatmulBase;

  void runOnOperation() override {
    if (microbatches < 1) {
      getOperation()->emitError()
          << "spmd-collective-matmul: microbatches must be at least 1, got "
          << static_cast<int64_t>(microbatches);
      return signalPassFailure();
    }
    SpmdCollectiveMatmulOptions options{bidirectional, unroll, thresholdBytes,
                                        force, microbatches};
    RewritePatternSet patterns(&getContext());
    populateCollectiveMatmulPatterns(patterns, options);
    // With `remarks`, each all_gather or psum_scatter a pattern replaces
    // is reported as it is erased, once: a chain split into microbatches
    // erases one copy per row block, all at the collective's location.
    struct Reporter : RewriterBase::Listener {
      llvm::DenseSet<std::pair<Location, unsigned>> reported;
      void notifyOperationErased(Operation *op) override {
        int64_t n = 0;
        if (auto gather = dyn_cast<AllGatherOp>(op))
          n = gather.getGroupSize();
        else if (auto scatter = dyn_cast<PsumScatterOp>(op))
          n = scatter.getGroupSize();
        // (Without locations there is nothing to tell copies apart by.)
        if (n &&
            (isa<UnknownLoc>(op->getLoc()) ||
             reported.insert({op->getLoc(), unsigned(isa<AllGatherOp>(op))})
                 .second))
          op->emitRemark() << "rewritten as a collective matmul: a ring of "
                           << n
                           << " steps whose transfers overlap the chunk "
                              "matmuls";
      }
    } reporter;
    // One walk, no folding: see "The patterns" above.
    walkAndApplyPatterns(getOperation(), std::move(patterns),
                         remarks ? &reporter : nullptr);
  }
};

} // namespace

void spmd::populateCollectiveMatmulPatterns(
    RewritePatternSet &patterns, const SpmdCollectiveMatmulOptions &options) {
  MLIRContext *context = patterns.getContext();
  patterns.add<GatherMatmulPattern, MatmulScatterPattern>(context, options);
  if (options.microbatches > 1)
    patterns.add<MicrobatchChainPattern>(context, options);
}
