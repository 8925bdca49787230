//===- Executor.h - JIT a Trellis program and run it on a mesh --*- C++ -*-===//
//
// Takes a module whose entry function is a fully-manual `spmd.shard_map`
// (what the partitioner produces, or what a user writes in manual mode) or a
// plain single-device function, lowers the per-device program to LLVM, JITs
// it with mlir::ExecutionEngine and runs it on every device of the mesh:
// global inputs are sliced per `in_specs`, outputs assembled per
// `out_specs`.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_EXECUTION_EXECUTOR_H
#define TRELLIS_EXECUTION_EXECUTOR_H

#include "trellis/Execution/HostArray.h"
#include "trellis/Runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::trellis::exec {

struct ExecutorOptions {
  /// Entry function; empty: `main` if present, else the only public
  /// function with a body.
  std::string entry;
  ::mlir::trellis::rt::SessionOptions session;
  bool asyncPpermute = true;
  /// Run trellis-overlap on the device code before lowering it (after
  /// `passes`).
  bool overlap = false;
  /// A pass pipeline (trellis-opt syntax, e.g.
  /// "spmd-collective-matmul{force}") run on the program before it is
  /// outlined and lowered.
  std::string passes;
  bool kernels = true;
  /// f32 tanh, exp, log, ... as vectorizable polynomial approximations
  /// (trellis-approximate-math); false: libm calls.
  bool approximateMath = true;
  /// Bufferize without in-place updates (the reference oracle).
  bool copyBeforeWrite = false;
  /// Print the module after lowering to LLVM dialect to stderr.
  bool dumpLLVMDialect = false;
  /// Print the module after partitioning (global view to per-device) to
  /// stderr.
  bool dumpPartitioned = false;
  /// Run the unpartitioned program instead: every sharding dropped
  /// (trellis-strip-shardings), so a global function runs on one device.
  bool reference = false;
  int optLevel = 3;
};

/// One function argument or result as the host sees it.
struct TensorInfo {
  std::string name;           ///< "arg0", or the `trellis.name` attribute
  int32_t dtype = 0;          ///< TRELLIS_RT_* code
  std::vector<int64_t> shape; ///< global shape
};

class Executor {
public:
  ~Executor();

  /// Compiles `module` (which is cloned, not modified). Errors that have a
  /// location in the program are also reported through the context's
  /// diagnostic handler.
  static llvm::Expected<std::unique_ptr<Executor>>
  create(mlir::ModuleOp module, const ExecutorOptions &options);

  const std::vector<TensorInfo> &inputs() const { return inputs_; }
  const std::vector<TensorInfo> &outputs() const { return outputs_; }
  const ::mlir::trellis::rt::MeshShape &mesh() const { return mesh_; }
  const std::string &entryName() const { return entry_; }

  /// Runs once. `inputs` must match inputs() in dtype and shape.
  /// `inputsUnchanged`: the caller promises that `inputs` are the arrays of
  /// the previous run, unmodified; blocks already placed on the devices are
  /// then not copied again (as inputs stay resident on real devices between
  /// steps). Checked against the arrays' addresses, not their contents.
  llvm::Error run(const std::vector<HostArray> &inputs,
                  std::vector<HostArray> &outputs,
                  bool inputsUnchanged = false);

  /// Multi-process execution (one device per process).
  struct LocalBlock {
    int index = -1; ///< function input, or device-function result
    std::vector<int64_t> offset, shape;
    int32_t dtype = 0;
    /// Outputs: whether this block is the one assembled into the global
    /// output (replicated blocks have one owner).
    bool owned = true;
  };
  /// The block of every device-function argument on the device at
  /// `position` (`index`: the function input it comes from).
  std::vector<LocalBlock> localInputs(int64_t position) const;
  /// Per function result, its block on the device at `position`
  /// (`index`: the device-function result that holds it).
  std::vector<LocalBlock> localOutputs(int64_t position) const;
  /// Shapes and dtypes of the device function's results.
  std::vector<LocalBlock> deviceResults() const;
  /// From now on, runLocal runs only the device at `position` through
  /// `comm`.
  void runOnly(int64_t position, ::mlir::trellis::rt::Communicator *comm);
  /// Runs the device at `position` once: `blocks` in localInputs' order,
  /// `results` per device result (allocated here).
  llvm::Error runLocal(int64_t position, std::vector<HostArray> &blocks,
                       std::vector<HostArray> &results);
  const std::vector<::mlir::trellis::rt::SiteInfo> &sites() const {
    return sites_;
  }
  /// With options.overlap: what trellis-overlap rewrote, one
  /// "location: remark" line per rewritten pattern.
  const std::vector<std::string> &overlapRemarks() const {
    return overlapRemarks_;
  }

