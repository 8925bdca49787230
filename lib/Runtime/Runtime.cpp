//===- Runtime.cpp - C entry points, device threads, sessions -------------===//

#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace mlir::trellis::rt;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t mlir::trellis::rt::dtypeSize(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
  case TRELLIS_RT_I32:
    return 4;
  case TRELLIS_RT_F64:
  case TRELLIS_RT_I64:
    return 8;
  case TRELLIS_RT_BF16:
  case TRELLIS_RT_F16:
  case TRELLIS_RT_I16:
    return 2;
  case TRELLIS_RT_I8:
  case TRELLIS_RT_I1:
    return 1;
  default:
    return 0;
  }
}

const char *mlir::trellis::rt::dtypeName(int32_t dtype) {
  switch (dtype) {
  case TRELLIS_RT_F32:
    return "f32";
  case TRELLIS_RT_F64:
    return "f64";
  case TRELLIS_RT_I32:
    return "i32";
  case TRELLIS_RT_I64:
    return "i64";
  case TRELLIS_RT_BF16:
    return "bf16";
  case TRELLIS_RT_F16:
    return "f16";
  case TRELLIS_RT_I8:
    return "i8";
  case TRELLIS_RT_I16:
    return "i16";
  case TRELLIS_RT_I1:
    return "i1";
  default:
    return "unknown";
  }
}

const char *mlir::trellis::rt::kindName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::AllToAll:
    return "all_to_all";
  case CollectiveKind::Ppermute:
    return "ppermute";
  }
  return "collective";
}

void mlir::trellis::rt::releaseBuffers(DeviceContext &device, bool free) {
  if (free)
    for (void *ptr : device.buffers)
      std::free(ptr);
  device.buffers.clear();
}

double mlir::trellis::rt::nowUs() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch())
      .count();
}

static thread_local DeviceContext *tlsDevice = nullptr;

DeviceContext *mlir::trellis::rt::currentDevice() { return tlsDevice; }
void mlir::trellis::rt::setCurrentDevice(DeviceContext *device) {
  tlsDevice = device;
}

void mlir::trellis::rt::abortDevice() {
  DeviceContext *device = currentDevice();
  if (!device) {
    std::fprintf(stderr, "trellis runtime: a collective failed outside a "
                         "device thread\n");
    std::abort();
  }
  std::longjmp(device->abortJump, 1);
}

Communicator::~Communicator() = default;

TraceEvent mlir::trellis::rt::transferEvent(const TransferTiming &timing,
                                            double originUs, int64_t bytes) {
  TraceEvent transfer;
  transfer.name = "ppermute to device " + std::to_string(timing.targetDevice);
  transfer.category = "transfer";
  transfer.startUs = timing.sendUs - originUs;
  transfer.durUs = timing.arriveUs - timing.sendUs;
  transfer.bytes = bytes;
  transfer.peer = timing.targetDevice;
  return transfer;
}

int64_t Communicator::forwardPermute(DeviceContext &, const CollectiveDesc &,
                                     int64_t, const void *, bool) {
  fail("this backend cannot forward a ppermute (spmd.ppermute_forward); "
       "lower without forwarding (forward-ppermute=false)");
  return -1;
}

void ComputeSlots::acquire(int64_t progress) {
  std::unique_lock<std::mutex> lock(mu_);
  if (free_ > 0 && waiting_.empty()) {
    --free_;
    return;
  }
  Waiter self;
  self.progress = progress;
  self.ticket = nextTicket_++;
  waiting_.push_back(&self);
  self.cv.wait(lock, [&] { return self.granted; });
}

void ComputeSlots::release() {
  std::lock_guard<std::mutex> lock(mu_);
  if (waiting_.empty()) {
    ++free_;
    return;
  }
  auto next = std::min_element(waiting_.begin(), waiting_.end(),
                               [](const Waiter *a, const Waiter *b) {
                                 return std::tie(a->progress, a->ticket) <
                                        std::tie(b->progress, b->ticket);
                               });
  Waiter *chosen = *next;
  waiting_.erase(next);
  chosen->granted = true;
  chosen->cv.notify_one();
}

void mlir::trellis::rt::suspendCompute(DeviceContext &device) {
  if (device.slots && device.holdsSlot) {
    device.holdsSlot = false;
    device.slots->release();
  }
}

