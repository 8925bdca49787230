//===- RunMain.cpp - The trellis-run driver -------------------------------===//

#include "trellis/Execution/RunMain.h"
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

using namespace mlir;
using namespace mlir::trellis::exec;
namespace cl = llvm::cl;
namespace rt = mlir::trellis::rt;

namespace {

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

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleave(shape, os, ",");
  os << ']';
  return text;
}

/// Index of the argument named `name` (an index, argN or trellis.name).
int findInput(const Executor &exec, const std::string &name) {
  const auto &inputs = exec.inputs();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].name == name || "arg" + std::to_string(i) == name ||
        std::to_string(i) == name)
      return static_cast<int>(i);
  return -1;
}

int fail(const std::string &message) {
  llvm::errs() << "trellis-run: error: " << message << "\n";
  return 1;
}

} // namespace

namespace {

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

} // namespace

int Driver::run() {
  // Under MPI every rank goes to each agreement point, whether its own
  // steps before it succeeded or not, so that no rank waits for one that
  // stopped.
  errs.hold(mpi);
  std::optional<int> status;
  for (auto step : {&Driver::loadProgram, &Driver::checkOptions,
                    &Driver::resolveDevice})
    if ((status = (this->*step)()))
      break;
  llvm::raw_ostream &rankErrs = mpiRank == 0 ? llvm::errs() : llvm::nulls();
  if (mpi) {
    status = agree("start-up", status);
    if (status) {
      errs.hold(false, &rankErrs);
      return finish(*status);
    }
  }
  if (!status) {
    startFingerprint = programFingerprint();
    status = compile();
  }
  if (mpi) {
    status = agree("compile", status);
    errs.hold(false, &rankErrs);
  }
  if (status)
    return finish(*status);
  for (auto step : {&Driver::showLayouts, &Driver::runOnRanks,
                    &Driver::readInputs, &Driver::runTimed,
                    &Driver::writeResults})
    if (std::optional<int> status = (this->*step)())
      return *status;
  printResults();
  if (std::optional<int> status = checkAgainstReference())
    return *status;
  reportTimes();
  return finish(0);
}

/// Parses the program (importing what JAX printed).
std::optional<int> Driver::loadProgram() {
  mlir::trellis::registerAllPasses();
  DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  // A program JAX printed (StableHLO with shardings) is imported first.
  mlir::trellis::registerImportDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  context->disableMultithreading();
  // Located errors are enough: the op dump MLIR appends to every error
  // raised inside a pass is noise to someone running a program.
  context->printOpOnDiagnostic(false);

  std::string errorMessage;
  auto file = openInputFile(opts.inputFile, &errorMessage);
  if (!file)
    return failAll(errorMessage);
  sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(*sourceMgr, context.get(),
                                                   errs);
  module = parseSourceFile<ModuleOp>(sourceMgr, context.get());
  if (!module)
    return finish(1);
  if (mlir::trellis::needsStableHLOImport(*module)) {
    PassManager importer(context.get());
    importer.addPass(mlir::trellis::createTrellisImportStableHLO());
    if (failed(importer.run(*module)))
      return finish(1);
  }
  return std::nullopt;
}

