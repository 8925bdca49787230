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
#include "lib/Runtime/MpiCommunicatorImpl.h"

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

namespace mlir::trellis::rt::mpi {

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

bool MpiCommunicator::latestArrival(double mine, const Call &call,
                                    double &latest) {
  MPI_Request request;
  if (mpiFailed(MPI_Iallreduce(&mine, &latest, 1, MPI_DOUBLE, MPI_MAX,
                               call.comm, &request),
                call.what))
    return false;
  return waitFor(&request, 1, call.members, call.desc.site, call.what);
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

} // namespace mlir::trellis::rt::mpi

using mlir::trellis::rt::mpi::MpiCommunicator;

int64_t mlir::trellis::rt::mpiLocalPosition(const MeshShape &mesh, int rank) {
  return mesh.positionOf(rank);
}

std::unique_ptr<Communicator>
mlir::trellis::rt::createMpiCommunicator(const MeshShape &mesh,
                                         const std::vector<SiteInfo> &sites,
                                         const MpiOptions &options) {
  return std::make_unique<MpiCommunicator>(mesh, sites, options);
}
