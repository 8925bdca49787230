//===- InProcessCommunicator.h - Devices as threads, memory -----*- C++ -*-===//
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
//===----------------------------------------------------------------------===//
//
// This header is private to the files that implement the communicator, one
// job each: InProcessCommunicator.cpp (rendezvous collectives, failure),
// InProcessDiagnosis.cpp (mismatches, finished peers, deadlocks),
// InProcessMailbox.cpp (asynchronous ppermutes), InProcessTransferEngine.cpp
// (putting payloads on the wire, the engine thread) and ModelledLinks.cpp
// (the link timing).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_INPROCESSCOMMUNICATOR_H
#define TRELLIS_LIB_RUNTIME_INPROCESSCOMMUNICATOR_H

#include "lib/Runtime/ModelledLinks.h"
#include "trellis/Runtime/Runtime.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace mlir::trellis::rt::inprocess {

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
  /// The work, split into tasks that whichever members are running take
  /// (work-sharing: on fewer cores than devices, the threads that are
  /// scheduled do it all instead of each waiting its turn for its share).
  int64_t numTasks = 0;
  std::atomic<int64_t> nextTask{0};
  std::atomic<int64_t> doneTasks{0};
  bool ready = false;
  double readyUs = 0; ///< when the last member arrived
  /// Virtual clock: the latest member's time of arrival (of its start, for
  /// an asynchronous collective).
  double lastArrivalUs = 0;
  /// When the collective began on the modelled links (virtual clocks: at
  /// or after lastArrivalUs, once its ring's links were free).
  double beginUs = 0;
  /// Asynchronous: the latest member's start on the wall clock.
  double lastStartWallUs = 0;
};

using MailKey = std::pair<InstanceKey, int64_t>; ///< (instance, target rank)

/// How far the sending side of a message has got. A ppermute is InFlight
/// from its start, and has Arrived once its modelled transfer time has
/// passed.
enum class SendState {
  NotStarted, ///< the sender has not started yet
  InFlight,   ///< sent: the payload is known
  Arrived,    ///< sent, and the modelled transfer time has passed
};

/// How far the receiving side of a message has got, independently of the
/// sending side: the receiver may name its destination before or after the
/// sender starts, and the copy may happen before or after the payload has
/// arrived.
enum class ReceiveState {
  Unknown, ///< the receiver's destination is not known yet
  Known,   ///< `dst` is known, no copy scheduled yet
  Copying, ///< a copy is scheduled or under way
  Copied,  ///< the bytes are in `dst`
};

/// An asynchronous ppermute payload from one source to one target. The
/// sender fills in the source side when it starts; the receiver its
/// destination when it starts (direct) or when it waits (staged). The bytes
/// are copied once, as soon as both sides are known.
struct Message {
  int64_t sourcePosition = -1, targetPosition = -1;
  int64_t bytes = 0;
  SendState send = SendState::NotStarted;
  ReceiveState receive = ReceiveState::Unknown;
  CollectiveDesc desc;       ///< the sender's
  const void *src = nullptr; ///< direct: the sender's buffer; staged: data
  /// A staged sender's copy of its payload.
  std::shared_ptr<std::vector<char>> data;
  CollectiveDesc receiverDesc;
  void *dst = nullptr;
  double deliverAtUs = 0;
  /// When it left the sender (virtual clock: the sender's time then).
  double sentAtUs = 0;
  int tieDirection = 1;

  /// The sender has started: its payload is known.
  bool sent() const { return send >= SendState::InFlight; }
  bool arrived() const { return send == SendState::Arrived; }
  bool received() const { return receive != ReceiveState::Unknown; }
  bool copied() const { return receive == ReceiveState::Copied; }
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
  void *out = nullptr;     ///< direct: the destination given at the start
  int64_t targetRank = -1; ///< -1: this device sends nothing
  /// Virtual clock: when this device's own payload has left its buffer
  /// (a direct sender's wait lasts until then).
  double sendDoneUs = 0;
};

enum class State { Running, Waiting, Finished };

