//===- MpiAsyncPermute.cpp - Asynchronous ppermutes over MPI --------------===//
//
// The MPI communicator's asynchronous ppermutes: started with nonblocking
// sends and receives (and, with virtual clocks, the send times), polled,
// and waited for.
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

} // namespace mlir::trellis::rt::mpi