void mlir::trellis::rt::resumeCompute(DeviceContext &device) {
  if (!device.slots || device.holdsSlot)
    return;
  double start = nowUs();
  device.slots->acquire(device.collectives.load());
  device.holdsSlot = true;
  double end = nowUs();
  // Time spent queueing for a core is not compute.
  if (device.tracing && end - start > 1.0)
    device.events.push_back({"waiting for a core", "wait",
                             start - device.originUs, end - start, 0});
  device.lastMarkUs = std::max(device.lastMarkUs, end);
}

/// The device a runtime call comes from; aborts the process if none (the
/// JIT'd function was called outside a Session).
static DeviceContext &requireDevice(const char *what) {
  DeviceContext *device = currentDevice();
  if (!device) {
    std::fprintf(stderr, "trellis runtime: %s called outside a device thread\n",
                 what);
    std::abort();
  }
  return *device;
}

static std::string siteName(const DeviceContext &device, int64_t site) {
  if (device.sites && site >= 0 &&
      site < static_cast<int64_t>(device.sites->size()))
    return (*device.sites)[site].describe();
  return "collective site #" + std::to_string(site);
}

/// Closes the compute span that ends now and returns the current time.
static double markComputeEnd(DeviceContext &device) {
  double now = nowUs();
  if (device.tracing && now > device.lastMarkUs)
    device.events.push_back({"compute", "compute",
                             device.lastMarkUs - device.originUs,
                             now - device.lastMarkUs, 0});
  return now;
}

static void recordSpan(DeviceContext &device, int64_t site,
                       const char *category, double startUs, int64_t bytes) {
  double end = nowUs();
  if (device.tracing) {
    std::string name = device.sites && site >= 0 &&
                               site < static_cast<int64_t>(device.sites->size())
                           ? (*device.sites)[site].opName
                           : std::string("collective");
    device.events.push_back(
        {name, category, startUs - device.originUs, end - startUs, bytes});
  }
  device.lastMarkUs = end;
}

