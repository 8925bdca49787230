//===- Session.cpp - Runs a device function on every device ---------------===//

#include "lib/Runtime/CrashHandler.h"
#include "lib/Runtime/DeviceThreads.h"
#include "trellis/Runtime/Runtime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace mlir::trellis::rt;

Session::Session(MeshShape mesh, std::vector<SiteInfo> sites,
                 SessionOptions options)
    : mesh_(std::move(mesh)), sites_(std::move(sites)),
      options_(std::move(options)) {}

Session::~Session() = default;

/// Counts the devices of a run that have finished. Signalled as each
/// does, so the session wakes at once (a polling interval would add up to
/// its length to every measured run).
struct Session::FinishedDevices {
  std::atomic<int64_t> count{0};
  std::mutex mu;
  std::condition_variable cv;

  void add() {
    {
      std::lock_guard<std::mutex> lock(mu);
      ++count;
    }
    cv.notify_all();
  }
  /// Waits until `total` devices have finished or `timeout` has passed.
  void waitFor(int64_t total, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, timeout, [&] { return count.load() == total; });
  }
};

/// Runs `entry(args)` as `device`, the calling thread's device, holding a
/// compute slot while it computes. Returns whether the entry returned
/// (false: it stopped on an error, and abortDevice unwound to here).
static bool callEntry(DeviceContext &device, Session::Entry entry,
                      void **args) {
  // volatile: read after a possible longjmp out of the entry.
  volatile bool returned = false;
  if (setjmp(device.abortJump) == 0) {
    resumeCompute(device);
    // Every device's clock starts at 0 when it has a core to compute on.
    device.lastMarkUs = device.virtualClock ? 0 : nowUs();
    device.cpuMarkUs = device.virtualClock ? threadCpuUs() : 0;
    entry(args);
    markComputeEnd(device);
    device.times.endUs = device.clockUs;
    returned = true;
  }
  suspendCompute(device);
  return returned;
}

std::vector<int64_t> Session::localPositions() const {
  std::vector<int64_t> local;
  for (int64_t p = 0; p < mesh_.numDevices(); ++p)
    if (options_.onlyPosition < 0 || options_.onlyPosition == p)
      local.push_back(p);
  return local;
}

double Session::createDevices(Communicator *comm, ComputeSlots *slots) {
  devices_.clear();
  const double origin = nowUs();
  for (int64_t p = 0; p < mesh_.numDevices(); ++p) {
    auto device = std::make_unique<DeviceContext>();
    device->position = p;
    device->deviceId = mesh_.deviceAt(p);
    device->comm = comm;
    device->mesh = &mesh_;
    device->sites = &sites_;
    device->tracing = options_.trace;
    device->virtualClock = options_.virtualClock;
    device->referenceKernels = options_.referenceKernels;
    device->originUs = options_.virtualClock ? 0 : origin;
    if (options_.virtualClock && !options_.profile.name.empty()) {
      device->profile = &options_.profile;
      device->dryRun = options_.dryRun;
    }
    if (static_cast<size_t>(device->deviceId) < replay_.size())
      device->replay = &replay_[device->deviceId];
    device->slots = slots;
    devices_.push_back(std::move(device));
  }
  return origin;
}

void Session::awaitDevices(Communicator &comm, FinishedDevices &finished,
                           int64_t numLocal, double originUs) const {
  double lastProgress = originUs;
  bool timedOut = false;
  while (finished.count.load() < numLocal) {
    finished.waitFor(numLocal, std::chrono::milliseconds(20));
    double now = nowUs();
    double elapsed = (now - originUs) * 1e-6;
    if (options_.progress && now - lastProgress >= 1e6) {
      lastProgress = now;
      std::fprintf(stderr,
                   "[trellis] running on %lld devices: %.1f s, %lld/%lld "
                   "finished, %lld collectives done\n",
                   (long long)numLocal, elapsed,
                   (long long)finished.count.load(), (long long)numLocal,
                   (long long)collectivesCompleted());
    }
    if (!timedOut && options_.timeoutSeconds > 0 &&
        elapsed > options_.timeoutSeconds) {
      timedOut = true;
      comm.fail("the run exceeded the time limit of " +
                std::to_string(static_cast<int>(options_.timeoutSeconds)) +
                " s (--timeout)");
    }
    if (timedOut && elapsed > options_.timeoutSeconds + 2) {
      // A device is stuck in compiled code that never reaches the runtime
      // again; it cannot be interrupted, so the process ends here.
      std::string message;
      comm.hasFailed(&message);
      std::fprintf(stderr, "error: %s; %lld device(s) did not stop\n",
                   message.c_str(),
                   (long long)(numLocal - finished.count.load()));
      std::fflush(stderr);
      std::_Exit(3);
    }
  }
}

