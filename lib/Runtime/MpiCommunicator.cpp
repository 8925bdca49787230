//===- MpiCommunicator.cpp - Collectives between MPI processes ------------===//
//
// One device per rank. Collectives run on a sub-communicator per (ordered)
// axis list, split from MPI_COMM_WORLD by mesh coordinates: the colour is
// the group's leader position and the key the device's rank in the group,
// so MPI ranks in a sub-communicator are the group ranks the compiled code
// uses. Data moves with the natural MPI call; the local re-layouts of
// gathers and scatters along inner dimensions reuse CollectiveKernels.
//
// Errors without hangs: before a blocking collective the group agrees, by
// a non-blocking all-reduce of a signature that is polled, that every
// member reached the same op; while polling, a rank also watches for
// "finished" notices from the other ranks on a control communicator, so a
// rank that ended without reaching the collective is named instead of
// waited for. Failures end the job through the driver (MPI_Abort).
//
//===----------------------------------------------------------------------===//

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

using namespace mlir::trellis::rt;

namespace {

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

bool MpiCommunicator::agree(const CollectiveDesc &desc, MPI_Comm comm,
                            const std::vector<int64_t> &members) {
  const std::string what = groupName(desc.axes);
  // A signature of everything the members must agree on.
  uint64_t sig = 1469598103934665603ull;
  auto mix = [&](int64_t v) {
    sig = (sig ^ static_cast<uint64_t>(v)) * 1099511628211ull;
  };
  mix(desc.site);
  mix(static_cast<int64_t>(desc.kind));
  mix(desc.dtype);
  mix(desc.reduction);
  for (int64_t g : desc.geometry)
    mix(g);
  int64_t s = static_cast<int64_t>(sig >> 1);
  int64_t mine[2] = {s, -s}, both[2] = {0, 0};
  MPI_Request request;
  if (mpiFailed(
          MPI_Iallreduce(mine, both, 2, MPI_INT64_T, MPI_MAX, comm, &request),
          "the collective check"))
    return false;
  if (!waitFor(&request, 1, members, desc.site, what))
    return false;
  if (both[0] == -both[1])
    return true;
  // They disagree: every member is here, so a blocking gather is safe.
  const int64_t n = static_cast<int64_t>(members.size());
  int64_t info[3] = {desc.site, static_cast<int64_t>(desc.kind), desc.dtype};
  std::vector<int64_t> all(3 * n);
  MPI_Allgather(info, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, comm);
  std::string message = "ranks disagree on a collective (" + what + "):";
  for (int64_t k = 0; k < n; ++k)
    message += std::string(k ? "," : "") + " " + rankName(members[k]) +
               " reached " + siteName(all[3 * k]) + " (" +
               dtypeName(static_cast<int32_t>(all[3 * k + 2])) + ")";
  // One report is enough: the group's first member makes it while the
  // others give it time to end the job.
  if (mesh_.rankInGroup(position_, unpackAxes(desc.axes)) != 0)
    std::this_thread::sleep_for(
        std::chrono::duration<double>(options_.finishedGraceSeconds + 1));
  fail(message);
  return false;
}

bool MpiCommunicator::gatherBytes(MPI_Comm comm, const void *in, void *out,
                                  int64_t bytes,
                                  const std::vector<int64_t> &members,
                                  int64_t site) {
  if (bytes > INT_MAX) {
    fail("collective of " + std::to_string(bytes) +
         " bytes per device is too large for the MPI backend");
    return false;
  }
  MPI_Request request;
  if (mpiFailed(MPI_Iallgather(in, static_cast<int>(bytes), MPI_BYTE, out,
                               static_cast<int>(bytes), MPI_BYTE, comm,
                               &request),
                siteName(site)))
    return false;
  return waitFor(&request, 1, members, site, siteName(site));
}

/// A collective begin() set going with an MPI nonblocking call: its
/// request, the re-laid-out input it sends (when the operand's layout is
/// not MPI's) and the buffer it receives into, which the wait unpacks.
struct MpiPending final : PendingCollective {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<char> send, recv;
};

void MpiCommunicator::packScatter(const Call &call, char *send) {
  const int64_t *g = call.desc.geometry;
  const int64_t inner = g[1], chunk = g[0] * g[1];
  for (int64_t k = 0; k < call.n; ++k)
    copyChunk(call.elem, static_cast<const char *>(call.in), inner, call.n, k,
              send, chunk, call.n, k, chunk);
}

void MpiCommunicator::packAllToAll(const Call &call, char *send) {
  const int64_t *g = call.desc.geometry;
  const int64_t b = g[1], chunk = g[0] * g[1];
  for (int64_t j = 0; j < call.n; ++j)
    copyChunk(call.elem, static_cast<const char *>(call.in), b, call.n, j, send,
              chunk, call.n, j, chunk);
}

void MpiCommunicator::unpackGather(const Call &call, const char *all) {
  const int64_t *g = call.desc.geometry;
  const int64_t inner = g[1], chunk = g[0] * g[1];
  for (int64_t k = 0; k < call.n; ++k)
    copyChunk(call.elem, all + k * chunk * call.elem, chunk, 1, 0,
              static_cast<char *>(call.out), inner, call.n, k, chunk);
}

void MpiCommunicator::unpackAllToAll(const Call &call, const char *received) {
  const int64_t *g = call.desc.geometry;
  const int64_t chunk = g[0] * g[1], d = g[3];
  for (int64_t k = 0; k < call.n; ++k)
    copyChunk(call.elem, received, chunk, call.n, k,
              static_cast<char *>(call.out), d, call.n, k, chunk);
}

bool MpiCommunicator::nonblocking(const Call &call) {
  const int64_t *g = call.desc.geometry;
  const int64_t elem = call.elem;
  switch (call.desc.kind) {
  case CollectiveKind::AllReduce:
    return call.native() && g[0] <= maxCount;
  case CollectiveKind::AllGather:
    return g[0] * g[1] * elem <= maxCount;
  case CollectiveKind::ReduceScatter:
    return call.native() && g[0] * g[1] <= maxCount;
  case CollectiveKind::AllToAll:
    return g[0] * g[1] * elem <= maxCount;
  case CollectiveKind::Ppermute:
    return false;
  }
  return false;
}

bool MpiCommunicator::begin(DeviceContext &device, const CollectiveDesc &desc,
                            const void *in,
                            std::unique_ptr<PendingCollective> &pending) {
  if (failed_)
    return false;
  Call call = makeCall(desc, in, nullptr);
  if (!nonblocking(call))
    return true; // the blocking path, at the wait
  // The members check that they agree before anything is sent: a start
  // with the check on meets the group's other starts.
  if (options_.checkCollectives && !agree(desc, call.comm, call.members))
    return false;
  auto p = std::make_unique<MpiPending>();
  const int64_t *g = desc.geometry;
  const int64_t n = call.n, elem = call.elem;
  int code = MPI_SUCCESS;
  switch (desc.kind) {
  case CollectiveKind::AllReduce:
    p->recv.resize(g[0] * elem);
    code = MPI_Iallreduce(in, p->recv.data(), static_cast<int>(g[0]), call.type,
                          call.op, call.comm, &p->request);
    break;
  case CollectiveKind::AllGather: {
    const int bytes = static_cast<int>(g[0] * g[1] * elem);
    p->recv.resize(n * bytes);
    code = MPI_Iallgather(in, bytes, MPI_BYTE, p->recv.data(), bytes, MPI_BYTE,
                          call.comm, &p->request);
    break;
  }
  case CollectiveKind::ReduceScatter: {
    const int64_t chunk = g[0] * g[1];
    const char *send = static_cast<const char *>(in);
    if (!scatterInPlace(desc)) {
      p->send.resize(n * chunk * elem);
      packScatter(call, p->send.data());
      send = p->send.data();
    }
    p->recv.resize(chunk * elem);
    code =
        MPI_Ireduce_scatter_block(send, p->recv.data(), static_cast<int>(chunk),
                                  call.type, call.op, call.comm, &p->request);
    break;
  }
  case CollectiveKind::AllToAll: {
    const int64_t chunk = g[0] * g[1];
    const char *send = static_cast<const char *>(in);
    if (!allToAllInPlace(desc)) {
      p->send.resize(n * chunk * elem);
      packAllToAll(call, p->send.data());
      send = p->send.data();
    }
    p->recv.resize(n * chunk * elem);
    const int bytes = static_cast<int>(chunk * elem);
    code = MPI_Ialltoall(send, bytes, MPI_BYTE, p->recv.data(), bytes, MPI_BYTE,
                         call.comm, &p->request);
    break;
  }
  case CollectiveKind::Ppermute:
    return true;
  }
  if (mpiFailed(code, call.what))
    return false;
  pending = std::move(p);
  return true;
}

bool MpiCommunicator::complete(const Call &call, MpiPending &p) {
  if (!waitFor(&p.request, 1, call.members, call.desc.site, call.what))
    return false;
  if (call.desc.kind == CollectiveKind::AllGather && !gatherInPlace(call.desc))
    unpackGather(call, p.recv.data());
  else if (call.desc.kind == CollectiveKind::AllToAll &&
           !allToAllInPlace(call.desc))
    unpackAllToAll(call, p.recv.data());
  else // received in the output's layout
    std::memcpy(call.out, p.recv.data(), p.recv.size());
  return true;
}

bool MpiCommunicator::execute(DeviceContext &device, const CollectiveDesc &desc,
                              const void *in, void *out,
                              const AsyncStart *started) {
  if (failed_)
    return false;
  Call call = makeCall(desc, in, out);
  auto *pending =
      started ? static_cast<MpiPending *>(started->pending.get()) : nullptr;
  // A collective begin() set going was checked there.
  if (!pending && options_.checkCollectives &&
      !agree(desc, call.comm, call.members))
    return false;
  double latest = 0;
  if (options_.virtualClock &&
      !latestArrival(collectiveArrivalUs(device, started), call, latest))
    return false;
  if (pending) {
    bool ok = complete(call, *pending);
    if (ok && options_.virtualClock)
      finishCollective(device, latest, links_.modelledUs(desc, call.n),
                       started);
    return ok;
  }
  bool ok = false;
  switch (desc.kind) {
  case CollectiveKind::AllReduce:
    ok = allReduce(call);
    break;
  case CollectiveKind::AllGather:
    ok = allGather(call);
    break;
  case CollectiveKind::ReduceScatter:
    ok = reduceScatter(call);
    break;
  case CollectiveKind::AllToAll:
    ok = allToAll(call);
    break;
  case CollectiveKind::Ppermute:
    ok = ppermute(call);
    break;
  }
  if (ok && options_.virtualClock)
    finishCollective(device, latest, links_.modelledUs(desc, call.n), started);
  return ok;
}

bool MpiCommunicator::latestArrival(double mine, const Call &call,
                                    double &latest) {
  MPI_Request request;
  if (mpiFailed(MPI_Iallreduce(&mine, &latest, 1, MPI_DOUBLE, MPI_MAX,
                               call.comm, &request),
                call.what))
    return false;
  return waitFor(&request, 1, call.members, call.desc.site, call.what);
}

bool MpiCommunicator::allReduce(const Call &call) {
  const CollectiveDesc &desc = call.desc;
  const int64_t n = call.n, elem = call.elem;
  const int64_t count = desc.geometry[0];
  if (call.native() && count <= maxCount)
    return !mpiFailed(
        MPI_Allreduce(call.in == call.out ? MPI_IN_PLACE : call.in, call.out,
                      static_cast<int>(count), call.type, call.op, call.comm),
        call.what);
  // Types and reductions MPI does not have: gather, reduce locally.
  char *all = scratch(0, n * count * elem);
  if (!gatherBytes(call.comm, call.in, all, count * elem, call.members,
                   desc.site))
    return false;
  std::vector<const void *> inputs;
  for (int64_t k = 0; k < n; ++k)
    inputs.push_back(all + k * count * elem);
  reduceBlocks(desc.dtype, desc.reduction, inputs, 0, count, call.out);
  return true;
}

bool MpiCommunicator::allGather(const Call &call) {
  const int64_t n = call.n, elem = call.elem;
  const int64_t chunk = call.desc.geometry[0] * call.desc.geometry[1];
  if (gatherInPlace(call.desc))
    return gatherBytes(call.comm, call.in, call.out, chunk * elem, call.members,
                       call.desc.site);
  char *all = scratch(0, n * chunk * elem);
  if (!gatherBytes(call.comm, call.in, all, chunk * elem, call.members,
                   call.desc.site))
    return false;
  unpackGather(call, all);
  return true;
}

bool MpiCommunicator::reduceScatter(const Call &call) {
  const CollectiveDesc &desc = call.desc;
  const int64_t n = call.n, elem = call.elem;
  const int64_t chunk = desc.geometry[0] * desc.geometry[1];
  const char *send = static_cast<const char *>(call.in);
  if (!scatterInPlace(desc)) {
    char *packed = scratch(0, n * chunk * elem);
    packScatter(call, packed);
    send = packed;
  }
  if (call.native() && chunk <= maxCount)
    return !mpiFailed(MPI_Reduce_scatter_block(send, call.out,
                                               static_cast<int>(chunk),
                                               call.type, call.op, call.comm),
                      call.what);
  // Exchange chunks, then reduce the n received ones locally.
  if (chunk * elem > maxCount) {
    fail("collective of " + std::to_string(chunk * elem) +
         " bytes per chunk is too large for the MPI backend");
    return false;
  }
  char *received = scratch(1, n * chunk * elem);
  if (mpiFailed(MPI_Alltoall(send, static_cast<int>(chunk * elem), MPI_BYTE,
                             received, static_cast<int>(chunk * elem), MPI_BYTE,
                             call.comm),
                call.what))
    return false;
  std::vector<const void *> inputs;
  for (int64_t k = 0; k < n; ++k)
    inputs.push_back(received + k * chunk * elem);
  reduceBlocks(desc.dtype, desc.reduction, inputs, 0, chunk, call.out);
  return true;
}

bool MpiCommunicator::allToAll(const Call &call) {
  const CollectiveDesc &desc = call.desc;
  const int64_t n = call.n, elem = call.elem;
  const int64_t chunk = desc.geometry[0] * desc.geometry[1];
  if (chunk * elem > maxCount) {
    fail("collective of " + std::to_string(chunk * elem) +
         " bytes per chunk is too large for the MPI backend");
    return false;
  }
  if (allToAllInPlace(desc))
    return !mpiFailed(MPI_Alltoall(call.in, static_cast<int>(chunk * elem),
                                   MPI_BYTE, call.out,
                                   static_cast<int>(chunk * elem), MPI_BYTE,
                                   call.comm),
                      call.what);
  char *send = scratch(0, n * chunk * elem);
  char *received = scratch(1, n * chunk * elem);
  packAllToAll(call, send);
  if (mpiFailed(MPI_Alltoall(send, static_cast<int>(chunk * elem), MPI_BYTE,
                             received, static_cast<int>(chunk * elem), MPI_BYTE,
                             call.comm),
                call.what))
    return false;
  unpackAllToAll(call, received);
  return true;
}

bool MpiCommunicator::ppermute(const Call &call) {
  const CollectiveDesc &desc = call.desc;
  const int64_t bytes = desc.geometry[0] * call.elem;
  if (bytes > maxCount) {
    fail("ppermute of " + std::to_string(bytes) +
         " bytes is too large for the MPI backend");
    return false;
  }
  int64_t target = -1, source = -1;
  if (desc.site >= 0 && desc.site < static_cast<int64_t>(sites_.size()))
    for (auto [s, t] : sites_[desc.site].pairs) {
      if (s == call.rank)
        target = t;
      if (t == call.rank)
        source = s;
    }
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (source >= 0 && mpiFailed(MPI_Irecv(call.out, static_cast<int>(bytes),
                                         MPI_BYTE, static_cast<int>(source),
                                         kTagPermute, call.comm, &requests[0]),
                               call.what))
    return false;
  if (target >= 0 && mpiFailed(MPI_Isend(call.in, static_cast<int>(bytes),
                                         MPI_BYTE, static_cast<int>(target),
                                         kTagPermute, call.comm, &requests[1]),
                               call.what))
    return false;
  if (!waitFor(requests, 2, call.members, desc.site, call.what))
    return false;
  if (source < 0)
    std::memset(call.out, 0, bytes);
  return true;
}

int64_t MpiCommunicator::startPermute(DeviceContext &device,
                                      const CollectiveDesc &desc,
                                      const void *in, void *out,
                                      TransferTiming *timing) {
  if (failed_)
    return -1;
  AxisList axes = unpackAxes(desc.axes);
  MPI_Comm comm = groupComm(desc.axes);
  const int64_t rank = mesh_.rankInGroup(position_, axes);
  const int64_t bytes = desc.geometry[0] * dtypeSize(desc.dtype);
  if (bytes > INT_MAX) {
    fail("ppermute of " + std::to_string(bytes) +
         " bytes is too large for the MPI backend");
    return -1;
  }
  int64_t target = -1, source = -1;
  if (desc.site >= 0 && desc.site < static_cast<int64_t>(sites_.size()))
    for (auto [s, t] : sites_[desc.site].pairs) {
      if (s == rank)
        target = t;
      if (t == rank)
        source = s;
    }
  const int tag = kTagAsyncBase + static_cast<int>(desc.site % 30000);
  AsyncPermute permute;
  permute.bytes = bytes;
  permute.site = desc.site;
  permute.axes = desc.axes;
  permute.sourceRank = static_cast<int>(source);
  permute.out = out;
  permute.sends = target >= 0;
  if (options_.virtualClock) {
    permute.clocks.reset(new double[2]{device.clockUs, device.clockUs});
    if (source >= 0)
      permute.sourcePosition = mesh_.groupMembers(position_, axes)[source];
  }
  async_.push_back(std::move(permute));
  AsyncPermute &p = async_.back();
  const std::string what = siteName(desc.site);
  if (source >= 0) {
    // Direct: straight into the caller's buffer; staged: into ours.
    void *into = out;
    if (!into) {
      p.receiveBuffer.resize(bytes);
      into = p.receiveBuffer.data();
    }
    if (mpiFailed(MPI_Irecv(into, static_cast<int>(bytes), MPI_BYTE,
                            static_cast<int>(source), tag, comm,
                            &p.requests[0]),
                  what))
      return -1;
  }
  if (target >= 0) {
    // Staged: the caller may overwrite its buffer once this returns, so
    // send a copy. Direct: the caller keeps `in` until its wait.
    const void *from = in;
    if (!out) {
      p.sendBuffer.assign(static_cast<const char *>(in),
                          static_cast<const char *>(in) + bytes);
      from = p.sendBuffer.data();
    }
    if (mpiFailed(MPI_Isend(from, static_cast<int>(bytes), MPI_BYTE,
                            static_cast<int>(target), tag, comm,
                            &p.requests[1]),
                  what))
      return -1;
  }
  // The send time follows its payload: same tag and order on both sides,
  // so MPI matches payload with payload and time with time.
  if (p.clocks && source >= 0 &&
      mpiFailed(MPI_Irecv(&p.clocks[1], 1, MPI_DOUBLE, static_cast<int>(source),
                          tag, comm, &p.requests[2]),
                what))
    return -1;
  if (p.clocks && target >= 0 &&
      mpiFailed(MPI_Isend(&p.clocks[0], 1, MPI_DOUBLE, static_cast<int>(target),
                          tag, comm, &p.requests[3]),
                what))
    return -1;
  if (timing) {
    timing->sendUs = timing->arriveUs = nowUs();
    timing->targetDevice = -1; // no modelled transfer to draw
  }
  return static_cast<int64_t>(async_.size() - 1);
}

bool MpiCommunicator::waitPermute(DeviceContext &device, int64_t handle,
                                  void *out) {
  if (failed_)
    return false;
  if (handle < 0 || handle >= static_cast<int64_t>(async_.size()) ||
      async_[handle].used) {
    fail(rankName(position_) + " waited on an invalid ppermute handle " +
         std::to_string(handle));
    return false;
  }
  AsyncPermute &p = async_[handle];
  p.used = true;
  std::vector<int64_t> members =
      mesh_.groupMembers(position_, unpackAxes(p.axes));
  if (!waitFor(p.requests, 4, members, p.site, siteName(p.site)))
    return false;
  if (p.clocks) {
    // No contention between ranks is modelled: each knows only its own
    // transfers. The payload left at the source's time, and arrives hops *
    // latency + bytes / bandwidth later; this device's own left its buffer
    // after bytes / bandwidth.
    double wire = links_.wireUs(p.bytes);
    double sent = device.clockUs, arrived = device.clockUs;
    if (p.sourceRank >= 0) {
      sent = p.clocks[1];
      double hops = ringRoute(mesh_, p.sourcePosition, position_, 1).size();
      arrived = sent + wire + hops * links_.latencyUs();
    }
    waitForTransfer(device, sent, arrived,
                    p.out && p.sends ? p.clocks[0] + wire : device.clockUs);
  }
  if (p.out)
    out = p.out;
  if (p.sourceRank < 0)
    std::memset(out, 0, p.bytes);
  else if (!p.out)
    std::memcpy(out, p.receiveBuffer.data(), p.bytes);
  p.sendBuffer = {};
  p.receiveBuffer = {};
  return true;
}

bool MpiCommunicator::permuteReady(DeviceContext &device, int64_t handle) {
  if (handle < 0 || handle >= static_cast<int64_t>(async_.size()) ||
      async_[handle].used)
    return true; // waitPermute reports the bad handle
  int done = 0;
  MPI_Testall(4, async_[handle].requests, &done, MPI_STATUSES_IGNORE);
  return done;
}

void MpiCommunicator::deviceFinished(DeviceContext &device) {
  if (failed_)
    return;
  // Tell every other rank, then wait until all have finished this run, so
  // that runs (--repeat) do not overlap and no rank leaves while another
  // still needs it.
  std::vector<MPI_Request> sends;
  sentEpoch_ = epoch_;
  for (int r = 0; r < worldSize_; ++r) {
    if (r == rank_)
      continue;
    sends.emplace_back();
    MPI_Isend(&sentEpoch_, 1, MPI_INT64_T, r, kTagFinished, control_,
              &sends.back());
  }
  finishedEpoch_[rank_] = epoch_;
  while (!failed_) {
    drainControl();
    bool all = std::all_of(finishedEpoch_.begin(), finishedEpoch_.end(),
                           [&](int64_t e) { return e >= epoch_; });
    if (all)
      break;
    sched_yield();
  }
  if (!failed_)
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(),
                MPI_STATUSES_IGNORE);
  ++epoch_;
  async_.clear();
}

} // namespace

int64_t mlir::trellis::rt::mpiLocalPosition(const MeshShape &mesh, int rank) {
  return mesh.positionOf(rank);
}

std::unique_ptr<Communicator>
mlir::trellis::rt::createMpiCommunicator(const MeshShape &mesh,
                                         const std::vector<SiteInfo> &sites,
                                         const MpiOptions &options) {
  return std::make_unique<MpiCommunicator>(mesh, sites, options);
}