static bool runCollective(CollectiveKind kind, int64_t site, int64_t axes,
                          int32_t dtype, int32_t reduction,
                          std::initializer_list<int64_t> geometry,
                          int64_t count, int64_t in, int64_t out) {
  DeviceContext &device = requireDevice(kindName(kind));
  if (dtypeSize(dtype) == 0) {
    device.comm->fail(siteName(device, site) +
                      ": unsupported element type code " +
                      std::to_string(dtype));
    return false;
  }
  if ((kind == CollectiveKind::AllReduce ||
       kind == CollectiveKind::ReduceScatter) &&
      !canReduce(dtype, reduction)) {
    device.comm->fail(siteName(device, site) +
                      ": this reduction is not "
                      "supported for " +
                      dtypeName(dtype));
    return false;
  }
  CollectiveDesc desc;
  desc.site = site;
  desc.kind = kind;
  desc.axes = axes;
  desc.dtype = dtype;
  desc.reduction = reduction;
  int i = 0;
  for (int64_t g : geometry)
    desc.geometry[i++] = g;
  desc.bytes = count * dtypeSize(dtype);
  double start = markComputeEnd(device);
  suspendCompute(device);
  bool ok =
      device.comm->execute(device, desc, reinterpret_cast<const void *>(in),
                           reinterpret_cast<void *>(out));
  if (ok) {
    ++device.collectives;
    recordSpan(device, site, "collective", start, desc.bytes);
    resumeCompute(device);
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

extern "C" {

int32_t trellis_rt_abi_version(void) { return TRELLIS_RT_ABI_VERSION; }

/// Records `ptr` as a live buffer of the calling device, if any.
static void *trackBuffer(void *ptr) {
  if (DeviceContext *device = currentDevice(); device && ptr)
    device->buffers.insert(ptr);
  return ptr;
}

void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return trackBuffer(std::malloc(size ? size : 1));
}

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  // aligned_alloc wants a size that is a multiple of the alignment.
  uint64_t rounded = (size + alignment - 1) / alignment * alignment;
  return trackBuffer(
      std::aligned_alloc(alignment, rounded ? rounded : alignment));
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (DeviceContext *device = currentDevice())
    device->buffers.erase(ptr);
  std::free(ptr);
}

void trellis_rt_all_reduce(int64_t site, int64_t axes, int32_t dtype,
                           int32_t reduction, int64_t in, int64_t out,
                           int64_t count) {
  if (!runCollective(CollectiveKind::AllReduce, site, axes, dtype, reduction,
                     {count}, count, in, out))
    abortDevice();
}

void trellis_rt_all_gather(int64_t site, int64_t axes, int32_t dtype,
                           int64_t in, int64_t out, int64_t outer,
                           int64_t inner) {
  if (!runCollective(CollectiveKind::AllGather, site, axes, dtype, 0,
                     {outer, inner}, outer * inner, in, out))
    abortDevice();
}

void trellis_rt_reduce_scatter(int64_t site, int64_t axes, int32_t dtype,
                               int32_t reduction, int64_t in, int64_t out,
                               int64_t outer, int64_t inner) {
  if (!runCollective(CollectiveKind::ReduceScatter, site, axes, dtype,
                     reduction, {outer, inner}, outer * inner, in, out))
    abortDevice();
}

void trellis_rt_all_to_all(int64_t site, int64_t axes, int32_t dtype,
                           int64_t in, int64_t out, int64_t splitOuter,
                           int64_t splitInner, int64_t concatOuter,
                           int64_t concatInner) {
  if (!runCollective(CollectiveKind::AllToAll, site, axes, dtype, 0,
                     {splitOuter, splitInner, concatOuter, concatInner},
                     splitOuter * splitInner, in, out))
    abortDevice();
}

void trellis_rt_ppermute(int64_t site, int64_t axes, int32_t dtype, int64_t in,
                         int64_t out, int64_t count) {
  if (!runCollective(CollectiveKind::Ppermute, site, axes, dtype, 0, {count},
                     count, in, out))
    abortDevice();
}

/// Fails the run when `handle` is a direct ppermute's, which `fn` cannot
/// take (its buffers are named again at trellis_rt_ppermute_wait_direct).
static void rejectDirectHandle(DeviceContext &device, int64_t handle,
                               const char *what) {
  if (handle >= 0 &&
      static_cast<size_t>(handle) < device.directPermutes.size() &&
      device.directPermutes[handle].second) {
    device.comm->fail(std::string(what) + " the direct ppermute handle " +
                      std::to_string(handle));
    abortDevice();
  }
}

static CollectiveDesc permuteDesc(int64_t site, int64_t axes, int32_t dtype,
                                  int64_t count) {
  CollectiveDesc desc;
  desc.site = site;
  desc.kind = CollectiveKind::Ppermute;
  desc.axes = axes;
  desc.dtype = dtype;
  desc.geometry[0] = count;
  desc.bytes = count * dtypeSize(dtype);
  return desc;
}

static int64_t startPermute(const char *fn, int64_t site, int64_t axes,
                            int32_t dtype, int64_t in, int64_t out,
                            int64_t count) {
  DeviceContext &device = requireDevice(fn);
  CollectiveDesc desc = permuteDesc(site, axes, dtype, count);
  double start = markComputeEnd(device);
  TransferTiming timing;
  int64_t handle = device.comm->startPermute(
      device, desc, reinterpret_cast<const void *>(in),
      reinterpret_cast<void *>(out), &timing);
  if (handle < 0)
    abortDevice();
  if (out) {
    if (device.directPermutes.size() <= static_cast<size_t>(handle))
      device.directPermutes.resize(handle + 1, {0, 0});
    device.directPermutes[handle] = {in, out};
  }
  recordSpan(device, site, "collective", start, desc.bytes);
  if (device.tracing && timing.targetDevice >= 0)
    device.events.push_back(transferEvent(timing, device.originUs, desc.bytes));
  return handle;
}

int64_t trellis_rt_ppermute_start(int64_t site, int64_t axes, int32_t dtype,
                                  int64_t in, int64_t count) {
  return startPermute("trellis_rt_ppermute_start", site, axes, dtype, in, 0,
                      count);
}

int64_t trellis_rt_ppermute_start_direct(int64_t site, int64_t axes,
                                         int32_t dtype, int64_t in, int64_t out,
                                         int64_t count) {
  if (!out) {
    requireDevice("trellis_rt_ppermute_start_direct")
        .comm->fail("trellis_rt_ppermute_start_direct without an output "
                    "buffer");
    abortDevice();
  }
  return startPermute("trellis_rt_ppermute_start_direct", site, axes, dtype, in,
                      out, count);
}

int64_t trellis_rt_ppermute_forward(int64_t site, int64_t axes, int32_t dtype,
                                    int64_t handle, int64_t addend,
                                    int64_t count, int64_t keep) {
  DeviceContext &device = requireDevice("trellis_rt_ppermute_forward");
  rejectDirectHandle(device, handle, "trellis_rt_ppermute_forward of");
  CollectiveDesc desc = permuteDesc(site, axes, dtype, count);
  double start = markComputeEnd(device);
  int64_t next = device.comm->forwardPermute(
      device, desc, handle, reinterpret_cast<const void *>(addend), keep != 0);
  if (next < 0)
    abortDevice();
  recordSpan(device, site, "collective", start, desc.bytes);
  return next;
}

static void waitPermute(DeviceContext &device, int64_t handle, int64_t out) {
  double start = markComputeEnd(device);
  // A device whose data has arrived keeps its compute slot.
  if (device.slots && !device.comm->permuteReady(device, handle))
    suspendCompute(device);
  if (!device.comm->waitPermute(device, handle, reinterpret_cast<void *>(out)))
    abortDevice();
  ++device.collectives;
  recordSpan(device, -1, "wait", start, 0);
  if (device.tracing)
    device.events.back().name = "ppermute wait";
  resumeCompute(device);
}

void trellis_rt_ppermute_wait(int64_t handle, int64_t out) {
  DeviceContext &device = requireDevice("trellis_rt_ppermute_wait");
  rejectDirectHandle(device, handle, "trellis_rt_ppermute_wait on");
  waitPermute(device, handle, out);
}

void trellis_rt_ppermute_wait_direct(int64_t handle, int64_t in, int64_t out,
                                     int64_t /*in_alias*/) {
  DeviceContext &device = requireDevice("trellis_rt_ppermute_wait_direct");
  if (handle < 0 ||
      static_cast<size_t>(handle) >= device.directPermutes.size() ||
      device.directPermutes[handle] != std::make_pair(in, out)) {
    device.comm->fail("trellis_rt_ppermute_wait_direct: handle " +
                      std::to_string(handle) +
                      " was not started with these buffers");
    abortDevice();
  }
  device.directPermutes[handle] = {0, 0};
  waitPermute(device, handle, 0);
}

int64_t trellis_rt_axis_index(int64_t axes) {
  DeviceContext &device = requireDevice("trellis_rt_axis_index");
  return device.mesh->rankInGroup(device.position, unpackAxes(axes));
}

/// Strided copy between two memrefs of any rank; the symbol the upstream
/// memref-to-LLVM lowering calls for copies it cannot do with memcpy.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};

void memrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto *s = static_cast<int64_t *>(src->descriptor);
  auto *d = static_cast<int64_t *>(dst->descriptor);
  char *sData = reinterpret_cast<char *>(s[1]) + s[2] * elemSize;
  char *dData = reinterpret_cast<char *>(d[1]) + d[2] * elemSize;
  if (rank == 0) {
    std::memcpy(dData, sData, elemSize);
    return;
  }
  const int64_t *sizes = s + 3;
  const int64_t *sStrides = s + 3 + rank;
  const int64_t *dStrides = d + 3 + rank;
  int64_t total = 1;
  for (int64_t i = 0; i < rank; ++i)
    total *= sizes[i];
  if (total == 0)
    return;
  // Copy runs of the innermost dimension with memcpy when both sides are
  // contiguous along it (the usual case: a slice of rows or columns), and
  // the whole array at once when both are dense and row-major.
  auto denseRowMajor = [&](const int64_t *strides) {
    int64_t expected = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (sizes[i] != 1 && strides[i] != expected)
        return false;
      expected *= sizes[i];
    }
    return true;
  };
  if (denseRowMajor(sStrides) && denseRowMajor(dStrides)) {
    std::memcpy(dData, sData, total * elemSize);
    return;
  }
  bool innerRuns = sStrides[rank - 1] == 1 && dStrides[rank - 1] == 1;
  int64_t run = innerRuns ? sizes[rank - 1] : 1;
  int64_t outerRank = innerRuns ? rank - 1 : rank;
  std::vector<int64_t> idx(rank, 0);
  while (true) {
    int64_t so = 0, dof = 0;
    for (int64_t i = 0; i < outerRank; ++i) {
      so += idx[i] * sStrides[i];
      dof += idx[i] * dStrides[i];
    }
    std::memcpy(dData + dof * elemSize, sData + so * elemSize, run * elemSize);
    int64_t i = outerRank - 1;
    for (; i >= 0; --i) {
      if (++idx[i] < sizes[i])
        break;
      idx[i] = 0;
    }
    if (i < 0)
      break;
  }
}

} // extern "C"