/// Rejects option values and combinations trellis-run does not take.
std::optional<int> Driver::checkOptions() {
  if (opts.computeSlots < 0)
    return failAll("--compute-slots must be 0 (no limit) or more, got " +
                   std::to_string(opts.computeSlots));
  if (!(opts.latencyUs >= 0) || !(opts.bandwidthGBps >= 0) ||
      !std::isfinite(opts.latencyUs) || !std::isfinite(opts.bandwidthGBps))
    return failAll("--link-latency-us and --link-bandwidth-gbps must be "
                   "finite and not negative");
  if (!(opts.timeoutSeconds >= 0) || !std::isfinite(opts.timeoutSeconds))
    return failAll("--timeout must be a finite number of seconds, 0 (no "
                   "limit) or more, got " +
                   std::to_string(opts.timeoutSeconds.getValue()));
  if (opts.repeat < 1)
    return failAll("--repeat must be 1 or more, got " +
                   std::to_string(opts.repeat));
  if (opts.warmup < 0)
    return failAll("--warmup must be 0 or more, got " +
                   std::to_string(opts.warmup));
  if (opts.clock != "wall" && opts.clock != "virtual")
    return failAll("--clock must be 'wall' or 'virtual', got '" + opts.clock +
                   "'");
  if (opts.clock == "wall" && opts.clock.getNumOccurrences() &&
      opts.device != "cpu")
    return failAll("--device " + opts.device +
                   " times devices by virtual clocks, not --clock=wall");
  if (!opts.clockReport.empty() && !virtualClock())
    return failAll("--clock-report needs --clock=virtual");
  if (opts.dryRun && opts.device == "cpu")
    return failAll("--dry-run needs a --device profile (the host's CPU "
                   "time is what a dry run skips)");
  if (!opts.deviceTable.empty() && opts.device == "cpu")
    return failAll("--device-table needs --device NAME (a row to use)");
  if (opts.device != "cpu" && opts.noKernels)
    return failAll("--device times the matmul kernels by the profile's "
                   "roofline: it takes no --no-kernels");
  if (opts.overlap && !opts.asyncPpermute)
    return failAll("--overlap makes every collective asynchronous: it takes "
                   "no --async-ppermute=false");
  if (opts.dryRun &&
      (opts.reference || !opts.outputDir.empty() || opts.printResults))
    return failAll("--dry-run computes no results: it takes no "
                   "--reference, --output-dir or --print");
  if (mpi) {
    const char *unsupported =
        opts.saveInputs           ? "--save-inputs"
        : opts.reference          ? "--reference"
        : !opts.traceFile.empty() ? "--trace"
        : (opts.latencyUs > 0 || opts.bandwidthGBps > 0) && !virtualClock()
            ? "a modelled interconnect without --clock=virtual"
        : opts.computeSlots > 0 ? "--compute-slots"
                                : nullptr;
    if (unsupported)
      return failAll(std::string(unsupported) +
                     " is not supported with --backend=mpi");
  }
  return std::nullopt;
}

/// Finds the --device profile (before the ranks agree: a table one rank
/// cannot read stops every rank).
std::optional<int> Driver::resolveDevice() {
  if (opts.device == "cpu")
    return std::nullopt;
  llvm::Expected<DeviceRow> row = findDevice(opts.device, opts.deviceTable);
  if (!row)
    return failAll(llvm::toString(row.takeError()));
  device = *row;
  options.session.profile = row->profile;
  return std::nullopt;
}

uint64_t Driver::programFingerprint() {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Locations and comments may differ between the ranks' copies.
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  // The options that change what runs or how the ranks' collectives meet
  // (not file names: ranks may read their own copies of the inputs).
  os << "\n" << opts.entryName << "|" << opts.passes << "|" << opts.overlap
     << "|" << opts.asyncPpermute << "|" << opts.noKernels << "|"
     << opts.exactMath << "|" << opts.iota << "|" << opts.randomSeed << "|"
     << opts.repeat << "|" << opts.warmup << "|" << opts.clock << "|"
     << opts.device << "|" << opts.latencyUs << "|" << opts.bandwidthGBps
     << "|" << opts.mpiCheck << "|" << opts.dryRun;
  if (exec) {
    os << "|@" << exec->entryName();
    for (int64_t size : exec->mesh().axisSizes)
      os << "x" << size;
    for (int64_t id : exec->mesh().deviceIds)
      os << "," << id;
  }
  return llvm::xxh3_64bits(text);
}

