//===- InProcessDiagnosis.cpp - Why devices cannot go on ------------------===//
//
// The reports of the in-process communicator when the devices disagree on
// a collective, when one finished while others wait for it, and when every
// running device waits (a deadlock). The mesh is diagnosed only once it is
// quiescent, so the report does not depend on thread timing.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/InProcessCommunicator.h"

#include <algorithm>

using namespace mlir::trellis::rt;
using namespace mlir::trellis::rt::inprocess;

std::string
InProcessCommunicator::deviceList(const std::vector<int64_t> &positions) const {
  std::string text = positions.size() == 1 ? "device " : "devices ";
  for (size_t i = 0; i < positions.size(); ++i)
    text += (i ? ", " : "") + std::to_string(mesh_.deviceAt(positions[i]));
  return text;
}

/// Describes the devices of `rv` that arrived, grouped by the site they
/// reached (ordered by their lowest device), or "" when they all agree.
std::string InProcessCommunicator::describeMismatch(const Rendezvous &rv,
                                                    int64_t axes) const {
  std::vector<int64_t> sites;
  std::vector<std::vector<int64_t>> devices;
  for (int64_t k = 0; k < rv.n; ++k) {
    if (!rv.arrived[k])
      continue;
    int64_t site = rv.descs[k].site;
    auto it = std::find(sites.begin(), sites.end(), site);
    if (it == sites.end()) {
      sites.push_back(site);
      devices.push_back({});
      it = sites.end() - 1;
    }
    devices[it - sites.begin()].push_back(rv.members[k]);
  }
  if (sites.size() <= 1)
    return "";
  std::string text = "collective mismatch in " + groupName(rv, axes) + ": ";
  for (size_t g = 0; g < sites.size(); ++g) {
    if (g)
      text += g + 1 == sites.size() ? ", but " : ", ";
    text += deviceList(devices[g]) + " reached " + siteName(sites[g]);
  }
  return text;
}

/// Checks a complete rendezvous: every member reached the same site with
/// the same shape. Returns false (after failing) otherwise.
bool InProcessCommunicator::checkComplete(const Rendezvous &rv, int64_t axes) {
  std::string mismatch = describeMismatch(rv, axes);
  if (!mismatch.empty()) {
    failLocked(mismatch);
    return false;
  }
  const CollectiveDesc &a = rv.descs[0];
  for (int64_t k = 1; k < rv.n; ++k) {
    const CollectiveDesc &b = rv.descs[k];
    if (a.dtype != b.dtype ||
        !std::equal(std::begin(a.geometry), std::end(a.geometry),
                    std::begin(b.geometry))) {
      failLocked("devices disagree on the shape of " + siteName(a.site) +
                 " in " + groupName(rv, axes) + ": " +
                 deviceName(rv.members[0]) + " passes " +
                 std::to_string(a.bytes) + " bytes of " + dtypeName(a.dtype) +
                 ", " + deviceName(rv.members[k]) + " passes " +
                 std::to_string(b.bytes) + " bytes of " + dtypeName(b.dtype));
      return false;
    }
  }
  return true;
}

