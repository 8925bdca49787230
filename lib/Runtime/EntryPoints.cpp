//===- EntryPoints.cpp - The C ABI that device code calls -----------------===//
//
// The runtime's entry points (TrellisRuntime.h, TrellisRuntimeABI.def):
// collectives, asynchronous ppermutes, the axis index and heap buffers,
// each made on behalf of the device of the calling thread.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/CollectiveKernels.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

using namespace mlir::trellis::rt;

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

/// Records the runtime call that began at `startUs` (markComputeEnd) and
/// ends now: on the virtual clock, where the communicator left it, its wait
/// for peers first.
static void recordSpan(DeviceContext &device, int64_t site,
                       const char *category, double startUs, int64_t bytes) {
  double end = device.virtualClock ? device.clockUs : nowUs();
  if (device.tracing) {
    std::string name = device.sites && site >= 0 &&
                               site < static_cast<int64_t>(device.sites->size())
                           ? (*device.sites)[site].opName
                           : std::string("collective");
    if (device.virtualClock && device.callIdleUs > 0) {
      device.events.push_back({"waiting for peers", "wait",
                               startUs - device.originUs, device.callIdleUs,
                               0});
      startUs += device.callIdleUs;
    }
    device.events.push_back(
        {name, category, startUs - device.originUs, end - startUs, bytes});
  }
  device.lastMarkUs = end;
  endRuntimeCall(device);
}

/// The description of a collective, or false (the run failed) for an
/// element type or reduction the runtime lacks.
static bool describe(DeviceContext &device, CollectiveKind kind, int64_t site,
                     int64_t axes, int32_t dtype, int32_t reduction,
                     std::initializer_list<int64_t> geometry, int64_t count,
                     CollectiveDesc &desc) {
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
  desc.site = site;
  desc.kind = kind;
  desc.axes = axes;
  desc.dtype = dtype;
  desc.reduction = reduction;
  int i = 0;
  for (int64_t g : geometry)
    desc.geometry[i++] = g;
  desc.bytes = count * dtypeSize(dtype);
  return true;
}

/// The bytes a collective writes on each member.
static int64_t resultBytes(const DeviceContext &device,
                           const CollectiveDesc &desc) {
  return desc.kind == CollectiveKind::AllGather
             ? desc.bytes * device.mesh->groupSize(unpackAxes(desc.axes))
             : desc.bytes;
}

/// Runs the started collective `started` into `out` (the device's compute
/// suspended since `start`) and releases what its start held.
static bool runStarted(DeviceContext &device, StartedCollective &started,
                       void *out, double start) {
  if (!device.comm->execute(device, started.desc, started.input.data(), out,
                            &started.at))
    return false;
  ++device.collectives;
  recordSpan(device, started.desc.site, "wait", start, started.desc.bytes);
  started.at.pending.reset();
  std::vector<char>().swap(started.input);
  return true;
}

/// On virtual clocks, before the device runs a collective it started as
/// its `order`-th (a synchronous one: the count so far), completes those
/// it started earlier and has not waited for, in start order, into their
/// `result`: links serve a device's collectives in the order they were
/// started, and virtual time books each when it runs. SPMD programs start
/// their collectives in one order on every device, so each group still
/// meets them in one order. Called with the device's compute suspended.
static bool completeEarlierStarts(DeviceContext &device, int64_t order) {
  if (!device.virtualClock)
    return true;
  for (;;) {
    StartedCollective *first = nullptr;
    for (StartedCollective &other : device.startedCollectives)
      if (other.live && !other.completed && other.order < order &&
          (!first || other.order < first->order))
        first = &other;
    if (!first)
      return true;
    ++device.times.reorderedWaits;
    first->result.resize(resultBytes(device, first->desc));
    if (!runStarted(device, *first, first->result.data(), device.clockUs))
      return false;
    first->completed = true;
  }
}

