//===- CheckVariance.cpp - Device-variance types for manual regions -------===//

#include "trellis/Dialect/Spmd/Transforms/Passes.h"
#include "trellis/Dialect/Spmd/Transforms/VarianceInference.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDCHECKVARIANCE
#include "trellis/Dialect/Spmd/Transforms/Passes.h.inc"
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