class InProcessCommunicator final : public Communicator {
public:
  InProcessCommunicator(const MeshShape &mesh,
                        const std::vector<SiteInfo> &sites,
                        const LinkModel &link, bool virtualClock)
      : mesh_(mesh), sites_(sites), links_(mesh, link, virtualClock),
        seq_(mesh.numDevices()), asyncSeq_(mesh.numDevices()),
        pending_(mesh.numDevices()), state_(mesh.numDevices(), State::Running),
        waitingOn_(mesh.numDevices()), waitSatisfied_(mesh.numDevices()),
        waitBlame_(mesh.numDevices()),
        permuteCv_(new std::condition_variable[mesh.numDevices()]),
        live_(mesh.numDevices()) {}

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
               const void *in, void *out,
               const AsyncStart *started = nullptr) override;
  int64_t startPermute(DeviceContext &device, const CollectiveDesc &desc,
                       const void *in, void *out,
                       TransferTiming *timing) override;
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
  //===--------------------------------------------------------------------===//
  // Rendezvous collectives and failure (InProcessCommunicator.cpp)
  //===--------------------------------------------------------------------===//

  // All of the *Locked functions run with mu_ held.
  void failLocked(const std::string &message);
  /// Task `task` of the collective (numTasks of them).
  void work(const Rendezvous &rv, int64_t task, const CollectiveDesc &desc);
  /// Takes and runs tasks of `rv` until none is left.
  void runTasks(Rendezvous &rv, const CollectiveDesc &desc);

  //===--------------------------------------------------------------------===//
  // Diagnosis: mismatches, finished peers, deadlocks (InProcessDiagnosis.cpp)
  //===--------------------------------------------------------------------===//

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
  std::string describeMismatch(const Rendezvous &rv, int64_t axes) const;
  bool checkComplete(const Rendezvous &rv, int64_t axes);
  void checkStuckLocked();
  /// Whether a ppermute wait for `receive` soon completes without any
  /// device's help.
  bool waitWillComplete(const PendingReceive &receive, bool haveIncoming);
  /// The error for a ppermute wait whose peer finished without its side of
  /// the pair, or "" while the wait can still complete.
  std::string finishedPeerLocked(int64_t position,
                                 const std::vector<int64_t> &members,
                                 const PendingReceive &receive,
                                 bool haveIncoming);

  //===--------------------------------------------------------------------===//
  // The mailbox of asynchronous ppermutes (InProcessMailbox.cpp)
  //===--------------------------------------------------------------------===//

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
  /// Checks that both sides of `m` agree; fails otherwise.
  bool checkPairLocked(const Message &m);
  /// Checks `m`'s two sides (false: failed) and, once both are known,
  /// schedules its copy: on the engine with a link model, else appended to
  /// `jobs` for the caller to make.
  bool pairUpLocked(const MailKey &key, Message &m, std::vector<MailKey> &jobs);
  /// Makes the copies in `jobs` with the lock released.
  void runCopies(std::unique_lock<std::mutex> &lock,
                 const std::vector<MailKey> &jobs);
  /// Whether device `position`'s wait for `receive` is complete.
  bool incomingDone(const PendingReceive &receive);
  bool outgoingDone(const PendingReceive &receive);

  //===--------------------------------------------------------------------===//
  // Payloads on the wire (InProcessTransferEngine.cpp)
  //===--------------------------------------------------------------------===//

  /// Puts `m` (sent: its payload is known) on the wire: plans its transfer
  /// from `now`, or marks it arrived without a link model. Returns when the
  /// payload has left the sender (the end of its time on the first link).
  double sendLocked(const MailKey &key, Message &m, double now,
                    TransferTiming *timing, std::vector<MailKey> &jobs);
  /// The transfer engine: copies payloads as soon as both sides are known
  /// and marks them arrived at their modelled arrival times.
  void runEngine();
  void startEngineLocked();

  //===--------------------------------------------------------------------===//
  // State, all guarded by mu_
  //===--------------------------------------------------------------------===//

  const MeshShape &mesh_;
  const std::vector<SiteInfo> &sites_;
  ModelledLinks links_;

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
  std::thread engine_;
  std::condition_variable engineCv_;
  std::priority_queue<Delivery, std::vector<Delivery>, std::greater<Delivery>>
      deliveries_;
  std::deque<MailKey> copies_; ///< copies the engine has to make
  bool stopping_ = false;
  int64_t live_;
  bool aborted_ = false;
  std::string error_;
};

} // namespace mlir::trellis::rt::inprocess

#endif // TRELLIS_LIB_RUNTIME_INPROCESSCOMMUNICATOR_H