//===----------------------------------------------------------------------===//
// Crash reports
//===----------------------------------------------------------------------===//

/// Writes `text` to stderr with async-signal-safe calls only.
static void writeStderr(const char *text) {
  size_t len = std::strlen(text);
  while (len > 0) {
    ssize_t n = ::write(2, text, len);
    if (n <= 0)
      return;
    text += n;
    len -= static_cast<size_t>(n);
  }
}

static void onDeviceCrash(int signal) {
  const char *what = signal == SIGFPE ? "SIGFPE (arithmetic error, such as an "
                                        "integer division by zero)"
                     : signal == SIGSEGV ? "SIGSEGV (invalid memory access)"
                     : signal == SIGBUS  ? "SIGBUS (invalid memory access)"
                                         : "SIGILL (illegal instruction)";
  char number[32];
  DeviceContext *device = currentDevice();
  writeStderr("trellis-run: error: ");
  if (device) {
    int64_t id = device->deviceId;
    int len = 0;
    char digits[32];
    do {
      digits[len++] = static_cast<char>('0' + id % 10);
      id /= 10;
    } while (id > 0 && len < 30);
    for (int i = 0; i < len; ++i)
      number[i] = digits[len - 1 - i];
    number[len] = '\0';
    writeStderr("device ");
    writeStderr(number);
    writeStderr(" crashed with ");
  } else {
    writeStderr("the process crashed with ");
  }
  writeStderr(what);
  writeStderr(device ? " in its compiled code\n" : "\n");
  ::_exit(1);
}