void InProcessCommunicator::checkStuckLocked() {
  if (aborted_)
    return;
  // Only a quiescent mesh is stuck: every device that has not finished
  // waits for another. Diagnosing then (not at the first wait) makes the
  // report complete and independent of thread timing.
  int64_t waiting = 0;
  for (size_t p = 0; p < state_.size(); ++p)
    if (state_[p] == State::Waiting && !waitSatisfied_[p]())
      ++waiting;
  if (waiting == 0 || waiting != live_)
    return;
  // Rendezvous in order of their lowest waiting device.
  std::vector<std::pair<int64_t, std::pair<InstanceKey, Rendezvous *>>> open;
  for (auto &[key, rv] : table_) {
    int64_t lowest = -1;
    for (int64_t k = 0; k < rv->n; ++k)
      if (rv->arrived[k]) {
        int64_t id = mesh_.deviceAt(rv->members[k]);
        if (lowest < 0 || id < lowest)
          lowest = id;
      }
    if (lowest >= 0 && !rv->ready)
      open.push_back({lowest, {key, rv.get()}});
  }
  std::sort(open.begin(), open.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  // Devices that reached different collectives at the same step.
  for (auto &[lowest, entry] : open) {
    std::string mismatch = describeMismatch(*entry.second, entry.first.axes);
    if (!mismatch.empty()) {
      failLocked(mismatch);
      return;
    }
  }
  // A collective waiting for a device that has finished.
  for (auto &[lowest, entry] : open) {
    Rendezvous &rv = *entry.second;
    std::vector<int64_t> arrived, finished;
    int64_t site = -1;
    for (int64_t k = 0; k < rv.n; ++k) {
      if (rv.arrived[k]) {
        arrived.push_back(rv.members[k]);
        site = rv.descs[k].site;
      } else if (state_[rv.members[k]] == State::Finished) {
        finished.push_back(rv.members[k]);
      }
    }
    if (!finished.empty()) {
      failLocked(deviceList(finished) + " finished without reaching " +
                 siteName(site) + ", which " + deviceList(arrived) +
                 (arrived.size() == 1 ? " waits in" : " wait in") + " (" +
                 groupName(rv, entry.first.axes) + ")");
      return;
    }
  }
  // A ppermute waiting for a peer that has finished.
  for (int64_t p = 0; p < mesh_.numDevices(); ++p)
    if (state_[p] == State::Waiting && waitBlame_[p]) {
      std::string blame = waitBlame_[p]();
      if (!blame.empty()) {
        failLocked(blame);
        return;
      }
    }
  // Otherwise the waits form cycles.
  std::string report = "deadlock: every running device waits for a "
                       "collective that another device never reaches:";
  std::vector<std::pair<int64_t, int64_t>> byId;
  for (int64_t p = 0; p < mesh_.numDevices(); ++p)
    if (state_[p] == State::Waiting)
      byId.push_back({mesh_.deviceAt(p), p});
  std::sort(byId.begin(), byId.end());
  for (auto [id, p] : byId)
    report += "\n  " + deviceName(p) + " waits in " + waitingOn_[p];
  failLocked(report);
}

bool InProcessCommunicator::waitWillComplete(const PendingReceive &receive,
                                             bool haveIncoming) {
  // A pair whose both sides are known is copied and delivered without any
  // device's help.
  auto willComplete = [&](const MailKey &key, bool staged) {
    auto it = mailbox_.find(key);
    if (it == mailbox_.end())
      return false;
    const Message &m = it->second;
    return m.sent() && (staged || m.received());
  };
  bool in = haveIncoming || incomingDone(receive) ||
            willComplete({receive.key, receive.rank}, !receive.out);
  bool out = outgoingDone(receive) ||
             willComplete({receive.key, receive.targetRank}, false);
  return in && out;
}

std::string InProcessCommunicator::finishedPeerLocked(
    int64_t position, const std::vector<int64_t> &members,
    const PendingReceive &receive, bool haveIncoming) {
  if (!haveIncoming && !incomingDone(receive)) {
    int64_t sourcePosition = members[receive.sourceRank];
    auto it = mailbox_.find({receive.key, receive.rank});
    if ((it == mailbox_.end() || it->second.send == SendState::NotStarted) &&
        state_[sourcePosition] == State::Finished)
      return deviceName(sourcePosition) + " finished without sending " +
             siteName(receive.desc.site) + " to " + deviceName(position);
  }
  if (!outgoingDone(receive)) {
    int64_t targetPosition = members[receive.targetRank];
    auto it = mailbox_.find({receive.key, receive.targetRank});
    if ((it == mailbox_.end() || !it->second.received()) &&
        state_[targetPosition] == State::Finished)
      return deviceName(targetPosition) + " finished without receiving " +
             siteName(receive.desc.site) + " from " + deviceName(position);
  }
  return "";
}
