//===- MpiCommunicatorImpl.h - The MPI communicator ------------*- C++ -*-===//
//
// Private to the MPI communicator (MpiCommunicator.cpp, which says how it
// works): the class, shared by its files, one per job: agreement, failure
// diagnosis and the end of a run (MpiCommunicator.cpp), the blocking and
// nonblocking collectives (MpiCollectives.cpp), and asynchronous ppermutes
// (MpiAsyncPermute.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_MPICOMMUNICATORIMPL_H
#define TRELLIS_LIB_RUNTIME_MPICOMMUNICATORIMPL_H

#include "lib/Runtime/MpiCommunicator.h"

#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/ModelledLinks.h"
#include "lib/Runtime/MpiTypes.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <map>
#include <mutex>
#include <sched.h>
#include <thread>

namespace mlir::trellis::rt::mpi {

constexpr int kTagFinished = 1;
constexpr int kTagPermute = 2;
constexpr int kTagAsyncBase = 100; ///< + site, so mismatched sites never meet
/// The largest count an MPI call takes.
constexpr int64_t maxCount = INT_MAX;

struct AsyncPermute {
  /// The payload's receive and send; with virtual clocks, then the send
  /// times' (matched after the payloads: same tag, same order).
  MPI_Request requests[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL,
                             MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  /// Virtual clock: this device's send time and the source's (on the
  /// heap: MPI writes there while async_ may grow).
  std::unique_ptr<double[]> clocks;
  int64_t sourcePosition = -1;
  bool sends = false; ///< this device has a target
  std::vector<char> sendBuffer, receiveBuffer;
  void *out = nullptr; ///< the receiver's buffer, when given at the start
  int64_t bytes = 0;
  int64_t site = -1;
  int64_t axes = 0;
  int sourceRank = -1;
  bool used = false;
};

struct MpiPending;

class MpiCommunicator final : public Communicator {
public:
  MpiCommunicator(const MeshShape &mesh, const std::vector<SiteInfo> &sites,
                  const MpiOptions &options)
      : mesh_(mesh), sites_(sites), options_(options),
        links_(mesh_, options.link) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &worldSize_);
    position_ = mpiLocalPosition(mesh_, rank_);
    MPI_Comm_dup(MPI_COMM_WORLD, &control_);
    finishedEpoch_.assign(worldSize_, 0);
    finishedSeenUs_.assign(worldSize_, 0);
    // Every ordered list of up to four distinct axes, split now: splitting
    // lazily would be a collective call that ranks of a mismatched program
    // might never all make.
    if (mesh_.numAxes() <= 4) {
      AxisList list;
      std::vector<bool> used(mesh_.numAxes(), false);
      splitAll(list, used);
    }
  }

  ~MpiCommunicator() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized)
      return;
    for (auto &[axes, comm] : groups_)
      MPI_Comm_free(&comm);
    MPI_Comm_free(&control_);
  }

  bool execute(DeviceContext &device, const CollectiveDesc &desc,
               const void *in, void *out,
               const AsyncStart *started = nullptr) override;
  bool begin(DeviceContext &device, const CollectiveDesc &desc, const void *in,
             std::unique_ptr<PendingCollective> &pending) override;
  int64_t startPermute(DeviceContext &device, const CollectiveDesc &desc,
                       const void *in, void *out,
                       TransferTiming *timing) override;
  bool waitPermute(DeviceContext &device, int64_t handle, void *out) override;
  bool permuteReady(DeviceContext &device, int64_t handle) override;
  void deviceFinished(DeviceContext &device) override;
  void fail(const std::string &message) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!failed_) {
      error_ = message;
      failed_ = true;
    }
  }
  bool hasFailed(std::string *message) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (failed_ && message)
      *message = error_;
    return failed_;
  }

