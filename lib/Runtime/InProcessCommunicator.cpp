//===- InProcessCommunicator.cpp - Devices as threads, shared memory ------===//
//
// Every device is a thread of one process. A collective is a rendezvous of
// the devices of its group: each publishes its input and output buffers,
// and once all have arrived each device pulls what it needs straight from
// the others' buffers, then waits until all are done reading.
//
// Because all devices run the same program, the k-th collective a device
// makes in a group must match the k-th collective of every other member.
// The communicator checks that (same op, same shape) and reports the sites
// when it does not; it also reports a device that finishes while others
// wait for it, and a deadlock (every running device waiting).
//
// Asynchronous ppermutes copy their payload into a mailbox when they start.
// Without a link model the payload is available at once. With one, a
// transfer engine (one thread) delivers it at the modelled arrival time:
// the route follows the rings of the mesh axes, each directed link carries
// one transfer at a time, and neither device's thread is involved while the
// bytes are "on the wire".
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <queue>
#include <thread>
#include <tuple>

using namespace mlir::trellis::rt;

namespace {

/// Identifies the k-th collective of one group.
struct InstanceKey {
  int64_t axes;
  int64_t leader;
  int64_t seq;
  bool operator<(const InstanceKey &o) const {
    return std::tie(axes, leader, seq) < std::tie(o.axes, o.leader, o.seq);
  }
};

struct Rendezvous {
  int64_t n = 0;
  std::vector<int64_t> members; ///< positions, by rank
  std::vector<const void *> ins;
  std::vector<void *> outs;
  std::vector<CollectiveDesc> descs;
  std::vector<bool> arrived;
  int64_t numArrived = 0;
  int64_t numDeparted = 0;
  bool ready = false;
  double readyUs = 0; ///< when the last member arrived
};

/// An asynchronous ppermute payload on its way to one target.
struct Message {
  CollectiveDesc desc;
  std::vector<char> data;
  double deliverAtUs = 0;
  bool delivered = false;
};

using MailKey = std::pair<InstanceKey, int64_t>; ///< (instance, target rank)

/// A delivery the transfer engine has to make.
struct Delivery {
  double atUs;
  MailKey key;
  bool operator>(const Delivery &o) const { return atUs > o.atUs; }
};

struct PendingReceive {
  InstanceKey key;
  int64_t rank = 0;
  int64_t sourceRank = -1; ///< -1: no pair targets this device (zeros)
  CollectiveDesc desc;
  bool used = false;
};

enum class State { Running, Waiting, Finished };

class InProcessCommunicator final : public Communicator {
public:
  InProcessCommunicator(const MeshShape &mesh,
                        const std::vector<SiteInfo> &sites,
                        const LinkModel &link)
      : mesh_(mesh), sites_(sites), link_(link), seq_(mesh.numDevices()),
        asyncSeq_(mesh.numDevices()), pending_(mesh.numDevices()),
        state_(mesh.numDevices(), State::Running),
        waitingOn_(mesh.numDevices()), waitSatisfied_(mesh.numDevices()),
        live_(mesh.numDevices()) {
    linkFreeAtUs_.assign(mesh.numDevices() * mesh.numAxes() * 2, 0.0);
  }

  ~InProcessCommunicator() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    engineCv_.notify_all();
    if (engine_.joinable())
      engine_.join();
  }

  bool execute(DeviceContext &device, const CollectiveDesc &desc,
               const void *in, void *out) override;
  int64_t startPermute(DeviceContext &device, const CollectiveDesc &desc,
                       const void *in, TransferTiming *timing) override;
  bool waitPermute(DeviceContext &device, int64_t handle, void *out) override;
  bool permuteReady(DeviceContext &device, int64_t handle) override;
  void deviceFinished(DeviceContext &device) override;
  void fail(const std::string &message) override;

  bool hasFailed(std::string *message) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (aborted_ && message)
      *message = error_;
    return aborted_;
  }