static void installCrashHandlers() {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = onDeviceCrash;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGFPE, SIGBUS, SIGILL})
    sigaction(signal, &action, nullptr);
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

/// The device threads of a session, one per mesh position, created on
/// first use and kept across runs, so a device runs on the same thread (and
/// malloc arena, with its memory already mapped) every time. With fresh
/// threads per run, one device per run computed several times slower than
/// the others (most likely the thread that got a fresh arena, faulting its
/// buffers in) and held back every device that waited for its data.
struct Session::DeviceThreads {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::thread> threads; ///< per position; started on first use
  std::vector<char> busy;           ///< per position: `body` to run
  std::function<void(int64_t)> body;
  bool stop = false;

  explicit DeviceThreads(int64_t n) : threads(n), busy(n, 0) {}
  ~DeviceThreads() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    for (std::thread &t : threads)
      if (t.joinable())
        t.join();
  }

  /// Runs `run(p)` on the thread of each position in `positions`.
  void start(const std::vector<int64_t> &positions,
             std::function<void(int64_t)> run) {
    std::lock_guard<std::mutex> lock(mu);
    body = std::move(run);
    for (int64_t p : positions) {
      busy[p] = 1;
      if (!threads[p].joinable())
        threads[p] = std::thread([this, p] { loop(p); });
    }
    cv.notify_all();
  }

  /// Blocks until every started body has returned.
  void waitIdle() {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] {
      return std::find(busy.begin(), busy.end(), 1) == busy.end();
    });
  }

private:
  void loop(int64_t p) {
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      cv.wait(lock, [&] { return stop || busy[p]; });
      if (stop)
        return;
      lock.unlock();
      body(p);
      lock.lock();
      busy[p] = 0;
      cv.notify_all();
    }
  }
};

Session::Session(MeshShape mesh, std::vector<SiteInfo> sites,
                 SessionOptions options)
    : mesh_(std::move(mesh)), sites_(std::move(sites)),
      options_(std::move(options)) {}

