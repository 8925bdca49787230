//===- RunDriver.h - trellis-run's driver ----------------------*- C++ -*-===//
//
// Private to trellis-run (RunMain.cpp): its command line and the Driver
// whose steps are split by job: loading and checking the program and the
// options (RunMain.cpp), compiling and running it, on MPI ranks too
// (RunSession.cpp), and writing, printing and checking its results and
// times (RunReport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_RUNDRIVER_H
#define TRELLIS_LIB_EXECUTION_RUNDRIVER_H

#include "lib/Execution/ClockReport.h"
#include "lib/Execution/DeviceProfiles.h"
#include "lib/Execution/F64Referee.h"
#include "lib/Execution/ProcessSetup.h"
#include "lib/Execution/ShardingDiagram.h"
#include "lib/Execution/TraceWriter.h"
#include "trellis/Execution/Executor.h"
#ifdef TRELLIS_HAVE_MPI
#include "lib/Execution/MpiRun.h"
#include "lib/Execution/MpiStartup.h"
#endif
#include "trellis/Import/Passes.h"
#include "trellis/Import/Registration.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

namespace mlir::trellis::exec::driver {

namespace cl = llvm::cl;
namespace rt = mlir::trellis::rt;

/// trellis-run's command line. The options are members, registered when
/// runMain creates this struct and gone when it returns (as in upstream
/// MLIR's JitRunner), so that a tool linking this library gets none of
/// them.
struct RunOptions {
  cl::OptionCategory category{"trellis-run options"};
  cl::opt<std::string> inputFile{cl::Positional, cl::desc("<program.mlir>"),
                                 cl::Required, cl::cat(category)};
  cl::opt<std::string> entryName{"entry",
                                 cl::desc("Function to run (default: "
                                          "main, or the only public one)"),
                                 cl::value_desc("name"), cl::cat(category)};
  cl::list<std::string> inputArrays{
      "input",
      cl::desc("Read an argument from a .npy file; NAME is its index, argN, or "
               "its trellis.name attribute"),
      cl::value_desc("NAME=FILE.npy"), cl::cat(category)};
  cl::opt<bool> iota{"iota",
                     cl::desc("Generate the other arguments as 0, 1, 2, ... in "
                              "row-major order (the default)"),
                     cl::cat(category)};
  cl::opt<int64_t> randomSeed{
      "random",
      cl::desc("Generate the other arguments with seeded random values"),
      cl::value_desc("SEED"), cl::init(-1), cl::cat(category)};
  cl::opt<std::string> outputDir{"output-dir",
                                 cl::desc("Write each result as DIR/outN.npy"),
                                 cl::value_desc("DIR"), cl::cat(category)};
  cl::opt<bool> saveInputs{"save-inputs",
                           cl::desc("Also write the inputs as DIR/argN.npy "
                                    "(with --output-dir)"),
                           cl::cat(category)};
  cl::opt<bool> printResults{"print",
                             cl::desc("Print the results (the default without "
                                      "--output-dir)"),
                             cl::cat(category)};
  cl::opt<std::string> traceFile{
      "trace", cl::desc("Write a Chrome/Perfetto trace of the (last) run"),
      cl::value_desc("trace.json"), cl::cat(category)};
  cl::opt<double> timeoutSeconds{
      "timeout",
      cl::desc("Stop and report a run that takes longer (seconds; 0: "
               "no limit)"),
      cl::init(300), cl::cat(category)};
  cl::opt<int> repeat{"repeat",
                      cl::desc("Run this many times and report times (runs "
                               "after the first reuse the input blocks placed "
                               "on the devices)"),
                      cl::init(1), cl::cat(category)};
  cl::opt<int> warmup{"warmup", cl::desc("Untimed runs before --repeat runs"),
                      cl::init(0), cl::cat(category)};
  cl::opt<double> latencyUs{"link-latency-us",
                            cl::desc("Modelled interconnect: per-transfer "
                                     "latency in microseconds"),
                            cl::init(0), cl::cat(category)};
  cl::opt<double> bandwidthGBps{
      "link-bandwidth-gbps",
      cl::desc("Modelled interconnect: link bandwidth "
               "in GB/s per direction"),
      cl::init(0), cl::cat(category)};
  cl::opt<std::string> clock{
      "clock",
      cl::desc("wall: time runs by the host's clock (default); virtual: "
               "every device keeps its own clock, advanced by its thread's "
               "CPU time while it computes and by the link model while it "
               "communicates, so a schedule measures the same on any host; "
               "with --repeat N >= 2 the makespan is that of one more run "
               "that replays each compute segment's fastest time "
               "(docs/Interconnect.md)"),
      cl::init("wall"), cl::cat(category)};
  cl::opt<std::string> device{
      "device",
      cl::desc("What each device computes like, on virtual clocks (implies "
               "--clock=virtual): cpu (this host, the default), tpu-v5e, "
               "tpu-v5p, h100, a100, or a row of --device-table; matmuls "
               "take their roofline time, other compute the host's time "
               "scaled by the memory bandwidths, links the profile's unless "
               "--link-* are given"),
      cl::init("cpu"), cl::cat(category)};
  cl::opt<std::string> deviceTable{
      "device-table",
      cl::desc("More device profiles, in the format of the built-in table "
               "(lib/Execution/DeviceProfiles.txt)"),
      cl::value_desc("FILE"), cl::cat(category)};
  cl::opt<bool> dryRun{
      "dry-run",
      cl::desc("With --device: skip the matmul kernels' arithmetic (their "
               "roofline time still counts), so large meshes and sizes fit "
               "on this host; no results are computed"),
      cl::cat(category)};
  cl::opt<std::string> clockReport{
      "clock-report",
      cl::desc("With --clock=virtual: write every run's makespan and each "
               "device's compute, communication and idle time as JSON"),
      cl::value_desc("FILE.json"), cl::cat(category)};
  cl::opt<int> computeSlots{
      "compute-slots",
      cl::desc("Let at most N devices compute at once (e.g. the number of "
               "cores), instead of all device threads time-slicing the cores; "
               "0: no limit (default; 1 with --clock=virtual)"),
      cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::opt<bool> asyncPpermute{
      "async-ppermute",
      cl::desc("Lower ppermute to asynchronous start/wait runtime calls, "
               "scheduled to overlap compute (default; =false: blocking)"),
      cl::init(true), cl::cat(category)};
  cl::opt<bool> overlap{
      "overlap",
      cl::desc("Overlap communication with compute wherever the patterns "
               "and size thresholds are met (trellis-overlap: pipelined "
               "layer loops, chunked all_to_alls, collective matmuls, every "
               "collective asynchronous), after --passes"),
      cl::cat(category)};
  cl::opt<std::string> passes{
      "passes",
      cl::desc("Run this pass pipeline on the program before lowering it, "
               "e.g. 'spmd-collective-matmul{bidirectional}'"),
      cl::value_desc("PIPELINE"), cl::cat(category)};
  cl::opt<bool> noKernels{"no-kernels",
                          cl::desc("Lower matmuls to loops instead of Eigen"),
                          cl::cat(category)};
  cl::opt<bool> exactMath{
      "exact-math",
      cl::desc("Call libm for f32 tanh, exp, log, erf, sin, cos, ... instead "
               "of the polynomial approximations that vectorize (a few ulp)"),
      cl::cat(category)};
  cl::opt<bool> dumpLLVM{"dump-llvm-dialect",
                         cl::desc("Print the lowered module to stderr"),
                         cl::cat(category)};
  cl::opt<bool> reference{
      "reference",
      cl::desc("Also run an oracle and compare each result: the program "
               "with every sharding dropped and without --passes or --overlap "
               "(on one device, or on the mesh its shard_maps need), lowered "
               "without kernels, in-place updates or optimised collectives; "
               "exactly for integers, within --rtol/--atol for floats; exit 1 "
               "on a mismatch"),
      cl::cat(category)};
  cl::opt<double> relTol{
      "rtol",
      cl::desc("Relative tolerance for --reference (default: "
               "from the element type, 1e-4 for f32/f64, "
               "2^-6 for bf16, 2^-9 for f16)"),
      cl::init(1e-4), cl::cat(category)};
  cl::opt<double> absTol{
      "atol",
      cl::desc("Absolute tolerance for --reference, scaled by "
               "the largest expected magnitude (default: "
               "from the element type, 1e-5 for f32/f64, "
               "2^-6 for bf16, 2^-9 for f16)"),
      cl::init(1e-5), cl::cat(category)};
  cl::opt<bool> dumpPartitioned{
      "dump-partitioned", cl::desc("Print the partitioned module to stderr"),
      cl::cat(category)};
  cl::opt<bool> quiet{"quiet", cl::desc("No progress lines or summaries"),
                      cl::cat(category)};
  cl::opt<bool> showShardings{
      "show-shardings",
      cl::desc("Before running, draw which devices hold which block of "
               "each input and output (as partitioned)"),
      cl::cat(category)};
  cl::opt<std::string> backend{
      "backend",
      cl::desc("threads: every device a thread of this process (default); "
               "mpi: one device per MPI rank, under mpirun -np <devices>"),
      cl::init("threads"), cl::cat(category)};
  cl::opt<bool> mpiCheck{
      "mpi-check",
      cl::desc("With --backend=mpi, check before each collective that every "
               "rank of the group reached the same op (default; =false "
               "saves a small all-reduce per collective)"),
      cl::init(true), cl::cat(category)};
  /// For tests: whether this process is the re-executed one.
  cl::opt<bool> printProcessSetup{
      "print-process-setup", cl::Hidden,
      cl::desc("Print whether trellis-run re-executed itself with malloc "
               "tunables, then go on"),
      cl::cat(category)};
};

/// `shape` as [a,b,...].
std::string shapeText(const std::vector<int64_t> &shape);
/// Index of the argument named `name` (an index, argN or trellis.name).
int findInput(const Executor &exec, const std::string &name);
/// Prints `message` as trellis-run's error; returns 1.
int fail(const std::string &message);

/// What diagnostics print to. Under MPI it holds them back until the ranks
/// agree at start-up (MpiStartup.h): an error every rank meets alike is
/// then printed once, and one that only some ranks meet by those ranks.
class HeldStream final : public llvm::raw_ostream {
public:
  explicit HeldStream(llvm::raw_ostream &target) : target(&target) {
    SetUnbuffered();
  }
  /// From now on, keeps what is written (or, with false, writes it to
  /// `to`).
  void hold(bool on, llvm::raw_ostream *to = nullptr) {
    holding = on;
    if (to)
      target = to;
  }
  bool isHolding() const { return holding; }
  /// What was held back, emptied.
  std::string take() { return std::exchange(held, std::string()); }

private:
  void write_impl(const char *ptr, size_t size) override {
    if (holding)
      held.append(ptr, size);
    else
      target->write(ptr, size);
    pos += size;
  }
  uint64_t current_pos() const override { return pos; }