std::string Driver::programSummary() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::sys::path::filename(opts.inputFile);
  if (exec) {
    os << " @" << exec->entryName() << " on a mesh of ";
    llvm::interleave(exec->mesh().axisSizes, os, "x");
  } else {
    os << (opts.entryName.empty() ? std::string(" (default entry)")
                                  : " @" + opts.entryName);
    // The meshes the program declares, as written.
    module->walk([&](Operation *op) {
      if (op->getName().getStringRef() != "trellis.mesh")
        return;
      std::string mesh;
      llvm::raw_string_ostream ms(mesh);
      op->print(ms, OpPrintingFlags().enableDebugInfo(false));
      os << ", " << llvm::StringRef(mesh).trim();
    });
  }
  if (text.size() > 200)
    text = text.substr(0, 197) + "...";
  return text;
}

std::optional<int> Driver::agree(const char *stage,
                                 std::optional<int> status) {
#ifdef TRELLIS_HAVE_MPI
  MpiStartRecord mine;
  mine.ok = !status;
  if (mine.ok) {
    mine.program = std::string(stage) == "start-up"
                       ? programFingerprint()
                       : llvm::xxh3_64bits(std::to_string(startFingerprint) +
                                           std::to_string(programFingerprint()));
    mine.summary = programSummary();
  }
  mine.errors = errs.take();
  if (mpiAgree(stage, mine, opts.timeoutSeconds)) {
    // Warnings and remarks: every rank has the same program, so rank 0's.
    if (mpiRank == 0)
      llvm::errs() << mine.errors;
    return std::nullopt;
  }
  return 1;
#else
  (void)stage;
  return status;
#endif
}

/// Compiles the program for the options given.
std::optional<int> Driver::compile() {
  options.entry = opts.entryName;
  options.asyncPpermute = opts.asyncPpermute;
  options.overlap = opts.overlap;
  options.passes = opts.passes;
  options.kernels = !opts.noKernels;
  options.approximateMath = !opts.exactMath;
  options.dumpLLVMDialect = opts.dumpLLVM;
  options.dumpPartitioned = opts.dumpPartitioned;
  options.session.timeoutSeconds = opts.timeoutSeconds;
  options.session.trace = !opts.traceFile.empty();
  options.session.progress = !opts.quiet && mpiRank == 0;
  options.session.catchSignals = true;
  options.session.link.latencyUs = opts.latencyUs;
  options.session.link.bandwidthGBps = opts.bandwidthGBps;
  // Virtual clocks measure each device as if it had a core to itself: by
  // default one device computes at a time, so that devices do not contend
  // for the host's shared caches and memory bandwidth (or for a core's
  // hyperthread sibling), which slowed the bench FFN's compute by 7% with
  // two at once on this 2-core host.
  options.session.computeSlots =
      virtualClock() && !mpi && !opts.computeSlots.getNumOccurrences()
          ? 1
          : opts.computeSlots.getValue();
  options.session.virtualClock = virtualClock();
  if (device) {
#ifdef TRELLIS_HAVE_MPI
    // One scale for every rank: each measured its own at the same moment.
    // (Every rank is here: they agreed at start-up.)
    if (mpi)
      mpiBroadcastFromRank0(options.session.profile.hostScale);
#endif
    options.session.dryRun = opts.dryRun;
    if (!opts.latencyUs.getNumOccurrences())
      options.session.link.latencyUs = device->link.latencyUs;
    if (!opts.bandwidthGBps.getNumOccurrences())
      options.session.link.bandwidthGBps = device->link.bandwidthGBps;
  }

  llvm::Expected<std::unique_ptr<Executor>> created =
      Executor::create(*module, options);
  if (!created)
    return failAll(llvm::toString(created.takeError()));
  exec = std::move(*created);
  if (opts.overlap && !opts.quiet && mpiRank == 0) {
    const std::vector<std::string> &remarks = exec->overlapRemarks();
    if (remarks.empty())
      llvm::errs() << "trellis-run: --overlap: no loop, all_to_all or "
                      "matmul pattern met its threshold; every collective "
                      "is asynchronous\n";
    else
      llvm::errs() << "trellis-run: --overlap rewrote these patterns, then "
                      "made every collective asynchronous:\n";
    for (const std::string &remark : remarks)
      llvm::errs() << "  " << remark << "\n";
  }
  // One thread per device: far beyond this, thread creation fails mid-run.
  constexpr int64_t kMaxThreadDevices = 4096;
  if (!mpi && exec->mesh().numDevices() > kMaxThreadDevices)
    return failAll("the mesh has " + std::to_string(exec->mesh().numDevices()) +
                   " devices; the threads backend simulates at most " +
                   std::to_string(kMaxThreadDevices) +
                   " (one thread each): use --backend=mpi");
  return std::nullopt;
}

