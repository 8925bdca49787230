//===- InProcessTransferEngine.cpp - Payloads on the wire -----------------===//
//
// Puts mailbox payloads on the (modelled) wire. With a link model, a
// transfer engine thread (the "DMA engine") copies them and marks them
// arrived at their modelled arrival times (ModelledLinks), while neither
// device's thread is involved.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/InProcessCommunicator.h"

#include <chrono>
#include <cstring>

using namespace mlir::trellis::rt;
using namespace mlir::trellis::rt::inprocess;

static std::chrono::steady_clock::time_point timePoint(double us) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double, std::micro>(us)));
}

void InProcessCommunicator::startEngineLocked() {
  if (!engine_.joinable())
    engine_ = std::thread([this] { runEngine(); });
  engineCv_.notify_all();
}

void InProcessCommunicator::runEngine() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (!copies_.empty()) {
      MailKey key = copies_.front();
      copies_.pop_front();
      auto it = mailbox_.find(key);
      if (it == mailbox_.end())
        continue;
      // Neither side erases or reuses a message while it is being copied.
      Message &m = it->second;
      lock.unlock();
      std::memcpy(m.dst, m.src, m.bytes);
      lock.lock();
      m.receive = ReceiveState::Copied;
      wakePairLocked(m);
      continue;
    }
    if (deliveries_.empty()) {
      engineCv_.wait(lock);
      continue;
    }
    Delivery next = deliveries_.top();
    if (next.atUs > nowUs()) {
      engineCv_.wait_until(lock, timePoint(next.atUs));
      continue;
    }
    deliveries_.pop();
    auto it = mailbox_.find(next.key);
    if (it != mailbox_.end()) {
      it->second.send = SendState::Arrived;
      wakePairLocked(it->second);
    }
  }
}

double InProcessCommunicator::sendLocked(const MailKey &key, Message &m,
                                         double now, TransferTiming *timing,
                                         std::vector<MailKey> &jobs) {
  int hops = 0;
  m.sentAtUs = now;
  if (links_.enabled()) {
    m.deliverAtUs = links_.planTransfer(m.sourcePosition, m.targetPosition,
                                        m.bytes, now, m.tieDirection, hops);
    // On virtual clocks the receiver reads the arrival time; nothing waits
    // for it to pass.
    m.send = links_.virtualClock() || m.deliverAtUs <= now
                 ? SendState::Arrived
                 : SendState::InFlight;
    if (!m.arrived()) {
      deliveries_.push({m.deliverAtUs, key});
      startEngineLocked();
    }
  } else {
    m.deliverAtUs = now;
    m.send = SendState::Arrived;
  }
  if (timing) {
    timing->sendUs = now;
    timing->arriveUs = m.deliverAtUs;
    timing->targetDevice = mesh_.deviceAt(m.targetPosition);
    timing->hops = hops;
  }
  wakePairLocked(m);
  pairUpLocked(key, m, jobs);
  return m.deliverAtUs - links_.latencyUs() * hops;
}