bool Session::run(Entry entry, const std::vector<void **> &args,
                  std::string &error, const DeviceHooks &hooks) {
  const int64_t n = mesh_.numDevices();
  if (static_cast<int64_t>(args.size()) != n) {
    error = "internal error: " + std::to_string(args.size()) +
            " argument lists for " + std::to_string(n) + " devices";
    return false;
  }
  if (options_.catchSignals)
    installCrashHandlers();
  std::unique_ptr<Communicator> ownComm;
  Communicator *comm = options_.communicator;
  if (!comm) {
    ownComm = options_.referenceCollectives
                  ? createReferenceCommunicator(mesh_, sites_)
                  : createInProcessCommunicator(mesh_, sites_, options_.link,
                                                options_.virtualClock);
    comm = ownComm.get();
  }
  const std::vector<int64_t> local = localPositions();
  std::unique_ptr<ComputeSlots> slots;
  if (options_.computeSlots > 0)
    slots = std::make_unique<ComputeSlots>(options_.computeSlots);
  const double origin = createDevices(comm, slots.get());

  FinishedDevices finished;
  if (!threads_)
    threads_ = std::make_unique<DeviceThreads>(n);
  threads_->start(local, [&](int64_t p) {
    DeviceContext &device = *devices_[p];
    if (hooks.before)
      hooks.before(p);
    setCurrentDevice(&device);
    device.returned = callEntry(device, entry, args[p]);
    if (device.returned && hooks.after && !comm->hasFailed(nullptr))
      hooks.after(p);
    comm->deviceFinished(device);
    setCurrentDevice(nullptr);
    finished.add();
  });
  awaitDevices(*comm, finished, static_cast<int64_t>(local.size()), origin);
  // The tasks refer to this frame: wait until every one has returned.
  threads_->waitIdle();
  std::string message;
  const bool failed = comm->hasFailed(&message);
  // A stopped device's buffers are freed only now: another device may have
  // been copying from them when it stopped, so they wait until no device
  // runs and, the session's own communicator destroyed (its transfer thread
  // joined), no transfer is in flight. Under a communicator the session
  // does not own (MPI, where a failure ends the process) they are left.
  const bool quiescent = ownComm != nullptr;
  ownComm.reset();
  for (int64_t p : local)
    releaseBuffers(*devices_[p], quiescent && !devices_[p]->returned);
  if (failed) {
    error = message;
    return false;
  }
  return true;
}

/// Per device id, one field of each device of the last run.
template <typename T>
static std::vector<T>
byDeviceId(const std::vector<std::unique_ptr<DeviceContext>> &devices,
           int64_t numDevices, T DeviceContext::*field) {
  std::vector<T> result(numDevices);
  for (const auto &device : devices)
    result[device->deviceId] = (*device).*field;
  return result;
}

std::vector<std::vector<TraceEvent>> Session::traces() const {
  return byDeviceId(devices_, mesh_.numDevices(), &DeviceContext::events);
}

std::vector<DeviceTimes> Session::deviceTimes() const {
  return byDeviceId(devices_, mesh_.numDevices(), &DeviceContext::times);
}

std::vector<std::vector<double>> Session::computeSegments() const {
  return byDeviceId(devices_, mesh_.numDevices(), &DeviceContext::segments);
}

int64_t Session::collectivesCompleted() const {
  int64_t total = 0;
  for (const auto &device : devices_)
    total += device->collectives.load();
  return total;
}