private:
  std::string deviceName(int64_t position) const {
    return "device " + std::to_string(mesh_.deviceAt(position));
  }
  std::string deviceList(const std::vector<int64_t> &positions) const;
  std::string siteName(int64_t site) const {
    if (site >= 0 && site < static_cast<int64_t>(sites_.size()))
      return sites_[site].describe();
    return "collective site #" + std::to_string(site);
  }
  std::string groupName(const Rendezvous &rv, int64_t axes) const {
    return "the group over " + mesh_.formatAxes(unpackAxes(axes)) + " of " +
           deviceList(rv.members);
  }

  // All of these run with mu_ held.
  void failLocked(const std::string &message);
  std::string describeMismatch(const Rendezvous &rv, int64_t axes) const;
  bool checkComplete(const Rendezvous &rv, int64_t axes);
  void checkStuckLocked();
  void work(const Rendezvous &rv, int64_t rank, const CollectiveDesc &desc);
  /// Modelled duration of a collective on the interconnect.
  double modelledUs(const CollectiveDesc &desc, int64_t n) const;
  /// Plans an asynchronous transfer of `bytes` from `from` to `to` on the
  /// modelled links; returns its arrival time and sets `hops`.
  double planTransfer(int64_t from, int64_t to, int64_t bytes, double now,
                      int tieDirection, int &hops);
  /// The transfer engine: delivers messages at their arrival times.
  void runEngine();

  const MeshShape &mesh_;
  const std::vector<SiteInfo> &sites_;
  LinkModel link_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::map<InstanceKey, std::shared_ptr<Rendezvous>> table_;
  std::map<MailKey, Message> mailbox_;
  /// Per position: (axes, leader) -> number of collectives made in the group.
  std::vector<std::map<std::pair<int64_t, int64_t>, int64_t>> seq_;
  std::vector<std::map<std::pair<int64_t, int64_t>, int64_t>> asyncSeq_;
  std::vector<std::vector<PendingReceive>> pending_;
  std::vector<State> state_;
  /// What each waiting device waits for, for reports.
  std::vector<std::string> waitingOn_;
  /// Whether a waiting device's wait is already satisfied (it just has not
  /// woken up yet); such a device is not stuck.
  std::vector<std::function<bool()>> waitSatisfied_;
  /// Per directed link (linkIndex), when it is free again.
  std::vector<double> linkFreeAtUs_;
  std::thread engine_;
  std::condition_variable engineCv_;
  std::priority_queue<Delivery, std::vector<Delivery>, std::greater<Delivery>>
      deliveries_;
  bool stopping_ = false;
  int64_t live_;
  bool aborted_ = false;
  std::string error_;
};

std::string
InProcessCommunicator::deviceList(const std::vector<int64_t> &positions) const {
  std::string text = positions.size() == 1 ? "device " : "devices ";
  for (size_t i = 0; i < positions.size(); ++i)
    text += (i ? ", " : "") + std::to_string(mesh_.deviceAt(positions[i]));
  return text;
}

void InProcessCommunicator::fail(const std::string &message) {
  std::lock_guard<std::mutex> lock(mu_);
  failLocked(message);
}

