//===- MpiCollectives.cpp - Collectives as MPI calls ----------------------===//
//
// The MPI communicator's collectives: each blocking collective as the
// natural MPI call after the group agrees, the nonblocking ones begin()
// sets going, and the re-layouts between a collective's buffers and the
// contiguous chunks MPI moves.
//
//===----------------------------------------------------------------------===//

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

namespace mlir::trellis::rt::mpi {

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

} // namespace mlir::trellis::rt::mpi
