//===- InProcessMailbox.cpp - Asynchronous ppermutes between threads ------===//
//
// Asynchronous ppermutes meet in a mailbox keyed by (instance, target
// rank): the sender names its buffer at its start, the receiver its
// destination at its start (direct) or wait (staged). The bytes are copied
// once, as soon as both are known.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/InProcessCommunicator.h"

#include <cstring>

using namespace mlir::trellis::rt;
using namespace mlir::trellis::rt::inprocess;

bool InProcessCommunicator::checkPairLocked(const Message &m) {
  if (!m.sent() || !m.received())
    return true;
  if (m.desc.site == m.receiverDesc.site &&
      m.desc.dtype == m.receiverDesc.dtype &&
      m.desc.geometry[0] == m.receiverDesc.geometry[0])
    return true;
  failLocked("ppermute mismatch: " + deviceName(m.targetPosition) +
             " waits for " + siteName(m.receiverDesc.site) + " but " +
             deviceName(m.sourcePosition) + " sent " + siteName(m.desc.site) +
             " (" + std::to_string(m.bytes) + " bytes, expected " +
             std::to_string(m.receiverDesc.geometry[0] *
                            dtypeSize(m.receiverDesc.dtype)) +
             ")");
  return false;
}

bool InProcessCommunicator::pairUpLocked(const MailKey &key, Message &m,
                                         std::vector<MailKey> &jobs) {
  if (!checkPairLocked(m))
    return false;
  if (!m.sent() || m.receive != ReceiveState::Known)
    return true;
  m.receive = ReceiveState::Copying;
  // On virtual clocks a payload is "delivered" at once; devices copy.
  if (links_.enabled() && !links_.virtualClock()) {
    copies_.push_back(key);
    startEngineLocked();
  } else {
    jobs.push_back(key);
  }
  return true;
}

void InProcessCommunicator::runCopies(std::unique_lock<std::mutex> &lock,
                                      const std::vector<MailKey> &jobs) {
  if (jobs.empty())
    return;
  std::vector<Message *> messages;
  for (const MailKey &key : jobs)
    messages.push_back(&mailbox_.at(key));
  lock.unlock();
  for (Message *m : messages)
    std::memcpy(m->dst, m->src, m->bytes);
  lock.lock();
  for (Message *m : messages) {
    m->receive = ReceiveState::Copied;
    wakePairLocked(*m);
  }
}

InProcessCommunicator::Route
InProcessCommunicator::routeOf(int64_t position,
                               const CollectiveDesc &desc) const {
  Route route;
  AxisList axes = unpackAxes(desc.axes);
  route.n = mesh_.groupSize(axes);
  route.rank = mesh_.rankInGroup(position, axes);
  route.leader = mesh_.groupLeader(position, axes);
  route.site = desc.site >= 0 && desc.site < static_cast<int64_t>(sites_.size())
                   ? &sites_[desc.site]
                   : nullptr;
  if (route.site)
    for (auto [s, t] : route.site->pairs) {
      if (s == route.rank)
        route.target = t;
      if (t == route.rank)
        route.source = s;
    }
  route.members = mesh_.groupMembers(position, axes);
  return route;
}

Message &InProcessCommunicator::outgoingLocked(int64_t position,
                                               const Route &route,
                                               const InstanceKey &key,
                                               const CollectiveDesc &desc,
                                               MailKey &sendKey) {
  sendKey = {key, route.target};
  Message &m = mailbox_[sendKey];
  m.sourcePosition = position;
  m.targetPosition = route.members[route.target];
  m.bytes = desc.geometry[0] * dtypeSize(desc.dtype);
  m.desc = desc;
  m.tieDirection = shiftDirection(route.site, route.n);
  return m;
}

int64_t InProcessCommunicator::addPendingLocked(int64_t position,
                                                const Route &route,
                                                const InstanceKey &key,
                                                const CollectiveDesc &desc,
                                                void *out) {
  PendingReceive receive;
  receive.key = key;
  receive.rank = route.rank;
  receive.sourceRank = route.source;
  receive.targetRank = route.target;
  receive.desc = desc;
  receive.out = out;
  pending_[position].push_back(receive);
  return static_cast<int64_t>(pending_[position].size() - 1);
}

int64_t InProcessCommunicator::startPermute(DeviceContext &device,
                                            const CollectiveDesc &desc,
                                            const void *in, void *out,
                                            TransferTiming *timing) {
  const int64_t position = device.position;
  Route route = routeOf(position, desc);
  const int64_t bytes = desc.geometry[0] * dtypeSize(desc.dtype);

  // A staged sender copies its payload aside before taking the lock: other
  // devices need not wait for this device's memcpy.
  std::shared_ptr<std::vector<char>> staged;
  if (route.target >= 0 && !out)
    staged = std::make_shared<std::vector<char>>(
        static_cast<const char *>(in), static_cast<const char *>(in) + bytes);

  std::unique_lock<std::mutex> lock(mu_);
  if (aborted_)
    return -1;
  InstanceKey key{desc.axes, route.leader,
                  asyncSeq_[position][{desc.axes, route.leader}]++};
  std::vector<MailKey> jobs;
  double sendDoneUs = device.clockUs;
  if (route.target >= 0) {
    MailKey sendKey;
    Message &m = outgoingLocked(position, route, key, desc, sendKey);
    m.send = SendState::InFlight;
    if (out) {
      m.src = in;
    } else {
      m.data = std::move(staged);
      m.src = m.data->data();
    }
    sendDoneUs =
        sendLocked(sendKey, m, links_.virtualClock() ? device.clockUs : nowUs(),
                   timing, jobs);
    if (aborted_)
      return -1;
  }
  if (route.source >= 0 && out) {
    MailKey receiveKey{key, route.rank};
    Message &m = mailbox_[receiveKey];
    m.targetPosition = position;
    m.sourcePosition = route.members[route.source];
    m.receive = ReceiveState::Known;
    m.receiverDesc = desc;
    m.dst = out;
    if (!pairUpLocked(receiveKey, m, jobs))
      return -1;
  }
  int64_t handle = addPendingLocked(position, route, key, desc, out);
  pending_[position][handle].sendDoneUs = sendDoneUs;
  // The devices this one sends to and receives from may be waiting for it.
  if (route.target >= 0)
    wakeLocked(route.members[route.target]);
  if (route.source >= 0)
    wakeLocked(route.members[route.source]);
  runCopies(lock, jobs);
  return aborted_ ? -1 : handle;
}