  llvm::raw_ostream *target;
  std::string held;
  bool holding = false;
  uint64_t pos = 0;
};

/// One trellis-run: the program, its compiled form, inputs and outputs.
/// Each step returns std::nullopt to go on, or the exit status to return
/// (with MPI finalized).
class Driver {
public:
  Driver(const RunOptions &opts, bool mpi, int mpiRank)
      : opts(opts), mpi(mpi), mpiRank(mpiRank) {}

  /// The steps, in order; returns the exit status.
  int run();

private:
  std::optional<int> loadProgram();
  std::optional<int> checkOptions();
  std::optional<int> resolveDevice();
  std::optional<int> compile();
  /// With MPI: the agreement point `stage` (MpiStartup.h), reached with
  /// this rank's `status` so far; returns the exit status to stop with.
  std::optional<int> agree(const char *stage, std::optional<int> status);
  /// A fingerprint of the program and of the options every rank must share.
  uint64_t programFingerprint();
  /// A line naming the program (file, entry, meshes).
  std::string programSummary();
  std::optional<int> runOnRanks();
  std::optional<int> readInputs();
  std::optional<int> runTimed();
  std::optional<int> writeResults();
  void printResults();
  std::optional<int> checkAgainstReference();
  bool compareResult(size_t j, const HostArray &expected, int64_t refDevices,
                     const HostArray *exact, const std::string &exactError);
  /// The tolerance result `j` is compared with (scaled by `expected`).
  struct ResultTolerance {
    double rtol = 0, atolScale = 0, atol = 0, scale = 1;
    bool given = false; ///< set by --rtol/--atol
  };
  ResultTolerance resultTolerance(size_t j, const HostArray &expected);
  /// The program with every float widened to f64, run as the oracle is on
  /// the same inputs (F64Referee.h).
  llvm::Error evaluateInF64(const ExecutorOptions &refOptions,
                            std::vector<HostArray> &exact);
  void reportTimes();
  std::optional<int> showLayouts();

