//===- ModelledLinks.cpp - Timing of the modelled interconnect ------------===//

#include "lib/Runtime/ModelledLinks.h"

#include "trellis/Runtime/CommCost.h"

#include <algorithm>

using namespace mlir::trellis::rt;

double ModelledLinks::modelledUs(const CollectiveDesc &desc, int64_t n) const {
  if (!link_.enabled() || n <= 1)
    return 0;
  double bytesPerUs =
      link_.bandwidthGBps > 0 ? link_.bandwidthGBps * 1e3 : 0; // GB/s -> B/us
  auto transfer = [&](double bytes) {
    return link_.latencyUs + (bytesPerUs > 0 ? bytes / bytesPerUs : 0);
  };
  // Ring algorithms along the group (bidirectional links), on the buffer
  // as CommCost.h counts it: the gather's result, the scatter's operand.
  double elem = double(dtypeSize(desc.dtype));
  double chunk = double(desc.geometry[0] * desc.geometry[1]) * elem;
  RingSchedule ring;
  double buffer = 0;
  switch (desc.kind) {
  case CollectiveKind::AllReduce: // {count}
    ring = allReduceSchedule(n);
    buffer = double(desc.geometry[0]) * elem;
    break;
  case CollectiveKind::AllGather:     // {outer, inner} of the operand
  case CollectiveKind::ReduceScatter: // {outer, inner} of the result
  case CollectiveKind::AllToAll:      // {outer, inner, ...} of one chunk
    ring = ringShareSchedule(n);
    buffer = chunk * n;
    break;
  case CollectiveKind::Ppermute: // {count}
    ring = permuteSchedule();
    buffer = double(desc.geometry[0]) * elem;
    break;
  }
  return ring.steps * transfer(ring.stepBytes(buffer));
}

int mlir::trellis::rt::shiftDirection(const SiteInfo *site, int64_t n) {
  if (!site || site->pairs.empty())
    return 1;
  bool backward = true;
  for (auto [s, t] : site->pairs)
    backward &= t == ((s - 1) % n + n) % n;
  return backward ? -1 : 1;
}

double ModelledLinks::planTransfer(int64_t from, int64_t to, int64_t bytes,
                                   double now, int tieDirection, int &hops) {
  // Half-way around a ring (always so on an axis of size 2) both ways are
  // shortest: take the one whose links free up first, `tieDirection` when
  // equal.
  std::vector<LinkHop> route = ringRoute(mesh_, from, to, tieDirection);
  std::vector<LinkHop> other = ringRoute(mesh_, from, to, -tieDirection);
  hops = static_cast<int>(route.size());
  if (route.empty())
    return now;
  double wire = wireUs(bytes);
  auto freeAt = [&](const std::vector<LinkHop> &r) {
    if (virtual_)
      return firstGap(r, now, wire);
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
  for (const LinkHop &hop : route) {
    int64_t link = linkIndex(mesh_, hop);
    if (virtual_ && wire > 0)
      busy_[link].emplace(begin, begin + wire);
    else
      linkFreeAtUs_[link] = begin + wire;
  }
  return begin + wire + link_.latencyUs * hops;
}

double ModelledLinks::bookRing(const std::vector<int64_t> &members, double now,
                               double durUs) {
  const size_t n = members.size();
  if (n <= 1 || durUs <= 0)
    return now;
  std::vector<LinkHop> links;
  for (size_t k = 0; k < n; ++k)
    for (const LinkHop &hop :
         ringRoute(mesh_, members[k], members[(k + 1) % n], 1))
      if (std::find(links.begin(), links.end(), hop) == links.end())
        links.push_back(hop);
  double begin = now;
  if (virtual_)
    begin = firstGap(links, now, durUs);
  for (const LinkHop &hop : links) {
    int64_t link = linkIndex(mesh_, hop);
    if (virtual_)
      busy_[link].emplace(begin, begin + durUs);
    else
      linkFreeAtUs_[link] = std::max(linkFreeAtUs_[link], begin + durUs);
  }
  return begin;
}

double ModelledLinks::firstGap(const std::vector<LinkHop> &route, double now,
                               double wire) const {
  double t = now;
  // Push t past every interval it overlaps until none does; each pass
  // only moves t forward, to the end of an interval.
  for (bool moved = true; moved && wire > 0;) {
    moved = false;
    for (const LinkHop &hop : route) {
      const std::map<double, double> &intervals = busy_[linkIndex(mesh_, hop)];
      // The last interval starting before t + wire: the only one that can
      // overlap [t, t + wire) (they do not overlap one another).
      auto it = intervals.lower_bound(t + wire);
      if (it == intervals.begin())
        continue;
      --it;
      if (it->second > t) {
        t = it->second;
        moved = true;
      }
    }
  }
  return t;
}
