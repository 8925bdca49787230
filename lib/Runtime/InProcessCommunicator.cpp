//===- InProcessCommunicator.cpp - Rendezvous collectives in shared memory ===//
//
// A blocking collective is a rendezvous of the devices of its group: each
// publishes its input and output buffers, and once all have arrived each
// device pulls what it needs straight from the others' buffers, then waits
// until all are done reading. InProcessCommunicator.h describes the whole
// communicator.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/InProcessCommunicator.h"
#include "lib/Runtime/CollectiveKernels.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

using namespace mlir::trellis::rt;
using namespace mlir::trellis::rt::inprocess;

void InProcessCommunicator::fail(const std::string &message) {
  std::lock_guard<std::mutex> lock(mu_);
  failLocked(message);
}

void InProcessCommunicator::failLocked(const std::string &message) {
  if (!aborted_) {
    aborted_ = true;
    error_ = message;
  }
  wakeAllLocked();
}

void InProcessCommunicator::work(const Rendezvous &rv, int64_t rank,
                                 const CollectiveDesc &desc) {
  const int64_t n = rv.n;
  const int64_t elem = dtypeSize(desc.dtype);
  char *out = static_cast<char *>(rv.outs[rank]);
  switch (desc.kind) {
  case CollectiveKind::AllReduce: {
    // Reduce-scatter then all-gather, fused: this device sums its chunk and
    // writes it into every member's output.
    int64_t count = desc.geometry[0];
    int64_t lo = rank * count / n, hi = (rank + 1) * count / n;
    if (hi > lo) {
      reduceBlocks(desc.dtype, desc.reduction, rv.ins, lo, hi - lo,
                   out + lo * elem);
      for (int64_t j = 0; j < n; ++j)
        if (j != rank)
          std::memcpy(static_cast<char *>(rv.outs[j]) + lo * elem,
                      out + lo * elem, (hi - lo) * elem);
    }
    return;
  }
  case CollectiveKind::AllGather: {
    int64_t outer = desc.geometry[0], inner = desc.geometry[1];
    for (int64_t k = 0; k < n; ++k)
      copyChunk(elem, static_cast<const char *>(rv.ins[k]), inner, 1, 0, out,
                inner, n, k, outer * inner);
    return;
  }
  case CollectiveKind::ReduceScatter: {
    int64_t outer = desc.geometry[0], inner = desc.geometry[1];
    for (int64_t o = 0; o < outer; ++o)
      reduceBlocks(desc.dtype, desc.reduction, rv.ins, (o * n + rank) * inner,
                   inner, out + o * inner * elem);
    return;
  }
  case CollectiveKind::AllToAll: {
    int64_t a = desc.geometry[0], b = desc.geometry[1];
    int64_t d = desc.geometry[3];
    for (int64_t k = 0; k < n; ++k)
      copyChunk(elem, static_cast<const char *>(rv.ins[k]), b, n, rank, out, d,
                n, k, a * b);
    return;
  }
  case CollectiveKind::Ppermute: {
    int64_t bytes = desc.geometry[0] * elem;
    const SiteInfo *site =
        desc.site >= 0 && desc.site < static_cast<int64_t>(sites_.size())
            ? &sites_[desc.site]
            : nullptr;
    int64_t source = -1;
    if (site)
      for (auto [s, t] : site->pairs)
        if (t == rank)
          source = s;
    if (source >= 0)
      std::memcpy(out, rv.ins[source], bytes);
    else
      std::memset(out, 0, bytes);
    return;
  }
  }
}

bool InProcessCommunicator::execute(DeviceContext &device,
                                    const CollectiveDesc &desc, const void *in,
                                    void *out) {
  const int64_t position = device.position;
  AxisList axes = unpackAxes(desc.axes);
  const int64_t n = mesh_.groupSize(axes);
  const int64_t rank = mesh_.rankInGroup(position, axes);
  const int64_t leader = mesh_.groupLeader(position, axes);

  std::shared_ptr<Rendezvous> rv;
  InstanceKey key{desc.axes, leader, 0};
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (aborted_)
      return false;
    key.seq = seq_[position][{desc.axes, leader}]++;
    std::shared_ptr<Rendezvous> &slot = table_[key];
    if (!slot) {
      slot = std::make_shared<Rendezvous>();
      slot->n = n;
      slot->members = mesh_.groupMembers(position, axes);
      slot->ins.assign(n, nullptr);
      slot->outs.assign(n, nullptr);
      slot->descs.assign(n, CollectiveDesc());
      slot->arrived.assign(n, false);
    }
    rv = slot;
    rv->ins[rank] = in;
    rv->outs[rank] = out;
    rv->descs[rank] = desc;
    rv->arrived[rank] = true;
    rv->lastArrivalUs = std::max(rv->lastArrivalUs, device.clockUs);
    ++rv->numArrived;
    if (rv->numArrived == n) {
      if (!checkComplete(*rv, desc.axes))
        return false;
      rv->ready = true;
      rv->readyUs = nowUs();
      cv_.notify_all();
    } else {
      state_[position] = State::Waiting;
      waitingOn_[position] =
          siteName(desc.site) + " (" + groupName(*rv, desc.axes) + ")";
      waitSatisfied_[position] = [rv] { return rv->ready; };
      waitBlame_[position] = nullptr;
      checkStuckLocked();
      cv_.wait(lock, [&] { return rv->ready || aborted_; });
      state_[position] = State::Running;
      if (aborted_)
        return false;
    }
  }

  work(*rv, rank, desc);

  {
    std::unique_lock<std::mutex> lock(mu_);
    if (++rv->numDeparted == n) {
      table_.erase(key);
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return rv->numDeparted == n || aborted_; });
      if (aborted_)
        return false;
    }
  }

  // On virtual clocks the collective completes its modelled time after the
  // last member arrived; a device that came earlier waited for it.
  if (links_.virtualClock()) {
    leaveCollective(device, rv->lastArrivalUs, links_.modelledUs(desc, n));
    return true;
  }
  // With a modelled interconnect, the collective completes once the
  // modelled transfer time has passed since the last member arrived.
  if (double cost = links_.modelledUs(desc, n); cost > 0) {
    double until = rv->readyUs + cost;
    double now = nowUs();
    if (until > now)
      std::this_thread::sleep_for(
          std::chrono::duration<double, std::micro>(until - now));
  }
  return true;
}

void InProcessCommunicator::deviceFinished(DeviceContext &device) {
  std::lock_guard<std::mutex> lock(mu_);
  state_[device.position] = State::Finished;
  --live_;
  // Receivers waiting for this device's data must re-check.
  checkStuckLocked();
  wakeAllLocked();
}

std::unique_ptr<Communicator> mlir::trellis::rt::createInProcessCommunicator(
    const MeshShape &mesh, const std::vector<SiteInfo> &sites,
    const LinkModel &link, bool virtualClock) {
  return std::make_unique<InProcessCommunicator>(mesh, sites, link,
                                                 virtualClock);
}
