//===- Pipelines.h - Named Trellis pipelines --------------------*- C++ -*-===//

#ifndef TRELLIS_PIPELINES_PIPELINES_H
#define TRELLIS_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::trellis {

struct LowerToLLVMOptions
    : public mlir::PassPipelineOptions<LowerToLLVMOptions> {
  Option<bool> asyncPpermute{
      *this, "async-ppermute",
      llvm::cl::desc("Split spmd.ppermute into start/wait calls scheduled to "
                     "overlap compute (spmd-async-collectives)"),
      llvm::cl::init(true)};
  Option<bool> overlap{
      *this, "overlap",
      llvm::cl::desc("Rewrite collectives to overlap compute first "
                     "(trellis-overlap: pipelined layer loops, chunked "
                     "all_to_alls, collective matmuls, every collective "
                     "asynchronous)"),
      llvm::cl::init(false)};
  Option<bool> kernels{
      *this, "kernels",
      llvm::cl::desc("Lower matmul-like linalg ops to Eigen kernels"),
      llvm::cl::init(true)};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Replace f32 tanh, exp, log, erf, sin, cos, ... by "
                     "polynomial approximations that vectorize "
                     "(trellis-approximate-math); false: libm calls"),
      llvm::cl::init(true)};
  Option<bool> copyBeforeWrite{
      *this, "copy-before-write",
      llvm::cl::desc("Bufferize without in-place updates: every write goes "
                     "to a fresh copy (the oracle of trellis-run "
                     "--reference)"),
      llvm::cl::init(false)};
};

/// The overlap rewrites, each where its pattern is and its size threshold
/// is met, in this order: spmd-pipeline-collectives (layer loops),
/// spmd-chunk-all-to-all, spmd-collective-matmul, then
/// spmd-async-collectives{kinds=all}. Registered as `trellis-overlap`
/// (docs/Overlap.md).
/// With `remarks`, each rewrite is reported as a remark at the collective
/// it rewrote.
void buildOverlapPipeline(mlir::OpPassManager &pm, bool remarks = false);

/// Device functions (per-device tensors, spmd collectives) to the LLVM
/// dialect (with `overlap`, trellis-overlap first): erase variance types,
/// ppermutes to scheduled start/wait pairs, collectives to runtime calls,
/// One-Shot Bufferize with identity layouts at function boundaries, results to
/// out parameters, buffer deallocation, contractions to Eigen kernels, the rest
/// to loops, then everything to LLVM.
/// Registered as `trellis-lower-to-llvm`.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// Global view to one fully-manual shard_map per function: explicit
/// inference, auto propagation, partitioning, cleanup. Registered as
/// `trellis-global-to-manual`.
void buildGlobalToManualPipeline(mlir::OpPassManager &pm);

/// The whole chain, global view to LLVM dialect: trellis-global-to-manual,
/// trellis-verify-manual, outlining the device functions (host functions
/// erased) and trellis-lower-to-llvm. Registered as `trellis-pipeline`.
void buildTrellisPipeline(mlir::OpPassManager &pm,
                          const LowerToLLVMOptions &options);

void registerTrellisPipelines();

} // namespace mlir::trellis

#endif // TRELLIS_PIPELINES_PIPELINES_H
