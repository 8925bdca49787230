//===- MpiRun.cpp - trellis-run with one device per MPI rank --------------===//

#include "lib/Execution/MpiRun.h"
#include "lib/Execution/ClockReport.h"
#include "lib/Execution/Error.h"
#include "lib/Runtime/MpiCommunicator.h"

#include <mpi.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#include <sanitizer/lsan_interface.h>
#define TRELLIS_HAVE_LSAN 1
#endif
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

using namespace mlir::trellis::exec;
namespace rt = mlir::trellis::rt;

static int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

llvm::Error mlir::trellis::exec::mpiInit(int *argc, char ***argv, int &rank,
                                         int &size, double timeoutSeconds) {
  int provided = 0;
  // MPI_Init waits for every process of the job; one that is not an MPI
  // program (or never starts) would keep this rank waiting forever.
  std::mutex mutex;
  std::condition_variable initialised;
  bool done = false;
  std::thread watchdog;
  if (timeoutSeconds > 0 && timeoutSeconds < 1e9)
    watchdog = std::thread([&] {
      std::unique_lock<std::mutex> lock(mutex);
      if (initialised.wait_for(lock,
                               std::chrono::duration<double>(timeoutSeconds),
                               [&] { return done; }))
        return;
      std::fprintf(stderr,
                   "trellis-run: error: MPI start-up (MPI_Init) did not "
                   "complete within --timeout %g s: is every process of the "
                   "job a trellis-run that reaches it?\n",
                   timeoutSeconds);
      std::fflush(stderr);
      std::_Exit(1);
    });
#ifdef TRELLIS_HAVE_LSAN
  // What MPI allocates while starting is its own (and partly lost in
  // plugins it loads and unloads again): not Trellis's leaks to report.
  __lsan_disable();
#endif
  int status = MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
#ifdef TRELLIS_HAVE_LSAN
  __lsan_enable();
#endif
  if (watchdog.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    initialised.notify_all();
    watchdog.join();
  }
  if (status != MPI_SUCCESS)
    return makeError("MPI_Init_thread failed");
  // The device runs on a thread of its own while the main thread watches
  // the time limit; only one of them calls MPI at a time.
  if (provided < MPI_THREAD_SERIALIZED)
    return makeError("the MPI library does not support MPI_THREAD_SERIALIZED");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return llvm::Error::success();
}

void mlir::trellis::exec::mpiFinalize() {
#ifdef TRELLIS_HAVE_LSAN
  // Look for leaks now, while the MPI library's own state is reachable:
  // MPI_Finalize leaves much of it allocated and unloads the plugins that
  // allocated it, so a check at exit would report it under names it cannot
  // even resolve. This also turns the check at exit off.
  __lsan_do_leak_check();
#endif
  MPI_Finalize();
}