static bool runCollective(CollectiveKind kind, int64_t site, int64_t axes,
                          int32_t dtype, int32_t reduction,
                          std::initializer_list<int64_t> geometry,
                          int64_t count, int64_t in, int64_t out) {
  DeviceContext &device = requireDevice(kindName(kind));
  CollectiveDesc desc;
  if (!describe(device, kind, site, axes, dtype, reduction, geometry, count,
                desc))
    return false;
  double start = markComputeEnd(device);
  suspendCompute(device);
  // ppermutes book their own transfers, outside a device's collectives.
  if (kind != CollectiveKind::Ppermute &&
      !completeEarlierStarts(device, device.collectivesStarted))
    return false;
  if (device.virtualClock)
    start = device.clockUs;
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

/// Handles of asynchronous collectives carry this bit, so that neither kind
/// of wait takes the other's handle; below it, the slot's generation
/// (bits 20-39) and the slot (bits 0-19).
static constexpr int64_t kCollectiveHandleTag = int64_t(1) << 40;
static constexpr int64_t kSlotBits = 20, kGenerationBits = 20;

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
  if (handle & kCollectiveHandleTag) {
    device.comm->fail("trellis_rt_ppermute_wait on the handle " +
                      std::to_string(handle) +
                      " of an asynchronous collective");
    abortDevice();
  }
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

int64_t trellis_rt_collective_start(int64_t site, int32_t kind, int64_t axes,
                                    int32_t dtype, int32_t reduction,
                                    int64_t in, int64_t g0, int64_t g1,
                                    int64_t g2, int64_t g3) {
  DeviceContext &device = requireDevice("trellis_rt_collective_start");
  const int64_t n = device.mesh->groupSize(unpackAxes(axes));
  CollectiveDesc desc;
  // The input's elements, and the count the blocking entry would report.
  int64_t elements = 0, count = 0;
  bool ok = false;
  switch (kind) {
  case TRELLIS_RT_ALL_REDUCE:
    elements = count = g0;
    ok = describe(device, CollectiveKind::AllReduce, site, axes, dtype,
                  reduction, {g0}, count, desc);
    break;
  case TRELLIS_RT_ALL_GATHER:
    elements = count = g0 * g1;
    ok = describe(device, CollectiveKind::AllGather, site, axes, dtype, 0,
                  {g0, g1}, count, desc);
    break;
  case TRELLIS_RT_REDUCE_SCATTER:
    count = g0 * g1;
    elements = count * n;
    ok = describe(device, CollectiveKind::ReduceScatter, site, axes, dtype,
                  reduction, {g0, g1}, count, desc);
    break;
  case TRELLIS_RT_ALL_TO_ALL:
    count = g0 * g1;
    elements = count * n;
    ok = describe(device, CollectiveKind::AllToAll, site, axes, dtype, 0,
                  {g0, g1, g2, g3}, count, desc);
    break;
  default:
    device.comm->fail(siteName(device, site) +
                      ": trellis_rt_collective_start of unknown kind " +
                      std::to_string(kind));
  }
  if (!ok)
    abortDevice();
  double start = markComputeEnd(device);
  int64_t slot;
  if (!device.freeStartedSlots.empty()) {
    slot = device.freeStartedSlots.back();
    device.freeStartedSlots.pop_back();
  } else {
    slot = static_cast<int64_t>(device.startedCollectives.size());
    if (slot >= (int64_t(1) << kSlotBits)) {
      device.comm->fail(siteName(device, site) + ": more than " +
                        std::to_string(int64_t(1) << kSlotBits) +
                        " asynchronous collectives outstanding");
      abortDevice();
    }
    device.startedCollectives.emplace_back();
  }
  StartedCollective &started = device.startedCollectives[slot];
  started.generation =
      (started.generation + 1) & ((int64_t(1) << kGenerationBits) - 1);
  started.desc = desc;
  started.order = device.collectivesStarted++;
  const int64_t bytes = elements * dtypeSize(dtype);
  started.input.assign(reinterpret_cast<const char *>(in),
                       reinterpret_cast<const char *>(in) + bytes);
  started.at = {device.virtualClock ? device.clockUs : start, nowUs(), nullptr};
  if (!device.comm->begin(device, desc, started.input.data(),
                          started.at.pending))
    abortDevice();
  started.live = true;
  recordSpan(device, site, "collective", start, 0);
  return kCollectiveHandleTag | (started.generation << kSlotBits) | slot;
}

void trellis_rt_collective_wait(int64_t handle, int64_t out) {
  DeviceContext &device = requireDevice("trellis_rt_collective_wait");
  const int64_t slot = handle & ((int64_t(1) << kSlotBits) - 1);
  const int64_t generation =
      (handle >> kSlotBits) & ((int64_t(1) << kGenerationBits) - 1);
  if (handle < 0 || (handle & ~((kCollectiveHandleTag << 1) - 1)) ||
      !(handle & kCollectiveHandleTag) ||
      slot >= static_cast<int64_t>(device.startedCollectives.size()) ||
      !device.startedCollectives[slot].live ||
      device.startedCollectives[slot].generation != generation) {
    device.comm->fail("trellis_rt_collective_wait: " + std::to_string(handle) +
                      " is not the handle of a started collective");
    abortDevice();
  }
  double start = markComputeEnd(device);
  suspendCompute(device);
  if (!completeEarlierStarts(device, device.startedCollectives[slot].order))
    abortDevice();
  // (completeEarlierStarts leaves the vector's elements where they are.)
  StartedCollective &started = device.startedCollectives[slot];
  started.live = false;
  if (device.virtualClock)
    start = device.clockUs;
  if (started.completed) {
    // Run ahead of this wait; its time is on the clock already.
    std::memcpy(reinterpret_cast<void *>(out), started.result.data(),
                started.result.size());
    started.completed = false;
    std::vector<char>().swap(started.result);
    recordSpan(device, started.desc.site, "wait", start, 0);
  } else if (!runStarted(device, started, reinterpret_cast<void *>(out),
                         start)) {
    abortDevice();
  }
  resumeCompute(device);
  device.freeStartedSlots.push_back(slot);
}

int64_t trellis_rt_axis_index(int64_t axes) {
  DeviceContext &device = requireDevice("trellis_rt_axis_index");
  return device.mesh->rankInGroup(device.position, unpackAxes(axes));
}

} // extern "C"
