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
// Asynchronous ppermutes meet in a mailbox: the sender names its buffer at
// its start, the receiver its destination at its start (direct) or wait
// (staged; the sender then copies its payload aside at once). The bytes are
// copied once, as soon as both are known. Without a link model the device
// thread that completes the pair copies them and they are available at
// once. With one, a transfer engine (one thread, the "DMA engine") copies
// them and marks them arrived at the modelled arrival time: the route
// follows the rings of the mesh axes, each directed link carries one
// transfer at a time, and neither device's thread is involved while the
// bytes are "on the wire". A direct sender's wait also waits until its
// payload has been taken, since it keeps its buffer until then.
//
// A forward (ppermute_forward) sends on what a staged ppermute delivers to
// its device, plus an addend, without that device: its message waits in
// the mailbox until the incoming one arrives, and whichever thread sees the
// arrival (the engine, or the device that made the last piece known) adds
// and sends it. So a ring of forwards keeps its links busy while every
// device computes (docs/CollectiveMatmul.md, "Forwarding").
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/Runtime.h"
#include "lib/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <queue>
#include <set>
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

using MailKey = std::pair<InstanceKey, int64_t>; ///< (instance, target rank)

/// An asynchronous ppermute payload from one source to one target. The
/// sender fills in the source side when it starts; the receiver its
/// destination when it starts (direct) or when it waits (staged). The bytes
/// are copied once, as soon as both sides are known.
struct Message {
  int64_t sourcePosition = -1, targetPosition = -1;
  int64_t bytes = 0;
  bool sent = false;         ///< the sender has started
  CollectiveDesc desc;       ///< the sender's
  const void *src = nullptr; ///< direct: the sender's buffer; staged: data
  /// A staged sender's copy of its payload (shared with forwards of it).
  std::shared_ptr<std::vector<char>> data;
  bool received = false; ///< the receiver's destination is known
  CollectiveDesc receiverDesc;
  void *dst = nullptr;
  bool copying = false; ///< a copy is scheduled or under way
  bool copied = false;  ///< the bytes are in `dst`
  double deliverAtUs = 0;
  bool arrived = false; ///< the modelled transfer time has passed
  /// A forward waiting for its incoming message (`forwardFrom`; with no
  /// source it forwards zeros, ready from the start) before it is sent.
  bool forwardPending = false;
  MailKey forwardFrom;
  /// The device that sends the incoming message (-1: none).
  int64_t forwardSourcePosition = -1;
  bool inputReady = false;      ///< the incoming payload is known (or zeros)
  bool consumeIncoming = false; ///< erase the incoming once read
  CollectiveDesc incomingDesc;  ///< what the forwarding device expects
  std::shared_ptr<std::vector<char>> addend;
  /// The incoming payload, once it has arrived.
  std::shared_ptr<std::vector<char>> incomingData;
  int tieDirection = 1;
  bool traced = false;
};

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
  bool forwarded = false;  ///< a forward reads what arrives
  void *out = nullptr;     ///< direct: the destination given at the start
  int64_t targetRank = -1; ///< -1: this device sends nothing
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
        waitBlame_(mesh.numDevices()),
        permuteCv_(new std::condition_variable[mesh.numDevices()]),
        forwardTimings_(mesh.numDevices()), live_(mesh.numDevices()) {
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
                       const void *in, void *out,
                       TransferTiming *timing) override;
  int64_t forwardPermute(DeviceContext &device, const CollectiveDesc &desc,
                         int64_t handle, const void *addend,
                         bool keep) override;
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
  /// Where the device at `position` sends and receives a ppermute of
  /// `desc` (ranks in its group; -1: nowhere, nothing).
  struct Route {
    int64_t n = 0, rank = 0, leader = 0, target = -1, source = -1;
    const SiteInfo *site = nullptr;
    std::vector<int64_t> members; ///< positions, by rank
  };
  Route routeOf(int64_t position, const CollectiveDesc &desc) const;
  /// The message the device at `position` sends for its ppermute `key`
  /// along `route` (which has a target), with its fields but the payload.
  Message &outgoingLocked(int64_t position, const Route &route,
                          const InstanceKey &key, const CollectiveDesc &desc,
                          MailKey &sendKey);
  /// Records the device's side of its ppermute `key`; returns its handle.
  int64_t addPendingLocked(int64_t position, const Route &route,
                           const InstanceKey &key, const CollectiveDesc &desc,
                           void *out);

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
  /// The transfer engine: copies payloads as soon as both sides are known
  /// and marks them arrived at their modelled arrival times.
  void runEngine();
  void startEngineLocked();
  /// Checks that both sides of `m` agree; fails otherwise.
  bool checkPairLocked(const Message &m);
  /// Checks `m`'s two sides (false: failed) and, once both are known,
  /// schedules its copy: on the engine with a link model, else appended to
  /// `jobs` for the caller to make.
  bool pairUpLocked(const MailKey &key, Message &m, std::vector<MailKey> &jobs);
  /// Makes the copies in `jobs` with the lock released.
  void runCopies(std::unique_lock<std::mutex> &lock,
                 const std::vector<MailKey> &jobs);
  /// Puts `m` (sent: its payload is known) on the wire: plans its transfer
  /// from `now`, or marks it arrived without a link model.
  void sendLocked(const MailKey &key, Message &m, double now,
                  TransferTiming *timing, std::vector<MailKey> &jobs);
  /// The payload of `key` can be read by its receiver: forwards of it may
  /// go, and one nobody waits for is dropped.
  void arrivedLocked(const MailKey &key);
  /// Takes the arrived payload `in` for the forward `out` (false: failed).
  bool captureLocked(Message &out, const Message &in);
  /// Sends the forwards in fires_ (adding with the lock released), and any
  /// they make ready in turn.
  void runFires(std::unique_lock<std::mutex> &lock);
  /// Where the chain of pending forwards that ends in `m` leads.
  struct ChainEnd {
    bool willSend = false; ///< sent without any device's help
    /// Otherwise: the pending forward whose incoming message is missing or
    /// unsent (null: the chain is a cycle).
    const Message *stalled = nullptr;
  };
  ChainEnd forwardChainEnd(const Message &m) const;
  void collectTraceEvents(DeviceContext &device) override;
  /// Whether device `position`'s wait for `receive` is complete, and
  /// whether it soon will be without any device's help.
  bool incomingDone(const PendingReceive &receive);
  bool outgoingDone(const PendingReceive &receive);
  bool waitWillComplete(const PendingReceive &receive, bool haveIncoming);
  /// Along the chain of pending forwards that ends in `m`: the link whose
  /// sender finished without sending ("" if none).
  std::string forwardBlameLocked(const Message &m) const;
  /// The error for a ppermute wait whose peer finished without its side of
  /// the pair, or "" while the wait can still complete.
  std::string finishedPeerLocked(int64_t position,
                                 const std::vector<int64_t> &members,
                                 const PendingReceive &receive,
                                 bool haveIncoming);

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
  /// For a waiting device, the error to report if the mesh is stuck because
  /// a peer finished ("" if none); see finishedPeerLocked.
  std::vector<std::function<std::string()>> waitBlame_;
  /// One per position, for ppermute waits: a transfer wakes just its two
  /// devices, not every waiting thread (on a small host each spurious
  /// wake-up takes a core from a device that computes).
  std::unique_ptr<std::condition_variable[]> permuteCv_;
  void wakeLocked(int64_t position) { permuteCv_[position].notify_all(); }
  void wakePairLocked(const Message &m) {
    wakeLocked(m.sourcePosition);
    wakeLocked(m.targetPosition);
  }
  void wakeAllLocked() {
    cv_.notify_all();
    for (int64_t p = 0; p < mesh_.numDevices(); ++p)
      permuteCv_[p].notify_all();
  }
  /// Per directed link (linkIndex), when it is free again.
  std::vector<double> linkFreeAtUs_;
  std::thread engine_;
  std::condition_variable engineCv_;
  std::priority_queue<Delivery, std::vector<Delivery>, std::greater<Delivery>>
      deliveries_;
  std::deque<MailKey> copies_; ///< copies the engine has to make
  /// Forwards waiting for an incoming message, by its key.
  std::map<MailKey, std::vector<MailKey>> forwardsOn_;
  /// Incoming messages a forward consumed before they arrived: dropped on
  /// arrival.
  std::set<MailKey> dropOnArrival_;
  std::deque<MailKey> fires_; ///< forwards whose incoming has arrived
  /// Per position: timings and sizes of its forwards' transfers (sent by
  /// whichever thread saw their payload arrive), made into trace events at
  /// the end of the run.
  std::vector<std::vector<std::pair<TransferTiming, int64_t>>> forwardTimings_;
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
  wakeAllLocked();
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
      m.copied = true;
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
      it->second.arrived = true;
      wakePairLocked(it->second);
      arrivedLocked(next.key);
      runFires(lock);
    }
  }
}

