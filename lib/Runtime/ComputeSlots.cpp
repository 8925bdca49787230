//===- ComputeSlots.cpp - At most N devices compute at once ---------------===//

#include "trellis/Runtime/Runtime.h"

#include <algorithm>
#include <mutex>
#include <tuple>

using namespace mlir::trellis::rt;

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
  // On the virtual clock queueing for a core takes no time (the thread's
  // CPU time does not advance while it queues).
  if (device.virtualClock)
    return;
  double end = nowUs();
  // Time spent queueing for a core is not compute.
  if (device.tracing && end - start > 1.0)
    device.events.push_back({"waiting for a core", "wait",
                             start - device.originUs, end - start, 0});
  device.lastMarkUs = std::max(device.lastMarkUs, end);
}
