//===- ModelledLinksTest.cpp - Time of a blocking collective --------------===//
//
// lib/Runtime/ModelledLinks.cpp times a blocking collective as CommCost.h's
// ring schedule, each transfer paying the link's latency and its bytes over
// the bandwidth. Times for 4 devices and 1 MiB of f32 worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/ModelledLinks.h"

#include <gtest/gtest.h>

using namespace mlir::trellis::rt;

namespace {

MeshShape ring4() {
  MeshShape mesh;
  mesh.axisNames = {"i"};
  mesh.axisSizes = {4};
  return mesh;
}

CollectiveDesc desc(CollectiveKind kind, int64_t g0, int64_t g1 = 0) {
  CollectiveDesc d;
  d.kind = kind;
  d.axes = packAxes({0});
  d.dtype = TRELLIS_RT_F32;
  d.geometry[0] = g0;
  d.geometry[1] = g1;
  d.geometry[2] = g0;
  d.geometry[3] = g1 * 4;
  return d;
}

// 2 us per transfer, 1 GB/s = 1000 bytes/us. A quarter of 1 MiB (262144
// bytes) takes 2 + 262.144 us.
constexpr double kQuarterUs = 2.0 + 262.144;

TEST(ModelledLinks, RingCollectivesOfOneMiB) {
  MeshShape mesh = ring4();
  ModelledLinks links(mesh, LinkModel{2.0, 1.0});
  // psum of 262144 f32: 6 transfers of a quarter.
  EXPECT_DOUBLE_EQ(links.modelledUs(desc(CollectiveKind::AllReduce, 262144), 4),
                   6 * kQuarterUs);
  // all_gather of a 256 KiB shard (geometry of the operand), psum_scatter
  // to a 256 KiB result (geometry of the result), all_to_all of 256 KiB
  // chunks: 3 transfers of a quarter of 1 MiB.
  for (CollectiveKind kind :
       {CollectiveKind::AllGather, CollectiveKind::ReduceScatter,
        CollectiveKind::AllToAll})
    EXPECT_DOUBLE_EQ(links.modelledUs(desc(kind, 1, 65536), 4), 3 * kQuarterUs);
  // ppermute of 1 MiB: one transfer of all of it.
  EXPECT_DOUBLE_EQ(links.modelledUs(desc(CollectiveKind::Ppermute, 262144), 4),
                   2.0 + 1048.576);
}

TEST(ModelledLinks, NothingToTime) {
  MeshShape mesh = ring4();
  // A group of one device, or no link model: no time.
  ModelledLinks links(mesh, LinkModel{2.0, 1.0});
  EXPECT_EQ(links.modelledUs(desc(CollectiveKind::AllReduce, 262144), 1), 0);
  ModelledLinks none(mesh, LinkModel{});
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.modelledUs(desc(CollectiveKind::AllReduce, 262144), 4), 0);
  // Latency only (unlimited bandwidth): 6 transfers of 2 us.
  ModelledLinks latency(mesh, LinkModel{2.0, 0.0});
  EXPECT_DOUBLE_EQ(
      latency.modelledUs(desc(CollectiveKind::AllReduce, 262144), 4), 12.0);
}

} // namespace

// Virtual clocks plan transfers in whatever order the device threads get
// there, not in the order of their virtual start times: a transfer planned
// later but starting earlier takes the gap before the ones already booked,
// if it fits there, and otherwise waits for the first gap that fits.
TEST(ModelledLinks, VirtualClocksFillGaps) {
  MeshShape mesh = ring4();
  // No latency, 1 GB/s: 1000 bytes hold a link for 1 us.
  ModelledLinks links(mesh, LinkModel{0.0, 1.0}, /*virtualClock=*/true);
  int hops = 0;
  // Device 0 -> 1 at 10 us, 5 us on the wire.
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 5000, 10.0, 1, hops), 15.0);
  EXPECT_EQ(hops, 1);
  // Planned later, starting earlier: 0 -> 1 at 2 us for 4 us fits before.
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 4000, 2.0, 1, hops), 6.0);
  // 7 us from 3 us overlaps both bookings: the first gap after them.
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 7000, 3.0, 1, hops), 22.0);
  // 3 us from 6 us fits between 6 and 10.
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 3000, 6.0, 1, hops), 9.0);
  // The other direction of the same pair of devices is its own link.
  EXPECT_DOUBLE_EQ(links.planTransfer(1, 0, 5000, 10.0, -1, hops), 15.0);
}

// The wall-clock model books a link until its last transfer ends: a
// transfer planned after another waits for it, whatever its start time.
TEST(ModelledLinks, WallClockQueuesInPlanningOrder) {
  MeshShape mesh = ring4();
  ModelledLinks links(mesh, LinkModel{0.0, 1.0});
  int hops = 0;
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 5000, 10.0, 1, hops), 15.0);
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 4000, 2.0, 1, hops), 19.0);
}

// A blocking ring collective books its ring's links (the forward link of
// every member): on virtual clocks it waits for a transfer booked on one
// of them, and a transfer planned over its interval waits for it; links
// it does not use (the backward direction) stay free.
TEST(ModelledLinks, VirtualClocksBookRingCollectives) {
  MeshShape mesh = ring4();
  ModelledLinks links(mesh, LinkModel{0.0, 1.0}, /*virtualClock=*/true);
  int hops = 0;
  // 2 -> 3 busy from 0 to 8 us.
  EXPECT_DOUBLE_EQ(links.planTransfer(2, 3, 8000, 0.0, 1, hops), 8.0);
  // A 10 us ring collective ready at 5 us begins when 2 -> 3 is free.
  EXPECT_DOUBLE_EQ(links.bookRing({0, 1, 2, 3}, 5.0, 10.0), 8.0);
  // 0 -> 1 at 12 us for 2 us: after the collective, at 18 us.
  EXPECT_DOUBLE_EQ(links.planTransfer(0, 1, 2000, 12.0, 1, hops), 20.0);
  // 1 -> 0 (backward) is not part of the ring.
  EXPECT_DOUBLE_EQ(links.planTransfer(1, 0, 2000, 12.0, -1, hops), 14.0);
  // A group of one uses no link.
  EXPECT_DOUBLE_EQ(links.bookRing({2}, 1.0, 10.0), 1.0);
}

// On the wall clock the collective begins when asked; later transfers on
// its links queue behind it.
TEST(ModelledLinks, WallClockQueuesBehindRingCollectives) {
  MeshShape mesh = ring4();
  ModelledLinks links(mesh, LinkModel{0.0, 1.0});
  int hops = 0;
  EXPECT_DOUBLE_EQ(links.bookRing({0, 1, 2, 3}, 5.0, 10.0), 5.0);
  EXPECT_DOUBLE_EQ(links.planTransfer(3, 0, 1000, 6.0, 1, hops), 16.0);
}