/// With --backend=mpi: runs this rank's device; only rank 0 goes on, with
/// the assembled outputs.
std::optional<int> Driver::runOnRanks() {
#ifdef TRELLIS_HAVE_MPI
  if (!mpi)
    return std::nullopt;
  MpiRunConfig config;
  config.inputFiles.assign(exec->inputs().size(), "");
  for (const std::string &spec : opts.inputArrays) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos)
      return failAll("--input expects NAME=FILE.npy, got '" + spec + "'");
    int index = findInput(*exec, spec.substr(0, eq));
    if (index < 0)
      return failAll("--input " + spec + ": @" + exec->entryName() +
                     " has no argument named '" + spec.substr(0, eq) + "'");
    config.inputFiles[index] = spec.substr(eq + 1);
  }
  config.random = opts.randomSeed >= 0;
  config.seed = static_cast<uint64_t>(std::max<int64_t>(opts.randomSeed, 0));
  config.warmup = opts.warmup;
  config.repeat = opts.repeat;
  config.checkCollectives = opts.mpiCheck;
  config.virtualClock = virtualClock();
  config.link = options.session.link;
  MpiClocks mpiClocks;
  if (int status = runOnMpi(*exec, config, outputs, times, &mpiClocks))
    return finish(status);
  clocks = std::move(mpiClocks.runs);
  replayed = std::move(mpiClocks.replayed);
  if (mpiRank != 0)
    return finish(0);
#endif
  return std::nullopt;
}

/// Inputs: files first, the rest generated (threads backend; MPI ranks
/// read or generate their own blocks).
std::optional<int> Driver::readInputs() {
  inputs.resize(exec->inputs().size());
  if (mpi)
    return std::nullopt;
  std::vector<bool> given(inputs.size(), false);
  for (const std::string &spec : opts.inputArrays) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos)
      return fail("--input expects NAME=FILE.npy, got '" + spec + "'");
    std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
    int index = findInput(*exec, name);
    if (index < 0)
      return fail("--input " + spec + ": @" + exec->entryName() +
                  " has no argument named '" + name + "'");
    llvm::Expected<HostArray> read = readNpy(path);
    if (!read)
      return fail(llvm::toString(read.takeError()));
    inputs[index] = std::move(*read);
    const TensorInfo &info = exec->inputs()[index];
    if (inputs[index].shape != info.shape || inputs[index].dtype != info.dtype)
      return fail("--input " + spec + ": the file holds " +
                  numpyName(inputs[index].dtype) +
                  shapeText(inputs[index].shape) + " but argument " +
                  info.name + " is " + numpyName(info.dtype) +
                  shapeText(info.shape));
    given[index] = true;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (given[i])
      continue;
    const TensorInfo &info = exec->inputs()[i];
    inputs[i].allocate(info.dtype, info.shape);
    if (opts.randomSeed >= 0)
      fillRandom(inputs[i],
                 static_cast<uint64_t>(opts.randomSeed) * 1000003u + i);
    else
      fillIota(inputs[i]);
  }
  return std::nullopt;
}

