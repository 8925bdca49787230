//===- Pipelines.cpp - Named Trellis pipelines ----------------------------===//

#include "lib/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

std::string
mlir::trellis::lowerToLLVMPipelineText(const LowerToLLVMOptions &options) {
  std::string text;
  text += "spmd-erase-variance,canonicalize,cse,";
  // Asynchronous ppermutes: start/wait pairs scheduled for overlap, then
  // lowered to trellis_rt_ppermute_start/wait.
  if (options.asyncPpermute)
    text += options.forwardPpermute ? "spmd-async-collectives{forward},"
                                    : "spmd-async-collectives,";
  text += "spmd-to-runtime,";
  // Elementwise arith/math on tensors become linalg so they bufferize.
  text += "convert-elementwise-to-linalg,canonicalize,";
  text += "func.func(trellis-copy-repeated-results),";
  text += "one-shot-bufferize{bufferize-function-boundaries "
          "allow-return-allocs-from-loops ";
  if (options.copyBeforeWrite)
    text += "copy-before-write ";
  text += "function-boundary-type-conversion=identity-layout-map},";
  text += "buffer-results-to-out-params{hoist-static-allocs "
          "modify-public-functions},";
  text += "canonicalize,cse,";
  text += "buffer-deallocation-pipeline,";
  if (options.kernels)
    text += "trellis-linalg-to-kernels,";
  // Transcendentals as arithmetic, so that the loops below vectorize.
  if (options.approximateMath)
    text += "trellis-approximate-math,";
  text += "convert-linalg-to-loops,canonicalize,cse,";
  text += "expand-strided-metadata,lower-affine,convert-scf-to-cf,";
  text += "convert-math-to-llvm,convert-math-to-libm,";
  text += "convert-to-llvm,reconcile-unrealized-casts,trellis-erase-meshes";
  return text;
}

LogicalResult
mlir::trellis::buildLowerToLLVMPipeline(OpPassManager &pm,
                                        const LowerToLLVMOptions &options) {
  return parsePassPipeline(lowerToLLVMPipelineText(options), pm);
}

void mlir::trellis::buildGlobalToManualPipeline(OpPassManager &pm) {
  // Calls are inlined first: propagation and partitioning work within one
  // function.
  if (failed(parsePassPipeline("trellis-inline-calls,trellis-infer-shardings,"
                               "trellis-propagate,trellis-partition,"
                               "canonicalize,cse",
                               pm)))
    llvm::report_fatal_error("invalid trellis-global-to-manual pipeline");
}

LogicalResult
mlir::trellis::buildTrellisPipeline(OpPassManager &pm,
                                    const LowerToLLVMOptions &options) {
  buildGlobalToManualPipeline(pm);
  if (failed(
          parsePassPipeline("spmd-outline-device-func{erase-host=true}", pm)))
    return failure();
  return buildLowerToLLVMPipeline(pm, options);
}

void mlir::trellis::registerTrellisPipelines() {
  PassPipelineRegistration<>(
      "trellis-global-to-manual",
      "Partition global-view functions (auto, explicit or mixed) into one "
      "fully-manual spmd.shard_map each",
      [](OpPassManager &pm) { buildGlobalToManualPipeline(pm); });
  PassPipelineRegistration<LowerToLLVMOptions>(
      "trellis-pipeline",
      "The whole chain: global view to per-device LLVM dialect",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        if (failed(buildTrellisPipeline(pm, options)))
          llvm::report_fatal_error("invalid trellis-pipeline");
      });
  PassPipelineRegistration<LowerToLLVMOptions>(
      "trellis-lower-to-llvm",
      "Lower device functions (per-device tensors and spmd collectives) to "
      "the LLVM dialect, calling the Trellis runtime",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        if (failed(buildLowerToLLVMPipeline(pm, options)))
          llvm::report_fatal_error("invalid trellis-lower-to-llvm pipeline");
      });
}
