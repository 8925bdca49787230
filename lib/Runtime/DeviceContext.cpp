//===- DeviceContext.cpp - The device a thread runs -----------------------===//
//
// The calling thread's device: finding it, its clock and compute spans,
// its heap buffers, and ending its run on an error.
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

using namespace mlir::trellis::rt;

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

double mlir::trellis::rt::threadCpuUs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) * 1e-3;
}

double mlir::trellis::rt::deviceNowUs(const DeviceContext &device) {
  if (!device.virtualClock)
    return nowUs();
  return device.clockUs + (threadCpuUs() - device.cpuMarkUs);
}

void mlir::trellis::rt::endRuntimeCall(DeviceContext &device) {
  if (device.virtualClock)
    device.cpuMarkUs = threadCpuUs();
  device.callIdleUs = 0;
}

double mlir::trellis::rt::markComputeEnd(DeviceContext &device) {
  double now;
  if (device.virtualClock) {
    double cpu = threadCpuUs(), measured = cpu - device.cpuMarkUs;
    size_t k = device.segments.size();
    device.segments.push_back(measured);
    double segment = device.replay && k < device.replay->size()
                         ? (*device.replay)[k]
                         : measured;
    now = device.clockUs +
          segment * (device.profile ? device.profile->hostScale : 1.0);
    device.times.computeUs += now - device.clockUs;
    device.clockUs = now;
    device.cpuMarkUs = cpu;
  } else {
    now = nowUs();
  }
  if (device.tracing && now > device.lastMarkUs)
    device.events.push_back({"compute", "compute",
                             device.lastMarkUs - device.originUs,
                             now - device.lastMarkUs, 0});
  return now;
}

void mlir::trellis::rt::leaveCollective(DeviceContext &device,
                                        double lastArrivalUs, double costUs) {
  DeviceTimes &times = device.times;
  device.callIdleUs = lastArrivalUs - device.clockUs;
  times.idleUs += device.callIdleUs;
  times.commUs += costUs;
  times.transferUs += costUs;
  device.clockUs = lastArrivalUs + costUs;
}

double mlir::trellis::rt::collectiveArrivalUs(const DeviceContext &device,
                                              const AsyncStart *started) {
  return std::max(started ? started->clockUs : device.clockUs,
                  device.collectivesFreeUs);
}

void mlir::trellis::rt::finishCollective(DeviceContext &device,
                                         double lastArrivalUs, double costUs,
                                         const AsyncStart *started) {
  device.collectivesFreeUs = lastArrivalUs + costUs;
  if (started)
    waitForTransfer(device, lastArrivalUs, lastArrivalUs + costUs, 0);
  else
    leaveCollective(device, lastArrivalUs, costUs);
}

void mlir::trellis::rt::waitForTransfer(DeviceContext &device, double sentAtUs,
                                        double arrivedAtUs, double sendDoneUs) {
  DeviceTimes &times = device.times;
  const double start = device.clockUs;
  times.transferUs += arrivedAtUs - sentAtUs;
  double until = std::max({start, arrivedAtUs, sendDoneUs});
  device.callIdleUs = std::max(0.0, std::min(sentAtUs, until) - start);
  times.idleUs += device.callIdleUs;
  times.commUs += until - start - device.callIdleUs;
  device.clockUs = until;
}

void mlir::trellis::rt::advanceByKernel(DeviceContext &device, const char *name,
                                        double us) {
  if (device.tracing)
    device.events.push_back(
        {name, "compute", device.clockUs - device.originUs, us, 0});
  device.times.computeUs += us;
  device.clockUs += us;
  device.lastMarkUs = device.clockUs;
  device.cpuMarkUs = threadCpuUs();
}

double DeviceProfile::matmulUs(int32_t dtype, double flops,
                               double bytes) const {
  double tflops = dtype == TRELLIS_RT_F64 ? f64Tflops
                  : dtype == TRELLIS_RT_BF16 || dtype == TRELLIS_RT_F16
                      ? bf16Tflops
                      : f32Tflops;
  double compute =
      tflops > 0 ? flops / (tflops * 1e6) : 0; // TFLOP/s -> FLOP/us
  double memory = memoryGBps > 0 ? bytes / (memoryGBps * 1e3) : 0;
  return std::max(compute, memory);
}
