//===- CheckVariance.cpp - Device-variance types for manual regions -------===//

#include "trellis/Transforms/Spmd/Passes.h"
#include "trellis/Transforms/Spmd/VarianceInference.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCHECKVARIANCE
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

struct CheckVariancePass
    : spmd::impl::SpmdCheckVarianceBase<CheckVariancePass> {
  using SpmdCheckVarianceBase::SpmdCheckVarianceBase;

  void runOnOperation() override {
    VarianceOptions options;
    options.insertPvary = insertPvary;
    if (failed(inferVarianceIn(getOperation(), options)))
      signalPassFailure();
  }
};

} // namespace
