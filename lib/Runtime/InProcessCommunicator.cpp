//===- InProcessCommunicator.cpp - Rendezvous collectives in shared memory ===//
//
// A blocking collective is a rendezvous of the devices of its group: each
// publishes its input and output buffers, and once all have arrived the
// members that are running share the work (tasks taken from a counter:
// one per output, or per chunk of an all-reduce), reading straight from
// the others' buffers, and each leaves once all of it is done.
// InProcessCommunicator.h describes the whole communicator.
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

/// How many times a device yields its core before it sleeps on the
/// condition variable, waiting for the rest of its group or for the
/// group's work. Devices often outnumber cores: yielding lets the members
/// still to come run, and a device that finds the collective ready after
/// a yield skips a futex sleep and wake-up (for small collectives on 8
/// devices and 2 cores, a third of the time; bench/collectives_bandwidth).
static constexpr int kYieldsBeforeSleep = 16;

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

/// How many tasks a collective's work is split into: one per member's
/// output, or for an all-reduce one per chunk of about 128 KiB (at least
/// one per member, at most 64).
static int64_t numTasksOf(const CollectiveDesc &desc, int64_t n) {
  if (desc.kind != CollectiveKind::AllReduce)
    return n;
  int64_t bytes = desc.geometry[0] * dtypeSize(desc.dtype);
  return std::clamp<int64_t>(bytes / (128 << 10), n, std::max<int64_t>(n, 64));
}

void InProcessCommunicator::work(const Rendezvous &rv, int64_t task,
                                 const CollectiveDesc &desc) {
  const int64_t n = rv.n;
  const int64_t elem = dtypeSize(desc.dtype);
  // Tasks other than an all-reduce's: the output of member `rank`.
  const int64_t rank = task;
  char *out = static_cast<char *>(rv.outs[rank % n]);
  switch (desc.kind) {
  case CollectiveKind::AllReduce: {
    // Reduce-scatter then all-gather, fused: the task sums its chunk and
    // stores every strip of the sum into all members' outputs.
    int64_t count = desc.geometry[0], tasks = rv.numTasks;
    int64_t lo = task * count / tasks, hi = (task + 1) * count / tasks;
    if (hi > lo)
      reduceBlocksInto(desc.dtype, desc.reduction, rv.ins, lo, hi - lo,
                       rv.outs);
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

void InProcessCommunicator::runTasks(Rendezvous &rv,
                                     const CollectiveDesc &desc) {
  for (;;) {
    int64_t task = rv.nextTask.fetch_add(1);
    if (task >= rv.numTasks)
      return;
    work(rv, task, desc);
    if (rv.doneTasks.fetch_add(1) + 1 == rv.numTasks) {
      std::lock_guard<std::mutex> lock(mu_);
      cv_.notify_all();
    }
  }
}

bool InProcessCommunicator::execute(DeviceContext &device,
                                    const CollectiveDesc &desc, const void *in,
                                    void *out, const AsyncStart *started) {
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
    rv->lastArrivalUs =
        std::max(rv->lastArrivalUs, collectiveArrivalUs(device, started));
    if (started)
      rv->lastStartWallUs = std::max(rv->lastStartWallUs, started->wallUs);
    ++rv->numArrived;
    if (rv->numArrived == n) {
      if (!checkComplete(*rv, desc.axes))
        return false;
      rv->numTasks = numTasksOf(desc, n);
      rv->ready = true;
      // An asynchronous collective began when its last member started it.
      rv->readyUs = started ? rv->lastStartWallUs : nowUs();
      // Its ring occupies the group's links: transfers planned on them
      // queue behind it (and, on virtual clocks, it waits for those
      // already booked).
      rv->beginUs =
          links_.enabled()
              ? links_.bookRing(rv->members,
                                links_.virtualClock() ? rv->lastArrivalUs
                                                      : rv->readyUs,
                                links_.modelledUs(desc, n))
              : rv->lastArrivalUs;
      // Every member holds the rendezvous; later instances have other keys.
      table_.erase(key);
      cv_.notify_all();
    } else {
      state_[position] = State::Waiting;
      waitingOn_[position] =
          siteName(desc.site) + " (" + groupName(*rv, desc.axes) + ")";
      waitSatisfied_[position] = [rv] { return rv->ready; };
      waitBlame_[position] = nullptr;
      checkStuckLocked();
      for (int y = 0; y < kYieldsBeforeSleep && !rv->ready && !aborted_; ++y) {
        lock.unlock();
        std::this_thread::yield();
        lock.lock();
      }
      cv_.wait(lock, [&] { return rv->ready || aborted_; });
      state_[position] = State::Running;
      if (aborted_)
        return false;
    }
  }

  // Help with whatever work is left, then wait until all of it is done (no
  // member may reuse its buffers while others still read them).
  runTasks(*rv, desc);
  for (int y = 0; y < kYieldsBeforeSleep && rv->doneTasks.load() < rv->numTasks;
       ++y)
    std::this_thread::yield();
  if (rv->doneTasks.load() < rv->numTasks) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock,
             [&] { return rv->doneTasks.load() == rv->numTasks || aborted_; });
    if (aborted_ && rv->doneTasks.load() < rv->numTasks) {
      // No task starts any more; those under way may write into this
      // device's buffers, which it must not leave behind before they end.
      int64_t taken = std::min(rv->nextTask.exchange(rv->numTasks + (1 << 30)),
                               rv->numTasks);
      lock.unlock();
      while (rv->doneTasks.load() < taken)
        std::this_thread::yield();
      return false;
    }
  }

  // On virtual clocks the collective completes its modelled time after the
  // last member arrived; a device that came earlier waited for it.
  if (links_.virtualClock()) {
    // Waiting for the links counts as communication.
    finishCollective(
        device, rv->lastArrivalUs,
        rv->beginUs - rv->lastArrivalUs + links_.modelledUs(desc, n), started);
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
