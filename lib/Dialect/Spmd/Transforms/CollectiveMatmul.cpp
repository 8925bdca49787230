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

#include "lib/Dialect/Spmd/Transforms/CollectiveMatmul.h"

#include "trellis/Dialect/Spmd/IR/ManualContext.h"
#include "trellis/Dialect/Spmd/IR/SpmdOps.h"
#include "trellis/Dialect/Spmd/Transforms/Passes.h"
#include "trellis/Dialect/Trellis/IR/ShardingUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <functional>

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCOLLECTIVEMATMUL
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"
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

namespace {

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
    IRRewriter rewriter(&getContext());
    if (microbatches > 1) {
      SmallVector<PsumScatterOp> scatters;
      getOperation()->walk(
          [&](PsumScatterOp scatter) { scatters.push_back(scatter); });
      for (PsumScatterOp scatter : scatters) {
        std::optional<Chain> chain = matchChain(scatter);
        int64_t rows = cast<RankedTensorType>(scatter.getType()).getDimSize(0);
        if (!chain || rows < microbatches || rows % microbatches != 0)
          continue;
        if (!force &&
            (byteSize(chain->gather.getType()) < thresholdBytes ||
             byteSize(chain->down->getResultTypes()[0]) < thresholdBytes))
          continue;
        microbatch(rewriter, *chain, microbatches, bidirectional);
      }
    }
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation()->walk(
        [&](linalg::MatmulOp matmul) { matmuls.push_back(matmul); });
    for (linalg::MatmulOp matmul : matmuls) {
      std::optional<Match> match = matchAt(matmul);
      if (!match)
        continue;
      bool gathers = isa<AllGatherOp>(match->collective);
      int64_t bytes = gathers ? byteSize(match->collective->getResultTypes()[0])
                              : byteSize(matmul->getResultTypes()[0]);
      if (!force && bytes < thresholdBytes)
        continue;
      rewriteMatch(rewriter, *match, bidirectional, unroll);
    }
  }
};

} // namespace