void InProcessCommunicator::failLocked(const std::string &message) {
  if (!aborted_) {
    aborted_ = true;
    error_ = message;
  }
  cv_.notify_all();
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

double InProcessCommunicator::modelledUs(const CollectiveDesc &desc,
                                         int64_t n) const {
  if (!link_.enabled() || n <= 1)
    return 0;
  double bytesPerUs =
      link_.bandwidthGBps > 0 ? link_.bandwidthGBps * 1e3 : 0; // GB/s -> B/us
  auto transfer = [&](double bytes) {
    return link_.latencyUs + (bytesPerUs > 0 ? bytes / bytesPerUs : 0);
  };
  int64_t elem = dtypeSize(desc.dtype);
  // Ring algorithms along the group (bidirectional links).
  switch (desc.kind) {
  case CollectiveKind::AllReduce: {
    double chunk = double(desc.geometry[0]) * elem / n;
    return 2.0 * (n - 1) * transfer(chunk);
  }
  case CollectiveKind::AllGather:
    return (n - 1) *
           transfer(double(desc.geometry[0] * desc.geometry[1]) * elem);
  case CollectiveKind::ReduceScatter:
    return (n - 1) *
           transfer(double(desc.geometry[0] * desc.geometry[1]) * elem);
  case CollectiveKind::AllToAll:
    return (n - 1) *
           transfer(double(desc.geometry[0] * desc.geometry[1]) * elem);
  case CollectiveKind::Ppermute:
    return transfer(double(desc.geometry[0]) * elem);
  }
  return 0;
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

  // With a modelled interconnect, the collective completes once the
  // modelled transfer time has passed since the last member arrived.
  if (double cost = modelledUs(desc, n); cost > 0) {
    double until = rv->readyUs + cost;
    double now = nowUs();
    if (until > now)
      std::this_thread::sleep_for(
          std::chrono::duration<double, std::micro>(until - now));
  }
  return true;
}

/// +1 when `pairs` shift every rank forward by one around a ring of n,
/// -1 when they shift backward; +1 otherwise. Breaks ties in routing (a
/// hop on an axis of size 2 could go either way round).
static int shiftDirection(const SiteInfo *site, int64_t n) {
  if (!site || site->pairs.empty())
    return 1;
  bool backward = true;
  for (auto [s, t] : site->pairs)
    backward &= t == ((s - 1) % n + n) % n;
  return backward ? -1 : 1;
}

double InProcessCommunicator::planTransfer(int64_t from, int64_t to,
                                           int64_t bytes, double now,
                                           int tieDirection, int &hops) {
  // Half-way around a ring (always so on an axis of size 2) both ways are
  // shortest: take the one whose links free up first, `tieDirection` when
  // equal.
  std::vector<LinkHop> route = ringRoute(mesh_, from, to, tieDirection);
  std::vector<LinkHop> other = ringRoute(mesh_, from, to, -tieDirection);
  hops = static_cast<int>(route.size());
  if (route.empty())
    return now;
  auto freeAt = [&](const std::vector<LinkHop> &r) {
    double t = now;
    for (const LinkHop &hop : r)
      t = std::max(t, linkFreeAtUs_[linkIndex(mesh_, hop)]);
    return t;
  };
  // Cut-through: the payload streams over every link of the route at once,
  // each carrying one transfer at a time; each hop adds the latency.
  double begin = freeAt(route);
  if (other != route && freeAt(other) < begin) {
    route = other;
    begin = freeAt(route);
  }
  double wire = link_.bandwidthGBps > 0
                    ? double(bytes) / (link_.bandwidthGBps * 1e3)
                    : 0; // GB/s -> bytes per microsecond
  for (const LinkHop &hop : route)
    linkFreeAtUs_[linkIndex(mesh_, hop)] = begin + wire;
  return begin + wire + link_.latencyUs * hops;
}

static std::chrono::steady_clock::time_point timePoint(double us) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double, std::micro>(us)));
}

void InProcessCommunicator::runEngine() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
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
      it->second.delivered = true;
      cv_.notify_all();
    }
  }
}

