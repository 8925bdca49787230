//===- RunSession.cpp - trellis-run's compile and run steps ---------------===//
//
// The Driver's steps that compile the program and run it: the ranks'
// agreement on it under MPI, compiling, reading inputs and the timed runs
// (with the replay of the fastest compute segments under virtual clocks).
//
//===----------------------------------------------------------------------===//

#include "lib/Execution/RunDriver.h"

using namespace mlir;
using namespace mlir::trellis::exec;
namespace cl = llvm::cl;
namespace rt = mlir::trellis::rt;

namespace mlir::trellis::exec::driver {

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

} // namespace mlir::trellis::exec::driver