/// The --warmup and --repeat runs (threads backend). Runs after the first
/// reuse the input blocks it placed on the devices (`inputs` are not
/// modified here).
std::optional<int> Driver::runTimed() {
  if (mpi)
    return std::nullopt;
  int runsDone = 0;
  for (int i = 0; i < opts.warmup; ++i, ++runsDone)
    if (llvm::Error error = exec->run(inputs, outputs, runsDone > 0))
      return fail(llvm::toString(std::move(error)));
  for (int i = 0; i < std::max(1, static_cast<int>(opts.repeat));
       ++i, ++runsDone) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = exec->run(inputs, outputs, runsDone > 0))
      return fail(llvm::toString(std::move(error)));
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    if (virtualClock()) {
      clocks.push_back(exec->deviceTimes());
      segments.push_back(exec->computeSegments());
    }
  }
  return replayFastestSegments();
}

std::optional<int> Driver::replayFastestSegments() {
  if (!virtualClock() || segments.size() < 2)
    return std::nullopt;
  std::vector<std::vector<double>> fastest;
  for (size_t d = 0; d < segments.front().size(); ++d) {
    std::vector<std::vector<double>> runs;
    for (const auto &run : segments)
      runs.push_back(run[d]);
    std::optional<std::vector<double>> device = fastestSegments(runs);
    if (!device)
      return std::nullopt; // data-dependent control flow: no replay
    fastest.push_back(std::move(*device));
  }
  exec->replayComputeSegments(std::move(fastest));
  if (llvm::Error error = exec->run(inputs, outputs, true))
    return fail(llvm::toString(std::move(error)));
  replayed = exec->deviceTimes();
  exec->replayComputeSegments({});
  return std::nullopt;
}

/// The trace, and the .npy files of --output-dir.
std::optional<int> Driver::writeResults() {
  const std::string &outputDir = opts.outputDir;
  if (!outputDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return finish(fail("cannot create '" + outputDir + "': " + ec.message()));
  if (!opts.traceFile.empty())
    if (llvm::Error error =
            writeChromeTrace(opts.traceFile, exec->mesh(), exec->traces()))
      return finish(fail(llvm::toString(std::move(error))));
  if (!opts.clockReport.empty())
    if (llvm::Error error =
            writeClockReport(opts.clockReport, clocks, replayed,
                             options.session.link, options.session.profile))
      return finish(fail(llvm::toString(std::move(error))));

  if (!outputDir.empty() && opts.saveInputs)
    for (size_t i = 0; i < inputs.size(); ++i) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "arg" + std::to_string(i) + ".npy");
      if (llvm::Error error = writeNpy(path.str().str(), inputs[i]))
        return finish(fail(llvm::toString(std::move(error))));
    }
  if (!outputDir.empty()) {
    for (size_t j = 0; j < outputs.size(); ++j) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "out" + std::to_string(j) + ".npy");
      if (llvm::Error error = writeNpy(path.str().str(), outputs[j]))
        return finish(fail(llvm::toString(std::move(error))));
    }
  }
  return std::nullopt;
}