int64_t InProcessCommunicator::startPermute(DeviceContext &device,
                                            const CollectiveDesc &desc,
                                            const void *in,
                                            TransferTiming *timing) {
  const int64_t position = device.position;
  AxisList axes = unpackAxes(desc.axes);
  const int64_t n = mesh_.groupSize(axes);
  const int64_t rank = mesh_.rankInGroup(position, axes);
  const int64_t leader = mesh_.groupLeader(position, axes);
  const SiteInfo *site =
      desc.site >= 0 && desc.site < static_cast<int64_t>(sites_.size())
          ? &sites_[desc.site]
          : nullptr;
  int64_t target = -1, source = -1;
  if (site)
    for (auto [s, t] : site->pairs) {
      if (s == rank)
        target = t;
      if (t == rank)
        source = s;
    }
  const int64_t elem = dtypeSize(desc.dtype);
  const int64_t bytes = desc.geometry[0] * elem;

  // Copy the payload before taking the lock: other devices need not wait
  // for this device's memcpy.
  Message message;
  if (target >= 0) {
    message.desc = desc;
    message.data.assign(static_cast<const char *>(in),
                        static_cast<const char *>(in) + bytes);
  }

  std::unique_lock<std::mutex> lock(mu_);
  if (aborted_)
    return -1;
  InstanceKey key{desc.axes, leader,
                  asyncSeq_[position][{desc.axes, leader}]++};
  if (target >= 0) {
    double now = nowUs();
    int64_t dst = mesh_.groupMembers(position, axes)[target];
    int hops = 0;
    if (link_.enabled()) {
      message.deliverAtUs = planTransfer(position, dst, bytes, now,
                                         shiftDirection(site, n), hops);
      message.delivered = message.deliverAtUs <= now;
    } else {
      message.deliverAtUs = now;
      message.delivered = true;
    }
    if (timing) {
      timing->sendUs = now;
      timing->arriveUs = message.deliverAtUs;
      timing->targetDevice = mesh_.deviceAt(dst);
      timing->hops = hops;
    }
    MailKey slot{key, target};
    if (!message.delivered) {
      if (!engine_.joinable())
        engine_ = std::thread([this] { runEngine(); });
      deliveries_.push({message.deliverAtUs, slot});
      engineCv_.notify_all();
    }
    mailbox_[slot] = std::move(message);
    cv_.notify_all();
  }
  PendingReceive receive;
  receive.key = key;
  receive.rank = rank;
  receive.sourceRank = source;
  receive.desc = desc;
  pending_[position].push_back(receive);
  return static_cast<int64_t>(pending_[position].size() - 1);
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
  const int64_t bytes =
      receive.desc.geometry[0] * dtypeSize(receive.desc.dtype);
  if (receive.sourceRank < 0) {
    std::memset(out, 0, bytes);
    return true;
  }
  auto slot = std::make_pair(receive.key, receive.rank);
  std::vector<int64_t> members =
      mesh_.groupMembers(position, unpackAxes(receive.desc.axes));
  int64_t sourcePosition = members[receive.sourceRank];
  while (true) {
    if (aborted_)
      return false;
    auto it = mailbox_.find(slot);
    if (it != mailbox_.end() && it->second.delivered) {
      Message message = std::move(it->second);
      mailbox_.erase(it);
      if (message.desc.site != receive.desc.site ||
          message.desc.geometry[0] != receive.desc.geometry[0]) {
        failLocked("ppermute mismatch: " + deviceName(position) +
                   " waits for " + siteName(receive.desc.site) + " but " +
                   deviceName(sourcePosition) + " sent " +
                   siteName(message.desc.site) + " (" +
                   std::to_string(message.data.size()) + " bytes, expected " +
                   std::to_string(bytes) + ")");
        return false;
      }
      lock.unlock();
      std::memcpy(out, message.data.data(), bytes);
      return true;
    }
    if (it == mailbox_.end() && state_[sourcePosition] == State::Finished) {
      failLocked(deviceName(sourcePosition) + " finished without sending " +
                 siteName(receive.desc.site) + " to " + deviceName(position));
      return false;
    }
    state_[position] = State::Waiting;
    waitingOn_[position] = siteName(receive.desc.site) + " (data from " +
                           deviceName(sourcePosition) + ")";
    // A payload in flight will be delivered: the device is not stuck.
    waitSatisfied_[position] = [this, slot] {
      return mailbox_.count(slot) > 0;
    };
    checkStuckLocked();
    cv_.wait(lock);
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
  const PendingReceive &receive = pending[handle];
  if (receive.sourceRank < 0)
    return true;
  auto it = mailbox_.find({receive.key, receive.rank});
  return it != mailbox_.end() && it->second.delivered;
}

void InProcessCommunicator::deviceFinished(DeviceContext &device) {
  std::lock_guard<std::mutex> lock(mu_);
  state_[device.position] = State::Finished;
  --live_;
  // Receivers waiting for this device's data must re-check.
  checkStuckLocked();
  cv_.notify_all();
}

} // namespace

std::unique_ptr<Communicator> mlir::trellis::rt::createInProcessCommunicator(
    const MeshShape &mesh, const std::vector<SiteInfo> &sites,
    const LinkModel &link) {
  return std::make_unique<InProcessCommunicator>(mesh, sites, link);
}
