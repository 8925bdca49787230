//===- ModelledLinks.h - Timing of the modelled interconnect ----*- C++ -*-===//
//
// The in-process communicator's model of an interconnect (LinkModel,
// docs/Interconnect.md): every mesh axis is a ring with one link per
// direction between neighbours. This class knows what a blocking collective
// costs and when an asynchronous transfer arrives, keeping per link the
// time it is free again. It does no locking: its owner calls it with its
// own lock held.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_MODELLEDLINKS_H
#define TRELLIS_LIB_RUNTIME_MODELLEDLINKS_H

#include "trellis/Runtime/Runtime.h"

#include <cstdint>
#include <map>
#include <vector>

namespace mlir::trellis::rt {

/// +1 when `pairs` shift every rank forward by one around a ring of n,
/// -1 when they shift backward; +1 otherwise. Breaks ties in routing (a
/// hop on an axis of size 2 could go either way round).
int shiftDirection(const SiteInfo *site, int64_t n);

class ModelledLinks {
public:
  /// `virtualClock`: transfers are planned on the devices' virtual clocks,
  /// which do not advance in step, so a transfer may be planned after one
  /// that starts later; links then keep every busy interval and a transfer
  /// takes the first gap that fits it.
  ModelledLinks(const MeshShape &mesh, const LinkModel &link,
                bool virtualClock = false)
      : mesh_(mesh), link_(link), virtual_(virtualClock),
        linkFreeAtUs_(mesh.numDevices() * mesh.numAxes() * 2, 0.0),
        busy_(virtualClock ? linkFreeAtUs_.size() : 0) {}

  /// Whether there is a model (otherwise: plain shared-memory copies).
  bool enabled() const { return link_.enabled(); }
  double latencyUs() const { return link_.latencyUs; }
  /// Whether transfers are planned on virtual clocks.
  bool virtualClock() const { return virtual_; }
  /// How long `bytes` occupy a link (0 without a bandwidth).
  double wireUs(int64_t bytes) const {
    return link_.bandwidthGBps > 0
               ? double(bytes) / (link_.bandwidthGBps * 1e3) // GB/s -> B/us
               : 0;
  }
  /// Modelled duration of a collective on the interconnect.
  double modelledUs(const CollectiveDesc &desc, int64_t n) const;
  /// Books the links a ring collective over `members` (positions in rank
  /// order) uses, from `now` for `durUs`: the route from each member to
  /// the next. On virtual clocks the collective begins at the first time
  /// from `now` when all of them are free for that long (transfers booked
  /// earlier go first), which this returns; on the wall clock it begins at
  /// `now` and later transfers queue behind it.
  double bookRing(const std::vector<int64_t> &members, double now,
                  double durUs);
  /// Plans an asynchronous transfer of `bytes` from `from` to `to` on the
  /// modelled links; returns its arrival time and sets `hops`.
  double planTransfer(int64_t from, int64_t to, int64_t bytes, double now,
                      int tieDirection, int &hops);

private:
  const MeshShape &mesh_;
  LinkModel link_;
  bool virtual_;
  /// Per directed link (linkIndex), when it is free again.
  std::vector<double> linkFreeAtUs_;
  /// Virtual clock: per directed link, its busy intervals (start -> end).
  std::vector<std::map<double, double>> busy_;
  /// The earliest time from `now` at which every link of `route` is free
  /// for `wire` microseconds.
  double firstGap(const std::vector<LinkHop> &route, double now,
                  double wire) const;
};

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_MODELLEDLINKS_H