bool InProcessCommunicator::incomingDone(const PendingReceive &receive) {
  if (receive.sourceRank < 0)
    return true;
  auto it = mailbox_.find({receive.key, receive.rank});
  if (it == mailbox_.end())
    return false;
  const Message &m = it->second;
  // A staged receiver copies for itself once the payload has arrived.
  return receive.out ? m.copied() && m.arrived() : m.arrived();
}

bool InProcessCommunicator::outgoingDone(const PendingReceive &receive) {
  if (receive.targetRank < 0 || !receive.out)
    return true;
  auto it = mailbox_.find({receive.key, receive.targetRank});
  return it == mailbox_.end() || it->second.copied();
}

bool InProcessCommunicator::waitPermute(DeviceContext &device, int64_t handle,
                                        void *out) {
  const int64_t position = device.position;
  std::unique_lock<std::mutex> lock(mu_);
  if (aborted_)
    return false;
  if (handle < 0 || handle >= static_cast<int64_t>(pending_[position].size()) ||
      pending_[position][handle].used) {
    failLocked(deviceName(position) + " waited on an invalid ppermute handle " +
               std::to_string(handle));
    return false;
  }
  PendingReceive &receive = pending_[position][handle];
  receive.used = true;
  const bool direct = receive.out != nullptr;
  if (direct)
    out = receive.out;
  const int64_t bytes =
      receive.desc.geometry[0] * dtypeSize(receive.desc.dtype);
  std::vector<int64_t> members =
      mesh_.groupMembers(position, unpackAxes(receive.desc.axes));
  const MailKey receiveKey{receive.key, receive.rank};
  const MailKey sendKey{receive.key, receive.targetRank};
  bool haveIncoming = receive.sourceRank < 0;
  if (haveIncoming)
    std::memset(out, 0, bytes);
  // Virtual clock: when the incoming payload left its sender and arrived.
  double sentAtUs = device.clockUs, arrivedAtUs = device.clockUs;
  while (true) {
    if (aborted_)
      return false;
    if (!haveIncoming && incomingDone(receive)) {
      auto it = mailbox_.find(receiveKey);
      Message &m = it->second;
      if (!direct) {
        // Staged: this device's destination is known only now.
        m.receive = ReceiveState::Known;
        m.receiverDesc = receive.desc;
        m.dst = out;
        if (!checkPairLocked(m))
          return false;
        m.receive = ReceiveState::Copying;
        lock.unlock();
        std::memcpy(out, m.src, m.bytes);
        lock.lock();
      }
      sentAtUs = m.sentAtUs;
      arrivedAtUs = m.deliverAtUs;
      // A direct sender waits for this message to be copied or gone.
      wakeLocked(m.sourcePosition);
      mailbox_.erase(it);
      haveIncoming = true;
    }
    if (haveIncoming && outgoingDone(receive)) {
      if (links_.virtualClock())
        waitForTransfer(device, sentAtUs, arrivedAtUs,
                        receive.out ? receive.sendDoneUs : device.clockUs);
      return true;
    }
    std::string blame =
        finishedPeerLocked(position, members, receive, haveIncoming);
    if (!blame.empty()) {
      failLocked(blame);
      return false;
    }
    state_[position] = State::Waiting;
    if (!haveIncoming)
      waitingOn_[position] = siteName(receive.desc.site) + " (data from " +
                             deviceName(members[receive.sourceRank]) + ")";
    else
      waitingOn_[position] = siteName(receive.desc.site) + " (its data to " +
                             deviceName(members[receive.targetRank]) +
                             " not yet taken)";
    // A payload in flight will be delivered: the device is not stuck.
    waitSatisfied_[position] = [this, r = receive, haveIncoming] {
      return waitWillComplete(r, haveIncoming);
    };
    // Called only while this device waits below, so `members` is alive.
    waitBlame_[position] = [this, position, &members, r = receive,
                            haveIncoming] {
      return finishedPeerLocked(position, members, r, haveIncoming);
    };
    checkStuckLocked();
    permuteCv_[position].wait(lock);
    state_[position] = State::Running;
  }
}

bool InProcessCommunicator::permuteReady(DeviceContext &device,
                                         int64_t handle) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::vector<PendingReceive> &pending = pending_[device.position];
  if (handle < 0 || handle >= static_cast<int64_t>(pending.size()) ||
      pending[handle].used)
    return true; // waitPermute reports the bad handle
  return incomingDone(pending[handle]) && outgoingDone(pending[handle]);
}
