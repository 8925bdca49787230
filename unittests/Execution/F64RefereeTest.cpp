//===- F64RefereeTest.cpp - Settling float mismatches in f64 --------------===//

#include "lib/Execution/F64Referee.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <gtest/gtest.h>

using namespace mlir::trellis::exec;

namespace {

HostArray floats(std::vector<double> values) {
  HostArray a;
  a.allocate(TRELLIS_RT_F32, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i)
    a.set(i, values[i]);
  return a;
}

TEST(F64Referee, RunWithinToleranceOfExactIsRight) {
  // The oracle is off at element 1, the run is not.
  HostArray exact = floats({1.0, 2.0, 3.0});
  HostArray oracle = floats({1.0, 2.1, 3.0});
  HostArray run = floats({1.0, 2.0, 3.0});
  Verdict v = referee(oracle, run, exact, 1e-4, 1e-5);
  EXPECT_EQ(v.disputed, 1);
  EXPECT_EQ(v.actualClose, 1);
  EXPECT_EQ(v.expectedClose, 0);
  EXPECT_TRUE(v.settled());
}

TEST(F64Referee, RunAsFarAsTheOracleIsIsRounding) {
  // Both miss the exact values by rounding of about 3e-5 somewhere; the
  // run's 5e-5 at element 0 is within twice the oracle's own worst (3e-5).
  HostArray exact = floats({0.0, 0.5, 0.25});
  HostArray oracle = floats({-1e-5, 0.5, 0.25 + 3e-5});
  HostArray run = floats({5e-5, 0.5, 0.25});
  Verdict v = referee(oracle, run, exact, 1e-4, 1e-5);
  EXPECT_EQ(v.disputed, 1);
  EXPECT_EQ(v.actualClose, 0);
  EXPECT_EQ(v.actualAsGood, 1);
  EXPECT_TRUE(v.settled());
}

TEST(F64Referee, AWrongRunStaysWrong) {
  // The oracle is exact; the run is off by far more than rounding.
  HostArray exact = floats({1.0, 2.0, 3.0});
  HostArray oracle = floats({1.0, 2.0, 3.0});
  HostArray run = floats({1.0, 2.5, 3.0});
  Verdict v = referee(oracle, run, exact, 1e-4, 1e-5);
  EXPECT_EQ(v.disputed, 1);
  EXPECT_FALSE(v.settled());
  EXPECT_EQ(v.firstWrong, 1);
}

TEST(F64Referee, NaNMatchesOnlyNaN) {
  HostArray exact = floats({std::nan(""), 1.0});
  HostArray oracle = floats({std::nan(""), 1.0});
  HostArray run = floats({0.0, 1.0});
  EXPECT_FALSE(referee(oracle, run, exact, 1e-4, 1e-5).settled());
}

TEST(F64Referee, IndexText) {
  EXPECT_EQ(elementIndexText({2, 3, 4}, 13), "1, 0, 1");
  EXPECT_EQ(elementIndexText({}, 0), "");
}

} // namespace