Session::~Session() = default;

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
                  : createInProcessCommunicator(mesh_, sites_, options_.link);
    comm = ownComm.get();
  }
  // The devices this process runs.
  std::vector<int64_t> local;
  for (int64_t p = 0; p < n; ++p)
    if (options_.onlyPosition < 0 || options_.onlyPosition == p)
      local.push_back(p);
  const int64_t numLocal = static_cast<int64_t>(local.size());
  std::unique_ptr<ComputeSlots> slots;
  if (options_.computeSlots > 0)
    slots = std::make_unique<ComputeSlots>(options_.computeSlots);
  devices_.clear();
  const double origin = nowUs();
  for (int64_t p = 0; p < n; ++p) {
    auto device = std::make_unique<DeviceContext>();
    device->position = p;
    device->deviceId = mesh_.deviceAt(p);
    device->comm = comm;
    device->mesh = &mesh_;
    device->sites = &sites_;
    device->tracing = options_.trace;
    device->originUs = origin;
    device->slots = slots.get();
    devices_.push_back(std::move(device));
  }

  std::atomic<int64_t> finished{0};
  // Signalled when a device finishes, so the session wakes at once (a
  // polling interval would add up to its length to every measured run).
  std::mutex finishedMu;
  std::condition_variable finishedCv;
  if (!threads_)
    threads_ = std::make_unique<DeviceThreads>(n);
  threads_->start(local, [&](int64_t p) {
    DeviceContext &device = *devices_[p];
    if (hooks.before)
      hooks.before(p);
    setCurrentDevice(&device);
    device.lastMarkUs = nowUs();
    // volatile: read after a possible longjmp out of the entry.
    volatile bool returned = false;
    if (setjmp(device.abortJump) == 0) {
      resumeCompute(device);
      entry(args[p]);
      markComputeEnd(device);
      returned = true;
    }
    suspendCompute(device);
    device.returned = returned;
    if (returned && hooks.after && !comm->hasFailed(nullptr))
      hooks.after(p);
    comm->deviceFinished(device);
    setCurrentDevice(nullptr);
    {
      std::lock_guard<std::mutex> lock(finishedMu);
      ++finished;
    }
    finishedCv.notify_all();
  });

  // Wait, printing progress on long runs and enforcing the time limit.
  double lastProgress = origin;
  bool timedOut = false;
  while (finished.load() < numLocal) {
    {
      std::unique_lock<std::mutex> lock(finishedMu);
      finishedCv.wait_for(lock, std::chrono::milliseconds(20),
                          [&] { return finished.load() == numLocal; });
    }
    double now = nowUs();
    double elapsed = (now - origin) * 1e-6;
    if (options_.progress && now - lastProgress >= 1e6) {
      lastProgress = now;
      std::fprintf(stderr,
                   "[trellis] running on %lld devices: %.1f s, %lld/%lld "
                   "finished, %lld collectives done\n",
                   (long long)numLocal, elapsed, (long long)finished.load(),
                   (long long)numLocal, (long long)collectivesCompleted());
    }
    if (!timedOut && options_.timeoutSeconds > 0 &&
        elapsed > options_.timeoutSeconds) {
      timedOut = true;
      comm->fail("the run exceeded the time limit of " +
                 std::to_string(static_cast<int>(options_.timeoutSeconds)) +
                 " s (--timeout)");
    }
    if (timedOut && elapsed > options_.timeoutSeconds + 2) {
      // A device is stuck in compiled code that never reaches the runtime
      // again; it cannot be interrupted, so the process ends here.
      std::string message;
      comm->hasFailed(&message);
      std::fprintf(stderr, "error: %s; %lld device(s) did not stop\n",
                   message.c_str(), (long long)(numLocal - finished.load()));
      std::fflush(stderr);
      std::_Exit(3);
    }
  }
  // The tasks refer to this frame: wait until every one has returned.
  threads_->waitIdle();
  if (options_.trace)
    for (int64_t p : local)
      comm->collectTraceEvents(*devices_[p]);
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

std::vector<std::vector<TraceEvent>> Session::traces() const {
  std::vector<std::vector<TraceEvent>> result(mesh_.numDevices());
  for (const auto &device : devices_)
    result[device->deviceId] = device->events;
  return result;
}

int64_t Session::collectivesCompleted() const {
  int64_t total = 0;
  for (const auto &device : devices_)
    total += device->collectives.load();
  return total;
}