/// --show-shardings: each input's and output's blocks over the mesh, as
/// the partitioned program lays them out (rank 0 only under MPI).
std::optional<int> Driver::showLayouts() {
  if (!opts.showShardings || mpiRank != 0)
    return std::nullopt;
  const rt::MeshShape &mesh = exec->mesh();
  llvm::outs() << "mesh (";
  for (int a = 0; a < mesh.numAxes(); ++a)
    llvm::outs() << (a ? ", " : "") << "\"" << mesh.axisNames[a]
                 << "\"=" << mesh.axisSizes[a];
  llvm::outs() << "), " << mesh.numDevices() << " devices\n";
  // Every device's blocks, once: per input, per output.
  std::vector<std::vector<Executor::LocalBlock>> ins, outs;
  for (int64_t p = 0; p < mesh.numDevices(); ++p) {
    ins.push_back(exec->localInputs(p));
    outs.push_back(exec->localOutputs(p));
  }
  auto draw = [&](const TensorInfo &info, bool output, int index) {
    std::vector<DeviceBlock> blocks;
    for (int64_t p = 0; p < mesh.numDevices(); ++p) {
      // An input no device argument takes is whole on every device.
      DeviceBlock block{mesh.deviceAt(p),
                        std::vector<int64_t>(info.shape.size(), 0), info.shape};
      const Executor::LocalBlock *local = output ? &outs[p][index] : nullptr;
      if (!output)
        for (const Executor::LocalBlock &l : ins[p])
          if (l.index == index)
            local = &l;
      if (local) {
        block.offset = local->offset;
        block.shape = local->shape;
      }
      blocks.push_back(std::move(block));
    }
    llvm::outs() << info.name << ": " << numpyName(info.dtype)
                 << shapeText(info.shape) << "\n"
                 << drawBlocks(info.shape, blocks);
  };
  for (auto [i, info] : llvm::enumerate(exec->inputs()))
    draw(info, false, i);
  for (auto [j, info] : llvm::enumerate(exec->outputs()))
    draw(info, true, j);
  return std::nullopt;
}

/// Prints the results (--print, or without --output-dir).
void Driver::printResults() {
  if (opts.dryRun) {
    llvm::outs() << "dry run: " << outputs.size()
                 << " result(s) not computed\n";
    return;
  }
  if (!opts.printResults && !opts.outputDir.empty())
    return;
  for (size_t j = 0; j < outputs.size(); ++j) {
    llvm::outs() << "out" << j;
    // A named result (trellis.name, e.g. from JAX's jax.result_info).
    const std::string &name = exec->outputs()[j].name;
    if (name != "out" + std::to_string(j))
      llvm::outs() << " (" << name << ")";
    llvm::outs() << ": " << numpyName(outputs[j].dtype)
                 << shapeText(outputs[j].shape) << "\n"
                 << formatArray(outputs[j]) << "\n";
  }
}

/// --reference: runs the oracle and compares each result with it.
std::optional<int> Driver::checkAgainstReference() {
  if (!opts.reference)
    return std::nullopt;
  // The oracle: the program with every sharding dropped (one device) or,
  // for manual code, the same mesh; either way lowered and run the
  // simplest way, so it shares as little as possible with the run it
  // checks: blocking reference collectives, plain-loop matmul kernels
  // instead of Eigen and oneDNN (the loop lowering's scalar loops took
  // minutes at a few GFLOP), no in-place updates, libm math, no link model
  // or compute slots.
  ExecutorOptions refOptions = options;
  refOptions.reference = true;
  refOptions.dumpPartitioned = false;
  refOptions.dumpLLVMDialect = false;
  refOptions.session.trace = false;
  refOptions.session.link = {};
  refOptions.session.computeSlots = 0;
  refOptions.session.virtualClock = false;
  refOptions.session.profile = {};
  refOptions.session.dryRun = false;
  refOptions.session.referenceCollectives = true;
  refOptions.asyncPpermute = false;
  refOptions.overlap = false;
  refOptions.kernels = true;
  refOptions.session.referenceKernels = true;
  refOptions.approximateMath = false;
  refOptions.copyBeforeWrite = true;
  // The program as written: a --passes rewrite (collective matmul, ...)
  // is part of what is checked.
  refOptions.passes.clear();
  llvm::Expected<std::unique_ptr<Executor>> createdRef =
      Executor::create(*module, refOptions);
  if (!createdRef)
    return finish(fail("reference: " + llvm::toString(createdRef.takeError())));
  std::unique_ptr<Executor> ref = std::move(*createdRef);
  std::vector<HostArray> expected;
  if (llvm::Error error = ref->run(inputs, expected))
    return finish(fail("reference: " + llvm::toString(std::move(error))));
  llvm::outs() << "oracle: "
               << (ref->mesh().numDevices() == 1
                       ? "the unpartitioned program on 1 device"
                       : "the program with its shardings dropped, on the " +
                             std::to_string(ref->mesh().numDevices()) +
                             " devices its shard_maps need (partitioned "
                             "the same way)")
               << ", without --passes or --overlap, lowered simply (reference "
                  "collectives, plain-loop matmul kernels, no in-place "
                  "updates, libm math)\n";
  // A float result that differs is re-evaluated in f64 (F64Referee.h):
  // the run may be as close to the exact value as its type allows.
  std::vector<HostArray> exact;
  std::string exactError;
  for (size_t j = 0; j < outputs.size() && exact.empty() && exactError.empty();
       ++j) {
    ResultTolerance t = resultTolerance(j, expected[j]);
    if (outputs[j].isFloat() &&
        !compareArrays(expected[j], outputs[j], t.rtol, t.atol).equal)
      if (llvm::Error error = evaluateInF64(refOptions, exact))
        exactError = llvm::toString(std::move(error));
  }
  bool allMatch = true;
  for (size_t j = 0; j < outputs.size(); ++j)
    allMatch &= compareResult(j, expected[j], ref->mesh().numDevices(),
                              exact.empty() ? nullptr : &exact[j],
                              exactError);
  if (!allMatch)
    return finish(1);
  return std::nullopt;
}

