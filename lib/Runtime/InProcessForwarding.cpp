//===- InProcessForwarding.cpp - ppermute_forward without the device ------===//
//
// A forward sends on what a staged ppermute delivers to its device, plus an
// addend, without that device: its message waits in the mailbox until the
// incoming one arrives, and whichever thread sees the arrival adds and
// sends it (docs/CollectiveMatmul.md, "Forwarding").
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/InProcessCommunicator.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <cstring>

using namespace mlir::trellis::rt;
using namespace mlir::trellis::rt::inprocess;

bool InProcessCommunicator::captureLocked(Message &out, const Message &in) {
  if (!in.data) {
    failLocked(deviceName(out.sourcePosition) +
               " forwards a direct ppermute (" + siteName(in.desc.site) +
               "), which it cannot read");
    return false;
  }
  if (in.desc.site != out.incomingDesc.site ||
      in.desc.dtype != out.incomingDesc.dtype ||
      in.desc.geometry[0] != out.incomingDesc.geometry[0]) {
    failLocked("ppermute mismatch: " + deviceName(out.sourcePosition) +
               " forwards " + siteName(out.incomingDesc.site) + " but " +
               deviceName(in.sourcePosition) + " sent " +
               siteName(in.desc.site) + " (" + std::to_string(in.bytes) +
               " bytes)");
    return false;
  }
  out.incomingData = in.data;
  out.send = SendState::InputReady;
  return true;
}

void InProcessCommunicator::arrivedLocked(const MailKey &key) {
  bool drop = dropOnArrival_.erase(key) > 0;
  auto forwards = forwardsOn_.find(key);
  if (forwards != forwardsOn_.end()) {
    const Message &in = mailbox_.at(key);
    for (const MailKey &out : forwards->second) {
      Message &m = mailbox_.at(out);
      if (!captureLocked(m, in))
        return;
      drop |= m.consumeIncoming;
      fires_.push_back(out);
    }
    forwardsOn_.erase(forwards);
  }
  if (drop)
    mailbox_.erase(key);
}

void InProcessCommunicator::runFires(std::unique_lock<std::mutex> &lock) {
  std::vector<MailKey> jobs;
  while (!fires_.empty() && !aborted_) {
    MailKey key = fires_.front();
    fires_.pop_front();
    // Nobody erases a forward before it is sent: its receiver waits for
    // `sent`, and a failed run erases nothing.
    Message *m = &mailbox_.at(key);
    std::shared_ptr<std::vector<char>> in = std::move(m->incomingData);
    std::shared_ptr<std::vector<char>> addend = m->addend;
    const int64_t bytes = m->bytes;
    const int32_t dtype = m->desc.dtype;
    std::shared_ptr<std::vector<char>> out = in;
    if (addend || !in) {
      lock.unlock();
      out = std::make_shared<std::vector<char>>(bytes, 0);
      if (in && addend)
        reduceBlocks(dtype, TRELLIS_RT_SUM, {in->data(), addend->data()}, 0,
                     bytes / dtypeSize(dtype), out->data());
      else if (addend)
        std::memcpy(out->data(), addend->data(), bytes);
      lock.lock();
      if (aborted_)
        return;
      m = &mailbox_.at(key);
    }
    m->data = std::move(out);
    m->src = m->data->data();
    m->addend.reset();
    m->send = SendState::InFlight;
    const bool traced = m->traced;
    const int64_t sourcePosition = m->sourcePosition;
    TransferTiming timing;
    sendLocked(key, *m, nowUs(), &timing, jobs); // may erase *m
    if (traced)
      forwardTimings_[sourcePosition].push_back({timing, bytes});
  }
  runCopies(lock, jobs);
}

void InProcessCommunicator::collectTraceEvents(DeviceContext &device) {
  std::vector<std::pair<TransferTiming, int64_t>> timings;
  {
    std::lock_guard<std::mutex> lock(mu_);
    timings.swap(forwardTimings_[device.position]);
  }
  for (const auto &[timing, bytes] : timings)
    device.events.push_back(transferEvent(timing, device.originUs, bytes));
}

int64_t InProcessCommunicator::forwardPermute(DeviceContext &device,
                                              const CollectiveDesc &desc,
                                              int64_t handle,
                                              const void *addend, bool keep) {
  const int64_t position = device.position;
  Route route = routeOf(position, desc);
  const int64_t bytes = desc.geometry[0] * dtypeSize(desc.dtype);
  std::shared_ptr<std::vector<char>> addendCopy;
  if (addend && route.target >= 0)
    addendCopy = std::make_shared<std::vector<char>>(
        static_cast<const char *>(addend),
        static_cast<const char *>(addend) + bytes);

  std::unique_lock<std::mutex> lock(mu_);
  if (aborted_)
    return -1;
  std::vector<PendingReceive> &pending = pending_[position];
  if (handle < 0 || handle >= static_cast<int64_t>(pending.size()) ||
      pending[handle].used || pending[handle].forwarded ||
      pending[handle].out) {
    failLocked(deviceName(position) + " forwards the ppermute handle " +
               std::to_string(handle) +
               ", which is invalid, already waited for or forwarded, or "
               "direct");
    return -1;
  }
  PendingReceive &incoming = pending[handle];
  if (incoming.desc.geometry[0] * dtypeSize(incoming.desc.dtype) != bytes ||
      incoming.desc.dtype != desc.dtype) {
    failLocked(deviceName(position) + " forwards " +
               siteName(incoming.desc.site) + " as " + siteName(desc.site) +
               ", which has another element type or size");
    return -1;
  }
  if (addend && !canReduce(desc.dtype, TRELLIS_RT_SUM)) {
    failLocked(deviceName(position) + " forwards " + siteName(desc.site) +
               " with an addend of an element type the runtime cannot add");
    return -1;
  }
  incoming.forwarded = true;
  if (!keep)
    incoming.used = true;
  const MailKey incomingKey{incoming.key, incoming.rank};
  const bool fromNone = incoming.sourceRank < 0;
  auto arrived = mailbox_.find(incomingKey);
  if (arrived != mailbox_.end() && !arrived->second.arrived())
    arrived = mailbox_.end();
  InstanceKey key{desc.axes, route.leader,
                  asyncSeq_[position][{desc.axes, route.leader}]++};
  if (route.target >= 0) {
    MailKey sendKey;
    Message &m = outgoingLocked(position, route, key, desc, sendKey);
    m.send = fromNone ? SendState::InputReady : SendState::AwaitingInput;
    m.forwardFrom = incomingKey;
    if (!fromNone)
      m.forwardSourcePosition = mesh_.groupMembers(
          position, unpackAxes(incoming.desc.axes))[incoming.sourceRank];
    m.consumeIncoming = !keep;
    m.incomingDesc = incoming.desc;
    m.addend = std::move(addendCopy);
    m.traced = device.tracing;
    if (arrived != mailbox_.end()) {
      if (!captureLocked(m, arrived->second))
        return -1;
      if (!keep)
        mailbox_.erase(arrived);
    }
    if (m.send == SendState::InputReady)
      fires_.push_back(sendKey);
    else
      forwardsOn_[incomingKey].push_back(sendKey);
    wakeLocked(m.targetPosition);
  } else if (!keep && !fromNone) {
    // Nothing to send, and nobody reads the incoming payload.
    if (arrived != mailbox_.end())
      mailbox_.erase(arrived);
    else
      dropOnArrival_.insert(incomingKey);
  }
  int64_t next = addPendingLocked(position, route, key, desc, nullptr);
  if (route.source >= 0)
    wakeLocked(route.members[route.source]);
  runFires(lock);
  return aborted_ ? -1 : next;
}