private:
  void splitAll(AxisList &list, std::vector<bool> &used) {
    for (int a = 0; a < mesh_.numAxes(); ++a) {
      if (used[a])
        continue;
      used[a] = true;
      list.push_back(a);
      groupComm(packAxes(list));
      splitAll(list, used);
      list.pop_back();
      used[a] = false;
    }
  }

  MPI_Comm groupComm(int64_t packed) {
    auto it = groups_.find(packed);
    if (it != groups_.end())
      return it->second;
    AxisList axes = unpackAxes(packed);
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD,
                   static_cast<int>(mesh_.groupLeader(position_, axes)),
                   static_cast<int>(mesh_.rankInGroup(position_, axes)), &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    groups_[packed] = comm;
    return comm;
  }

  std::string rankName(int64_t position) const {
    return "rank " + std::to_string(mesh_.deviceAt(position));
  }
  std::string siteName(int64_t site) const {
    if (site >= 0 && site < static_cast<int64_t>(sites_.size()))
      return sites_[site].describe();
    return "a collective";
  }
  std::string groupName(int64_t packed) const {
    return "the group over " + mesh_.formatAxes(unpackAxes(packed));
  }
  bool mpiFailed(int code, const std::string &what) {
    if (code == MPI_SUCCESS)
      return false;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    fail(rankName(position_) + ": MPI error in " + what + ": " +
         std::string(text, length));
    return true;
  }

  /// Records the finished notices that have arrived.
  void drainControl() {
    while (true) {
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kTagFinished, control_, &flag, &status);
      if (!flag)
        return;
      int64_t epoch = 0;
      MPI_Recv(&epoch, 1, MPI_INT64_T, status.MPI_SOURCE, kTagFinished,
               control_, MPI_STATUS_IGNORE);
      finishedEpoch_[status.MPI_SOURCE] = epoch;
      finishedSeenUs_[status.MPI_SOURCE] = nowUs();
    }
  }

  /// Polls `requests` until they complete. Fails (returns false) when the
  /// run has failed, or when a member of `members` (positions) finished
  /// this run without taking part.
  bool waitFor(MPI_Request *requests, int count,
               const std::vector<int64_t> &members, int64_t site,
               const std::string &what) {
    for (int64_t polls = 0;; ++polls) {
      int done = 0;
      int code = MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE);
      if (mpiFailed(code, what))
        return false;
      if (done)
        return true;
      if (failed_)
        return false;
      if (polls % 64 == 0) {
        drainControl();
        double now = nowUs();
        for (int64_t member : members) {
          int64_t r = mesh_.deviceAt(member);
          if (member == position_ || finishedEpoch_[r] < epoch_)
            continue;
          // Data it sent may still be arriving: give it a grace period.
          if (now - finishedSeenUs_[r] < options_.finishedGraceSeconds * 1e6)
            continue;
          fail(rankName(member) + " finished without reaching " +
               siteName(site) + ", which " + rankName(position_) +
               " waits in (" + what + ")");
          return false;
        }
      }
      if (polls > 200)
        sched_yield(); // ranks may outnumber cores (--oversubscribe)
    }
  }

  /// Every member checks that the group reached the same collective.
  bool agree(const CollectiveDesc &desc, MPI_Comm comm,
             const std::vector<int64_t> &members);

  /// Allgather of `bytes` from every member into `out` (n * bytes).
  bool gatherBytes(MPI_Comm comm, const void *in, void *out, int64_t bytes,
                   const std::vector<int64_t> &members, int64_t site);

  /// A blocking collective as this rank makes it, and its group.
  struct Call {
    Call(const CollectiveDesc &desc, const void *in, void *out)
        : desc(desc), in(in), out(out) {}
    const CollectiveDesc &desc;
    const void *in;
    void *out;
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<int64_t> members; ///< positions, by rank
    int64_t n = 0, rank = 0, elem = 0;
    std::string what; ///< the site, for errors
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
    /// Whether MPI has the type and the reduction.
    bool native() const {
      return type != MPI_DATATYPE_NULL && op != MPI_OP_NULL;
    }
  };
  /// The call `desc` makes on this rank.
  Call makeCall(const CollectiveDesc &desc, const void *in, void *out) {
    AxisList axes = unpackAxes(desc.axes);
    Call call(desc, in, out);
    call.comm = groupComm(desc.axes);
    call.members = mesh_.groupMembers(position_, axes);
    call.n = static_cast<int64_t>(call.members.size());
    call.rank = mesh_.rankInGroup(position_, axes);
    call.elem = dtypeSize(desc.dtype);
    call.what = siteName(desc.site);
    call.type = mpiType(desc.dtype);
    call.op = mpiOp(desc.dtype, desc.reduction);
    return call;
  }
  /// Whether begin() can set `call` going as one MPI nonblocking
  /// collective (MPI's own type and reduction, counts that fit an int).
  static bool nonblocking(const Call &call);
  /// Delivers a collective begin() set going into `call.out`.
  bool complete(const Call &call, MpiPending &pending);
  // Between a collective's operand or result and the contiguous chunk per
  // member that MPI sends and receives (geometry as CollectiveDesc says).
  /// Whether the gathered chunks are contiguous in the output.
  static bool gatherInPlace(const CollectiveDesc &d) {
    return d.geometry[0] == 1;
  }
  /// Whether member k's chunk of a reduce-scatter's input is contiguous.
  static bool scatterInPlace(const CollectiveDesc &d) {
    return d.geometry[0] == 1;
  }
  /// Whether an all_to_all's split and concatenated dimensions lead, so
  /// that its chunks are contiguous in both buffers.
  static bool allToAllInPlace(const CollectiveDesc &d) {
    return d.geometry[0] == 1 && d.geometry[2] == 1;
  }
  /// Member k's chunk of a reduce-scatter's input, into `send`.
  static void packScatter(const Call &call, char *send);
  /// Chunk j of an all_to_all's split dimension (member j's), into `send`.
  static void packAllToAll(const Call &call, char *send);
  /// The members' gathered chunks, one after the other in `all`, into the
  /// output's layout.
  static void unpackGather(const Call &call, const char *all);
  /// The chunk from each member, one after the other in `received`, as
  /// its block of the concatenated dimension of the output.
  static void unpackAllToAll(const Call &call, const char *received);
  // execute() per kind of collective.
  bool allReduce(const Call &call);
  bool allGather(const Call &call);
  bool reduceScatter(const Call &call);
  bool allToAll(const Call &call);
  bool ppermute(const Call &call);

  /// Virtual clock: the group's latest arrival at a collective (at its
  /// start, for an asynchronous one); `mine` is this member's.
  bool latestArrival(double mine, const Call &call, double &latest);

  MeshShape mesh_;
  std::vector<SiteInfo> sites_;
  MpiOptions options_;
  ModelledLinks links_;
  int rank_ = 0, worldSize_ = 1;
  int64_t position_ = 0;
  MPI_Comm control_ = MPI_COMM_NULL;
  std::map<int64_t, MPI_Comm> groups_;
  std::mutex mu_;
  std::atomic<bool> failed_{false};
  std::string error_;
  /// Runs are numbered from 1; a rank's finished notice carries the run.
  int64_t epoch_ = 1;
  int64_t sentEpoch_ = 0; ///< the buffer of the finished notices
  std::vector<int64_t> finishedEpoch_;
  std::vector<double> finishedSeenUs_;
  std::vector<AsyncPermute> async_;
  /// Staging buffers for re-layouts, kept across collectives: fresh
  /// allocations cost page faults (and MPI re-registers them) every call.
  std::unique_ptr<char[]> scratch_[2];
  int64_t scratchBytes_[2] = {0, 0};
  char *scratch(int which, int64_t bytes) {
    if (scratchBytes_[which] < bytes) {
      scratch_[which].reset(new char[bytes]);
      scratchBytes_[which] = bytes;
    }
    return scratch_[which].get();
  }
};

} // namespace mlir::trellis::rt::mpi

#endif // TRELLIS_LIB_RUNTIME_MPICOMMUNICATORIMPL_H