Driver::ResultTolerance Driver::resultTolerance(size_t j,
                                                const HostArray &expected) {
  ResultTolerance t;
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i)
    if (std::isfinite(expected.at(i)))
      t.scale = std::max(t.scale, std::fabs(expected.at(i)));
  Tolerance tolerance = defaultTolerance(outputs[j].dtype);
  if (opts.relTol.getNumOccurrences())
    tolerance.rtol = opts.relTol;
  if (opts.absTol.getNumOccurrences())
    tolerance.atolScale = opts.absTol;
  t.given = opts.relTol.getNumOccurrences() || opts.absTol.getNumOccurrences();
  t.rtol = tolerance.rtol;
  t.atolScale = tolerance.atolScale;
  t.atol = tolerance.atolScale * t.scale;
  return t;
}

llvm::Error Driver::evaluateInF64(const ExecutorOptions &refOptions,
                                  std::vector<HostArray> &exact) {
  llvm::Expected<OwningOpRef<ModuleOp>> wide = widenFloatsToF64(*module);
  if (!wide)
    return wide.takeError();
  llvm::Expected<std::unique_ptr<Executor>> created =
      Executor::create(**wide, refOptions);
  if (!created)
    return created.takeError();
  std::vector<HostArray> wideInputs;
  for (const HostArray &input : inputs)
    wideInputs.push_back(widenArray(input));
  return (*created)->run(wideInputs, exact);
}