void mlir::trellis::exec::mpiBroadcastFromRank0(double &value) {
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

void mlir::trellis::exec::mpiFatal(const std::string &message) {
  std::fprintf(stderr, "trellis-run: error: rank %d: %s\n", worldRank(),
               message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

/// This rank's device times of the last run, gathered on rank 0 by device
/// id (empty on the other ranks).
static std::vector<rt::DeviceTimes> gatherTimes(const Executor &exec, int rank,
                                                int size) {
  rt::DeviceTimes mine = exec.deviceTimes()[rank];
  constexpr int kFields = 6;
  double fields[kFields] = {mine.computeUs, mine.commUs,
                            mine.idleUs,    mine.transferUs,
                            mine.endUs,     double(mine.reorderedWaits)};
  std::vector<double> all(rank == 0 ? kFields * size : 0);
  MPI_Gather(fields, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  std::vector<rt::DeviceTimes> times;
  for (int r = 0; rank == 0 && r < size; ++r) {
    const double *f = &all[kFields * r];
    times.push_back({f[0], f[1], f[2], f[3], f[4], static_cast<int64_t>(f[5])});
  }
  return times;
}

int mlir::trellis::exec::runOnMpi(Executor &exec, const MpiRunConfig &config,
                                  std::vector<HostArray> &outputs,
                                  std::vector<double> &times,
                                  MpiClocks *clocks) {
  const rt::MeshShape &mesh = exec.mesh();
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != mesh.numDevices()) {
    if (rank == 0)
      std::fprintf(stderr,
                   "trellis-run: error: @%s runs on %lld devices but mpirun "
                   "started %d ranks (-np must equal the number of devices; "
                   "one device per rank)\n",
                   exec.entryName().c_str(),
                   static_cast<long long>(mesh.numDevices()), size);
    return 1;
  }
  const int64_t position = rt::mpiLocalPosition(mesh, rank);
  if (position < 0)
    mpiFatal("no mesh position has device id " + std::to_string(rank));

  rt::MpiOptions mpiOptions;
  mpiOptions.checkCollectives = config.checkCollectives;
  mpiOptions.virtualClock = config.virtualClock;
  mpiOptions.link = config.link;
  std::unique_ptr<rt::Communicator> comm =
      rt::createMpiCommunicator(mesh, exec.sites(), mpiOptions);
  exec.runOnly(position, comm.get());

  // This rank's blocks only: memory per rank scales with the shard.
  std::vector<Executor::LocalBlock> wanted = exec.localInputs(position);
  std::vector<HostArray> blocks(wanted.size());
  for (size_t k = 0; k < wanted.size(); ++k) {
    const Executor::LocalBlock &w = wanted[k];
    const TensorInfo &info = exec.inputs()[w.index];
    const std::string &path = config.inputFiles[w.index];
    if (!path.empty()) {
      NpyBlock request;
      request.what = "argument " + info.name;
      request.dtype = info.dtype;
      request.globalShape = info.shape;
      request.offset = w.offset;
      request.blockShape = w.shape;
      llvm::Expected<HostArray> block = readNpyBlock(path, request);
      if (!block)
        mpiFatal(llvm::toString(block.takeError()));
      blocks[k] = std::move(*block);
      continue;
    }
    blocks[k].allocate(w.dtype, w.shape);
    fillBlock(blocks[k], info.shape, w.offset, config.random,
              config.seed * 1000003u + static_cast<uint64_t>(w.index));
  }

  std::vector<HostArray> results;
  std::vector<std::vector<double>> segments; ///< this rank's, per timed run
  for (int i = 0; i < config.warmup; ++i)
    if (llvm::Error error = exec.runLocal(position, blocks, results))
      mpiFatal(llvm::toString(std::move(error)));
  for (int i = 0; i < std::max(1, config.repeat); ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error = exec.runLocal(position, blocks, results))
      mpiFatal(llvm::toString(std::move(error)));
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    double slowest = ms;
    MPI_Reduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      times.push_back(slowest);
    if (config.virtualClock) {
      std::vector<rt::DeviceTimes> gathered = gatherTimes(exec, rank, size);
      if (clocks)
        clocks->runs.push_back(std::move(gathered));
      segments.push_back(exec.computeSegments()[rank]);
    }
  }
  // Virtual clocks: one more run with each compute segment at its fastest
  // (as with threads), if every rank's runs had the same segments.
  if (config.virtualClock && segments.size() >= 2) {
    std::optional<std::vector<double>> fastest = fastestSegments(segments);
    int same = fastest.has_value(), all = 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all) {
      std::vector<std::vector<double>> replay(size);
      replay[rank] = std::move(*fastest);
      exec.replayComputeSegments(std::move(replay));
      if (llvm::Error error = exec.runLocal(position, blocks, results))
        mpiFatal(llvm::toString(std::move(error)));
      std::vector<rt::DeviceTimes> gathered = gatherTimes(exec, rank, size);
      if (clocks)
        clocks->replayed = std::move(gathered);
      exec.replayComputeSegments({});
    }
  }

  // Assemble every output on rank 0 from the ranks that own a block of it
  // (one owner per replicated block).
  std::vector<Executor::LocalBlock> mine = exec.localOutputs(position);
  outputs.assign(mine.size(), HostArray());
  for (size_t j = 0; j < mine.size(); ++j) {
    const HostArray &block = results[mine[j].index];
    const int64_t bytes = static_cast<int64_t>(block.data.size());
    if (bytes > INT_MAX)
      mpiFatal("output " + exec.outputs()[j].name + " has blocks of " +
               std::to_string(bytes) + " bytes, too large to gather to rank 0");
    std::vector<int> counts(size, 0), displs(size, 0);
    std::vector<Executor::LocalBlock> owners(size);
    if (rank == 0) {
      int total = 0;
      for (int r = 0; r < size; ++r) {
        owners[r] = exec.localOutputs(mesh.positionOf(r))[j];
        counts[r] = owners[r].owned ? static_cast<int>(bytes) : 0;
        displs[r] = total;
        if (static_cast<int64_t>(total) + counts[r] > INT_MAX)
          mpiFatal("output " + exec.outputs()[j].name +
                   " is too large to gather to rank 0");
        total += counts[r];
      }
    }
    std::vector<char> gathered;
    if (rank == 0)
      gathered.resize(static_cast<size_t>(displs[size - 1] + counts[size - 1]));
    MPI_Gatherv(block.data.data(), mine[j].owned ? static_cast<int>(bytes) : 0,
                MPI_BYTE, gathered.data(), counts.data(), displs.data(),
                MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank != 0)
      continue;
    HostArray &out = outputs[j];
    out.allocate(exec.outputs()[j].dtype, exec.outputs()[j].shape);
    for (int r = 0; r < size; ++r)
      if (counts[r])
        rt::copyBlock(out.shape, owners[r].offset, owners[r].shape,
                      out.elementBytes(), gathered.data() + displs[r],
                      out.data.data(), /*toBlock=*/false);
  }
  return 0;
}