bool InProcessCommunicator::checkPairLocked(const Message &m) {
  if (!m.sent || !m.received)
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
  if (!m.sent || !m.received || m.copying || m.copied)
    return true;
  m.copying = true;
  if (link_.enabled()) {
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
    m->copied = true;
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

void InProcessCommunicator::sendLocked(const MailKey &key, Message &m,
                                       double now, TransferTiming *timing,
                                       std::vector<MailKey> &jobs) {
  int hops = 0;
  if (link_.enabled()) {
    m.deliverAtUs = planTransfer(m.sourcePosition, m.targetPosition, m.bytes,
                                 now, m.tieDirection, hops);
    m.arrived = m.deliverAtUs <= now;
    if (!m.arrived) {
      deliveries_.push({m.deliverAtUs, key});
      startEngineLocked();
    }
  } else {
    m.deliverAtUs = now;
    m.arrived = true;
  }
  if (timing) {
    timing->sendUs = now;
    timing->arriveUs = m.deliverAtUs;
    timing->targetDevice = mesh_.deviceAt(m.targetPosition);
    timing->hops = hops;
  }
  wakePairLocked(m);
  if (!pairUpLocked(key, m, jobs))
    return;
  // Last: a forward may consume (erase) `m` at once.
  if (m.arrived)
    arrivedLocked(key);
}

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
  out.inputReady = true;
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

InProcessCommunicator::ChainEnd
InProcessCommunicator::forwardChainEnd(const Message &m) const {
  // Bounded: devices that run different code could make the chain a cycle.
  const Message *at = &m;
  for (size_t steps = 0; steps <= mailbox_.size(); ++steps) {
    if (at->inputReady)
      return {true, nullptr};
    auto it = mailbox_.find(at->forwardFrom);
    if (it != mailbox_.end() && it->second.sent)
      return {true, nullptr};
    if (it == mailbox_.end() || !it->second.forwardPending)
      return {false, at};
    at = &it->second;
  }
  return {};
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
    m->forwardPending = false;
    m->sent = true;
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
  if (route.target >= 0) {
    MailKey sendKey;
    Message &m = outgoingLocked(position, route, key, desc, sendKey);
    m.sent = true;
    if (out) {
      m.src = in;
    } else {
      m.data = std::move(staged);
      m.src = m.data->data();
    }
    sendLocked(sendKey, m, nowUs(), timing, jobs);
    if (aborted_)
      return -1;
  }
  if (route.source >= 0 && out) {
    MailKey receiveKey{key, route.rank};
    Message &m = mailbox_[receiveKey];
    m.targetPosition = position;
    m.sourcePosition = route.members[route.source];
    m.received = true;
    m.receiverDesc = desc;
    m.dst = out;
    if (!pairUpLocked(receiveKey, m, jobs))
      return -1;
  }
  int64_t handle = addPendingLocked(position, route, key, desc, out);
  // The devices this one sends to and receives from may be waiting for it.
  if (route.target >= 0)
    wakeLocked(route.members[route.target]);
  if (route.source >= 0)
    wakeLocked(route.members[route.source]);
  runCopies(lock, jobs);
  runFires(lock);
  return aborted_ ? -1 : handle;
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
  if (arrived != mailbox_.end() &&
      !(arrived->second.sent && arrived->second.arrived))
    arrived = mailbox_.end();
  InstanceKey key{desc.axes, route.leader,
                  asyncSeq_[position][{desc.axes, route.leader}]++};
  if (route.target >= 0) {
    MailKey sendKey;
    Message &m = outgoingLocked(position, route, key, desc, sendKey);
    m.forwardPending = true;
    m.forwardFrom = incomingKey;
    m.inputReady = fromNone;
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
    if (m.inputReady)
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

bool InProcessCommunicator::incomingDone(const PendingReceive &receive) {
  if (receive.sourceRank < 0)
    return true;
  auto it = mailbox_.find({receive.key, receive.rank});
  if (it == mailbox_.end())
    return false;
  const Message &m = it->second;
  // A staged receiver copies for itself once the payload has arrived.
  return receive.out ? m.copied && m.arrived : m.sent && m.arrived;
}

bool InProcessCommunicator::outgoingDone(const PendingReceive &receive) {
  if (receive.targetRank < 0 || !receive.out)
    return true;
  auto it = mailbox_.find({receive.key, receive.targetRank});
  return it == mailbox_.end() || it->second.copied;
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
    if (m.forwardPending)
      return forwardChainEnd(m).willSend;
    return m.sent && (staged || m.received);
  };
  bool in = haveIncoming || incomingDone(receive) ||
            willComplete({receive.key, receive.rank}, !receive.out);
  bool out = outgoingDone(receive) ||
             willComplete({receive.key, receive.targetRank}, false);
  return in && out;
}

std::string InProcessCommunicator::forwardBlameLocked(const Message &m) const {
  const Message *at = forwardChainEnd(m).stalled;
  if (!at || at->forwardSourcePosition < 0 ||
      state_[at->forwardSourcePosition] != State::Finished)
    return "";
  return deviceName(at->forwardSourcePosition) + " finished without sending " +
         siteName(at->incomingDesc.site) + " to " +
         deviceName(at->sourcePosition) + ", which was to forward it to " +
         deviceName(at->targetPosition);
}

std::string InProcessCommunicator::finishedPeerLocked(
    int64_t position, const std::vector<int64_t> &members,
    const PendingReceive &receive, bool haveIncoming) {
  if (!haveIncoming && !incomingDone(receive)) {
    int64_t sourcePosition = members[receive.sourceRank];
    auto it = mailbox_.find({receive.key, receive.rank});
    // A finished device's forward still goes once its incoming arrives.
    if ((it == mailbox_.end() ||
         (!it->second.sent && !it->second.forwardPending)) &&
        state_[sourcePosition] == State::Finished)
      return deviceName(sourcePosition) + " finished without sending " +
             siteName(receive.desc.site) + " to " + deviceName(position);
    if (it != mailbox_.end() && it->second.forwardPending) {
      std::string blame = forwardBlameLocked(it->second);
      if (!blame.empty())
        return blame;
    }
  }
  if (!outgoingDone(receive)) {
    int64_t targetPosition = members[receive.targetRank];
    auto it = mailbox_.find({receive.key, receive.targetRank});
    if ((it == mailbox_.end() || !it->second.received) &&
        state_[targetPosition] == State::Finished)
      return deviceName(targetPosition) + " finished without receiving " +
             siteName(receive.desc.site) + " from " + deviceName(position);
  }
  return "";
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
  while (true) {
    if (aborted_)
      return false;
    if (!haveIncoming && incomingDone(receive)) {
      auto it = mailbox_.find(receiveKey);
      Message &m = it->second;
      if (!direct) {
        // Staged: this device's destination is known only now.
        m.received = true;
        m.receiverDesc = receive.desc;
        m.dst = out;
        if (!checkPairLocked(m))
          return false;
        m.copying = true;
        lock.unlock();
        std::memcpy(out, m.src, m.bytes);
        lock.lock();
      }
      // A direct sender waits for this message to be copied or gone.
      wakeLocked(m.sourcePosition);
      mailbox_.erase(it);
      haveIncoming = true;
    }
    if (haveIncoming && outgoingDone(receive))
      return true;
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

void InProcessCommunicator::deviceFinished(DeviceContext &device) {
  std::lock_guard<std::mutex> lock(mu_);
  state_[device.position] = State::Finished;
  --live_;
  // Receivers waiting for this device's data must re-check.
  checkStuckLocked();
  wakeAllLocked();
}

} // namespace

std::unique_ptr<Communicator> mlir::trellis::rt::createInProcessCommunicator(
    const MeshShape &mesh, const std::vector<SiteInfo> &sites,
    const LinkModel &link) {
  return std::make_unique<InProcessCommunicator>(mesh, sites, link);
}
