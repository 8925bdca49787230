//===- RunMain.cpp - The trellis-run driver -------------------------------===//
//
// trellis-run's main: the command line, the re-execution with malloc
// tunables, MPI's start, and the Driver's first steps: the program loaded
// and the options checked (RunDriver.h lists the rest).
//
//===----------------------------------------------------------------------===//

#include "trellis/Execution/RunMain.h"
#include "lib/Execution/RunDriver.h"

using namespace mlir;
using namespace mlir::trellis::exec;
namespace cl = llvm::cl;
namespace rt = mlir::trellis::rt;
using namespace mlir::trellis::exec::driver;

namespace mlir::trellis::exec::driver {

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

} // namespace mlir::trellis::exec::driver

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
