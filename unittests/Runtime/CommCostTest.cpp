//===- CommCostTest.cpp - Ring formulas against hand-computed bytes -------===//
//
// include/trellis/Runtime/CommCost.h is the one model of what a collective
// moves (the comm report, the partitioner and the link model use it). Its
// answers for 4 devices and a 1 MiB buffer, and where it rounds, worked
// out by hand.
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/CommCost.h"

#include <gtest/gtest.h>

using namespace mlir::trellis::rt;

namespace {

constexpr int64_t kMiB = 1 << 20;

TEST(CommCost, SchedulesOnFourDevices) {
  // All-reduce: 6 transfers of a quarter; the others: 3 of a quarter.
  EXPECT_EQ(allReduceSchedule(4).steps, 6);
  EXPECT_EQ(allReduceSchedule(4).chunks, 4);
  EXPECT_EQ(ringShareSchedule(4).steps, 3);
  EXPECT_EQ(ringShareSchedule(4).chunks, 4);
  EXPECT_EQ(permuteSchedule().steps, 1);
  EXPECT_EQ(permuteSchedule().chunks, 1);
  EXPECT_DOUBLE_EQ(allReduceSchedule(4).stepBytes(kMiB), 262144.0);
  EXPECT_DOUBLE_EQ(ringShareSchedule(4).stepBytes(kMiB), 262144.0);
  EXPECT_DOUBLE_EQ(permuteSchedule().stepBytes(kMiB), 1048576.0);
}

TEST(CommCost, BytesOfOneMiBOnFourDevices) {
  // 2 * 3/4 MiB.
  EXPECT_EQ(allReduceBytes(kMiB, 4), 1572864);
  // Reduce-scatter or all-to-all of 1 MiB, or all-gather of four 256 KiB
  // shards into 1 MiB: 3/4 MiB.
  EXPECT_EQ(ringShareBytes(kMiB, 4), 786432);
  EXPECT_EQ(permuteBytes(kMiB, true), 1048576);
  EXPECT_EQ(permuteBytes(kMiB, false), 0);
}

TEST(CommCost, OneDeviceSendsNothing) {
  EXPECT_EQ(allReduceSchedule(1).steps, 0);
  EXPECT_EQ(ringShareSchedule(1).steps, 0);
  EXPECT_EQ(allReduceBytes(kMiB, 1), 0);
  EXPECT_EQ(ringShareBytes(kMiB, 1), 0);
}

TEST(CommCost, Rounding) {
  // 12 bytes on 8 devices: the all-reduce sends 12 * 14 / 8 = 21 bytes
  // (rounded down from 21); the share keeps its own chunk of 1.5 bytes
  // rounded down to 1 and sends 11.
  EXPECT_EQ(allReduceBytes(12, 8), 21);
  EXPECT_EQ(ringShareBytes(12, 8), 11);
  // Divisible buffers are exact: 3/8 of 64 is 24 twice over, 7/8 is 56.
  EXPECT_EQ(allReduceBytes(64, 8), 112);
  EXPECT_EQ(ringShareBytes(64, 8), 56);
}

} // namespace