  /// Events of the last run, per device id (with options.session.trace).
  std::vector<std::vector<::mlir::trellis::rt::TraceEvent>> traces() const;
  /// Where each device's virtual time went in the last run, per device id
  /// (with options.session.virtualClock).
  std::vector<::mlir::trellis::rt::DeviceTimes> deviceTimes() const;
  /// Virtual clock: rt::Session::computeSegments and replayComputeSegments.
  std::vector<std::vector<double>> computeSegments() const;
  void replayComputeSegments(std::vector<std::vector<double>> segments);

private:
  Executor() = default;
  /// The steps of create, and the arguments of one run (Executor.cpp).
  struct Builder;
  struct RunArgs;
  llvm::Error checkInputs(const std::vector<HostArray> &inputs) const;
  /// Device p's buffer for argument slot `slot`, allocated on first use.
  void *scratchFor(int64_t p, size_t slot, int64_t bytes);
  /// Device p's argument descriptors: views into the inputs where a block is
  /// contiguous, else scratch buffers (filled before it runs unless
  /// `placed`).
  llvm::Error bindOperands(int64_t p, const std::vector<HostArray> &inputs,
                           bool placed, RunArgs &call);
  /// Device p's result descriptors: views into the outputs where it owns a
  /// contiguous block of exactly one, else scratch buffers copied out.
  llvm::Error bindResults(int64_t p, std::vector<HostArray> &outputs,
                          RunArgs &call);
  /// The copies into and out of scratch buffers, run on the device threads.
  ::mlir::trellis::rt::Session::DeviceHooks
  copyHooks(const std::vector<HostArray> &inputs,
            std::vector<HostArray> &outputs, const RunArgs &call);

  struct Operand {
    int funcArg = -1; ///< which function argument feeds it
    ::mlir::trellis::rt::Spec spec;
    std::vector<int64_t> local; ///< per-device shape
    int32_t dtype = 0;
  };
  struct Result {
    int deviceResult = -1; ///< which device-function result
    ::mlir::trellis::rt::Spec spec;
    std::vector<int64_t> local;
    int32_t dtype = 0;
  };

  std::string entry_;
  ExecutorOptions options_;
  ::mlir::trellis::rt::MeshShape mesh_;
  std::vector<TensorInfo> inputs_, outputs_;
  std::vector<Operand> operands_; ///< device-function arguments
  std::vector<Result> results_;   ///< per function result
  std::vector<std::vector<int64_t>> deviceResultShapes_;
  std::vector<int32_t> deviceResultTypes_;
  std::vector<::mlir::trellis::rt::SiteInfo> sites_;
  std::vector<std::string> overlapRemarks_;
  std::unique_ptr<mlir::ExecutionEngine> engine_;
  ::mlir::trellis::rt::Session::Entry entryFn_ = nullptr;
  std::unique_ptr<::mlir::trellis::rt::Session> session_;
  /// Per device and argument slot, buffers kept across runs for blocks that
  /// are not contiguous views of the global arrays.
  std::vector<std::vector<void *>> scratch_;
  /// The input arrays whose blocks scratch_ holds (empty: none placed).
  std::vector<const char *> placedInputs_;
};

} // namespace mlir::trellis::exec

#endif // TRELLIS_EXECUTION_EXECUTOR_H
