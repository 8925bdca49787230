//===- Pipelines.cpp - Named Trellis pipelines ----------------------------===//

#include "trellis/Pipelines/Pipelines.h"

#include "trellis/Conversion/Passes.h"
#include "trellis/Transforms/Spmd/Passes.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

// The pipelines are built from pass objects with typed options, never from
// text: an entry function named `@"a}b"` or an option value with a comma
// cannot break them, and a misspelt pass is a compile error.

void mlir::trellis::buildOverlapPipeline(OpPassManager &pm, bool remarks) {
  // Layer loops first: a gather pipelined across iterations runs beside a
  // whole layer with whole matmuls, where a collective matmul would split
  // the layer's matmul into ring steps (and it no longer sees the gather).
  spmd::SpmdPipelineCollectivesOptions pipeline;
  pipeline.remarks = remarks;
  pm.addPass(spmd::createSpmdPipelineCollectives(pipeline));
  spmd::SpmdChunkAllToAllOptions chunk;
  chunk.remarks = remarks;
  pm.addPass(spmd::createSpmdChunkAllToAll(chunk));
  spmd::SpmdCollectiveMatmulOptions matmul;
  matmul.remarks = remarks;
  pm.addPass(spmd::createSpmdCollectiveMatmul(matmul));
  spmd::SpmdAsyncCollectivesOptions async;
  async.kinds = "all";
  pm.addPass(spmd::createSpmdAsyncCollectives(async));
}

void mlir::trellis::buildLowerToLLVMPipeline(
    OpPassManager &pm, const LowerToLLVMOptions &options) {
  if (options.overlap)
    buildOverlapPipeline(pm);
  pm.addPass(spmd::createSpmdEraseVariance());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Asynchronous ppermutes: start/wait pairs scheduled for overlap, then
  // lowered to trellis_rt_ppermute_start/wait.
  if (options.asyncPpermute)
    pm.addPass(spmd::createSpmdAsyncCollectives());
  pm.addPass(createSpmdToRuntime());
  // Aggregates (linalg.softmax) as the structured ops they stand for,
  // whose sums the next pass widens.
  pm.addNestedPass<func::FuncOp>(createTrellisDecomposeAggregates());
  pm.addNestedPass<func::FuncOp>(createTrellisNormalizeSlices());
  // bf16/f16 sums and contractions accumulate in f32 (docs/Precision.md).
  pm.addPass(createTrellisWidenAccumulation());
  // Elementwise arith/math on tensors become linalg so they bufferize.
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createTrellisCopyRepeatedResults());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.copyBeforeWrite = options.copyBeforeWrite;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  if (options.kernels)
    pm.addPass(createTrellisLinalgToKernels());
  // Transcendentals as arithmetic, so that the loops below vectorize.
  if (options.approximateMath)
    pm.addPass(createTrellisApproximateMath());
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Heap buffers through the runtime's allocation functions, which free
  // what a device leaves allocated when its run stops on an error.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createTrellisEraseMeshes());
}

void mlir::trellis::buildGlobalToManualPipeline(OpPassManager &pm) {
  // Calls are inlined first: propagation and partitioning work within one
  // function.
  pm.addPass(createTrellisInlineCalls());
  pm.addPass(createTrellisInferShardings());
  pm.addPass(createTrellisPropagate());
  pm.addPass(createTrellisPartition());
  // CSE first: the partitioned body repeats constants, axis indices and
  // fresh destinations op by op, and the canonicalizer's cost grows with
  // the ops it visits (10,000-op chain: 62 ms alone, 27 ms after CSE);
  // a second CSE merges what folding made equal.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::trellis::buildTrellisPipeline(OpPassManager &pm,
                                         const LowerToLLVMOptions &options) {
  buildGlobalToManualPipeline(pm);
  pm.addPass(createTrellisVerifyManual());
  spmd::SpmdOutlineDeviceFuncOptions outline;
  outline.eraseHost = true;
  pm.addPass(spmd::createSpmdOutlineDeviceFunc(outline));
  buildLowerToLLVMPipeline(pm, options);
}

void mlir::trellis::registerTrellisPipelines() {
  PassPipelineRegistration<>(
      "trellis-global-to-manual",
      "Partition global-view functions (auto, explicit or mixed) into one "
      "fully-manual spmd.shard_map each",
      [](OpPassManager &pm) { buildGlobalToManualPipeline(pm); });
  PassPipelineRegistration<>(
      "trellis-overlap",
      "Overlap communication with compute where the patterns are: "
      "pipelined layer loops, chunked all_to_alls, collective matmuls, then "
      "every collective split into start/wait",
      [](OpPassManager &pm) { buildOverlapPipeline(pm); });
  PassPipelineRegistration<LowerToLLVMOptions>(
      "trellis-pipeline",
      "The whole chain: global view to per-device LLVM dialect",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        buildTrellisPipeline(pm, options);
      });
  PassPipelineRegistration<LowerToLLVMOptions>(
      "trellis-lower-to-llvm",
      "Lower device functions (per-device tensors and spmd collectives) to "
      "the LLVM dialect, calling the Trellis runtime",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        buildLowerToLLVMPipeline(pm, options);
      });
}
