//===- DeviceContext.cpp - The device a thread runs -----------------------===//
//
// The calling thread's device: finding it, its clock and compute spans,
// its heap buffers, and ending its run on an error.
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

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

double mlir::trellis::rt::markComputeEnd(DeviceContext &device) {
  double now = nowUs();
  if (device.tracing && now > device.lastMarkUs)
    device.events.push_back({"compute", "compute",
                             device.lastMarkUs - device.originUs,
                             now - device.lastMarkUs, 0});
  return now;
}