  /// Ends MPI, except before the ranks agree: a rank that fails then still
  /// goes to the agreement (run()).
  int finish(int status) {
#ifdef TRELLIS_HAVE_MPI
    if (mpi && !errs.isHolding())
      mpiFinalize();
#endif
    return status;
  }
  /// For errors every MPI rank detects alike: printed by rank 0 only (held
  /// back until the ranks agree, when every rank's are).
  int failAll(const std::string &message) {
    if (errs.isHolding())
      errs << "trellis-run: error: " << message << "\n";
    else if (mpiRank == 0)
      fail(message);
    return finish(1);
  }

  const RunOptions &opts;
  const bool mpi;
  const int mpiRank;
  /// Where diagnostics go (held back under MPI until the ranks agree).
  HeldStream errs{llvm::errs()};
  /// The fingerprint the ranks agreed on at start-up.
  uint64_t startFingerprint = 0;
  std::unique_ptr<MLIRContext> context;
  /// The program's text, which diagnostics point into until the end.
  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  ExecutorOptions options;
  /// The --device row (when not cpu).
  std::optional<DeviceRow> device;
  std::unique_ptr<Executor> exec;
  std::vector<HostArray> inputs, outputs;
  std::vector<double> times;
  /// With --clock=virtual: the devices' clocks of each timed run, and of
  /// the run that replays each compute segment's fastest time over them
  /// (empty: none).
  std::vector<RunClocks> clocks;
  RunClocks replayed;
  std::vector<std::vector<std::vector<double>>> segments;
  /// Runs once more with each device's compute segments replayed from
  /// their fastest times over the timed runs (when there are several and
  /// every run had the same segments): noise on a shared host only ever
  /// adds CPU time (caches another thread evicted, page faults, a busy
  /// sibling core), so the minimum is the stable estimate.
  std::optional<int> replayFastestSegments();
  bool virtualClock() const {
    return opts.clock == "virtual" || opts.device != "cpu";
  }
};

} // namespace mlir::trellis::exec::driver

#endif // TRELLIS_LIB_EXECUTION_RUNDRIVER_H