/// Compares result `j` with the oracle's and prints how they differ; a
/// float result that differs is settled by `exact` (the f64 re-evaluation;
/// null when there is none, with `exactError` saying why when it failed).
bool Driver::compareResult(size_t j, const HostArray &expected,
                           int64_t refDevices, const HostArray *exact,
                           const std::string &exactError) {
  ResultTolerance t = resultTolerance(j, expected);
  Comparison c = compareArrays(expected, outputs[j], t.rtol, t.atol);
  bool settled = false;
  std::string ruling;
  if (!c.equal && outputs[j].isFloat() && c.mismatches > 0) {
    if (exact) {
      Verdict v = referee(expected, outputs[j], *exact, t.rtol, t.atol);
      settled = v.settled();
      ruling = llvm::formatv(
          "; re-evaluated in f64, of the {0} differing elements the run is "
          "within tolerance of the f64 value at {1}, and within twice the "
          "oracle's own largest distance from it ({2}) at {3} more (the "
          "oracle is within tolerance at {4})",
          v.disputed, v.actualClose, llvm::format("%.3g", v.oracleError),
          v.actualAsGood, v.expectedClose);
      if (settled)
        ruling += ": rounding the computation magnifies, not a mismatch";
      else
        ruling += llvm::formatv(
            "; first wrong at [{0}]: f64 {1}, got {2}",
            elementIndexText(outputs[j].shape, v.firstWrong),
            llvm::format("%.9g", exact->at(v.firstWrong)),
            llvm::format("%.9g", outputs[j].at(v.firstWrong)));
    } else if (!exactError.empty()) {
      ruling = "; could not re-evaluate in f64: " + exactError;
    }
  }
  bool ok = c.equal || settled;
  llvm::outs() << "reference: out" << j << " (" << numpyName(outputs[j].dtype)
               << shapeText(outputs[j].shape) << ", "
               << exec->mesh().numDevices() << " devices vs " << refDevices
               << "): " << (ok ? "" : "MISMATCH: ")
               << c.describe(expected, outputs[j]);
  if (outputs[j].isFloat())
    llvm::outs() << llvm::format("; tolerance rtol %g, atol %g x %g (%s)",
                                 t.rtol, t.atolScale, t.scale,
                                 t.given ? "--rtol/--atol"
                                         : "default for the type");
  llvm::outs() << ruling << "\n";
  return ok;
}

/// With --clock=virtual: what the clocks measured; with --repeat: the
/// median and fastest run (wall clock).
void Driver::reportTimes() {
  if (opts.quiet)
    return;
  if (virtualClock())
    printClockSummary(llvm::errs(), clocks, replayed, options.session.link,
                      options.session.profile);
  if (opts.repeat <= 1)
    return;
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  llvm::errs() << llvm::format(
      "trellis-run: %d runs on %lld devices: median %.3f ms, min %.3f ms\n",
      static_cast<int>(times.size()),
      static_cast<long long>(exec->mesh().numDevices()),
      sorted[sorted.size() / 2], sorted.front());
}

int mlir::trellis::exec::runMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  RunOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "trellis-run: compile a Trellis program and run it on a simulated mesh "
      "of devices (one thread each)\n\n"
      "With the threads backend it runs itself again once at start-up with "
      "glibc malloc tunables for huge pages (docs/Design.md); set "
      "TRELLIS_RUN_NO_REEXEC=1 to keep it in one process (debuggers, "
      "profilers). Not with --clock=virtual, whose CPU times the kernel's "
      "compaction of huge pages would disturb.\n");
  // With huge pages on request, a page fault may compact memory for tens of
  // milliseconds of the faulting thread's CPU time: 5-40% of a device's
  // compute in some of the bench FFN's runs. Virtual clocks count that
  // time, so they run on 4 KiB pages (a first run faults them all in).
  if (opts.backend == "threads" && opts.clock != "virtual" &&
      opts.device == "cpu")
    reexecWithMallocTunables(argv);
  if (opts.printProcessSetup) {
    llvm::errs() << "trellis-run: re-executed with malloc tunables: "
                 << (reexecutedWithMallocTunables() ? "yes" : "no") << "\n";
  }
  keepFreedBuffers();

  // With --backend=mpi every rank runs this driver: errors that all ranks
  // detect alike are printed by rank 0 only.
  const bool mpi = opts.backend == "mpi";
  int mpiRank = 0;
  if (opts.backend != "threads" && !mpi)
    return fail("--backend must be 'threads' or 'mpi', got '" + opts.backend +
                "'");
#ifdef TRELLIS_HAVE_MPI
  int mpiSize = 1;
  if (mpi)
    if (llvm::Error error =
            mpiInit(&argc, &argv, mpiRank, mpiSize, opts.timeoutSeconds))
      return fail(llvm::toString(std::move(error)));
#else
  if (mpi)
    return fail("this trellis-run was built without MPI (install "
                "libopenmpi-dev and reconfigure)");
#endif
  return Driver(opts, mpi, mpiRank).run();
}
