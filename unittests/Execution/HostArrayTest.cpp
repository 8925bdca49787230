//===- HostArrayTest.cpp - npy I/O, printing, comparison ------------------===//

#include "lib/Execution/HostArray.h"
#include "lib/Runtime/TrellisRuntime.h"

#include <gtest/gtest.h>

#include <limits>

#include <cstdio>

using namespace mlir::trellis::exec;

namespace {

TEST(HostArray, NpyRoundTrip) {
  for (int32_t dtype : {TRELLIS_RT_F32, TRELLIS_RT_F64, TRELLIS_RT_I32,
                        TRELLIS_RT_I64, TRELLIS_RT_I8, TRELLIS_RT_I1}) {
    HostArray a;
    a.allocate(dtype, {2, 3, 1});
    fillIota(a);
    std::string path = ::testing::TempDir() + "/roundtrip.npy", error;
    ASSERT_TRUE(writeNpy(path, a, error)) << error;
    HostArray b;
    ASSERT_TRUE(readNpy(path, b, error)) << error;
    EXPECT_EQ(b.dtype, a.dtype);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
}

TEST(HostArray, ScalarsAndVectorsRoundTrip) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{}, {5}, {0, 4}}) {
    HostArray a;
    a.allocate(TRELLIS_RT_F32, shape);
    fillIota(a);
    std::string path = ::testing::TempDir() + "/shape.npy", error;
    ASSERT_TRUE(writeNpy(path, a, error)) << error;
    HostArray b;
    ASSERT_TRUE(readNpy(path, b, error)) << error;
    EXPECT_EQ(b.shape, shape);
  }
}

TEST(HostArray, PrintsLikeNumpy) {
  HostArray a;
  a.allocate(TRELLIS_RT_F32, {2, 3});
  fillIota(a);
  EXPECT_EQ(formatArray(a), "[[0. 1. 2.]\n [3. 4. 5.]]");
  a.set(1, 0.5);
  a.set(2, -0.25);
  EXPECT_EQ(formatArray(a), "[[ 0.    0.5  -0.25]\n [ 3.    4.    5.  ]]");
  HostArray i;
  i.allocate(TRELLIS_RT_I32, {4});
  fillIota(i);
  i.set(3, -12);
  EXPECT_EQ(formatArray(i), "[  0   1   2 -12]");
  HostArray big;
  big.allocate(TRELLIS_RT_F32, {2});
  big.set(0, 1);
  big.set(1, 2000);
  EXPECT_EQ(formatArray(big), "[1.e+00 2.e+03]");
  HostArray b;
  b.allocate(TRELLIS_RT_I1, {2});
  b.set(1, 1);
  EXPECT_EQ(formatArray(b), "[False  True]");
  HostArray scalar;
  scalar.allocate(TRELLIS_RT_F64, {});
  scalar.set(0, 2.5);
  EXPECT_EQ(formatArray(scalar), "2.5");
}

TEST(HostArray, SummarisesLargeArrays) {
  HostArray a;
  a.allocate(TRELLIS_RT_I32, {2000});
  fillIota(a);
  EXPECT_EQ(formatArray(a), "[   0    1    2 ... 1997 1998 1999]");
}

TEST(HostArray, ComparesWithTolerance) {
  HostArray a, b;
  a.allocate(TRELLIS_RT_F32, {3});
  b.allocate(TRELLIS_RT_F32, {3});
  fillIota(a);
  fillIota(b);
  b.set(2, 2.00001);
  EXPECT_TRUE(compareArrays(a, b, 1e-4, 0).equal);
  b.set(2, 2.5);
  Comparison c = compareArrays(a, b, 1e-4, 0);
  EXPECT_FALSE(c.equal);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.describe(a, b),
            "1 of 3 elements differ; first at [2]: expected 2, "
            "got 2.5 (max abs error 0.5)");
}

// Equal infinities match (inf - inf is NaN, which used to make --reference
// report "expected inf, got inf" as a mismatch); opposite ones and an
// infinity against a finite value do not; NaN matches only NaN.
TEST(HostArray, ComparesInfinitiesAndNaN) {
  HostArray a, b;
  a.allocate(TRELLIS_RT_F32, {4});
  b.allocate(TRELLIS_RT_F32, {4});
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (HostArray *x : {&a, &b}) {
    x->set(0, inf);
    x->set(1, -inf);
    x->set(2, nan);
    x->set(3, 1.0);
  }
  EXPECT_TRUE(compareArrays(a, b, 1e-4, 1e-4).equal);
  b.set(0, -inf);
  EXPECT_EQ(compareArrays(a, b, 1e-4, 1e-4).mismatches, 1);
  b.set(0, 1e30);
  EXPECT_EQ(compareArrays(a, b, 1e-4, 1e-4).mismatches, 1);
  b.set(0, inf);
  b.set(2, 0.0);
  EXPECT_EQ(compareArrays(a, b, 1e-4, 1e-4).mismatches, 1);
}

TEST(HostArray, RejectsBadFiles) {
  std::string path = ::testing::TempDir() + "/bad.npy", error;
  const char bytes[] = "\x93NUMPY\x01\x00\x10\x00{'descr': '>f4'}";
  FILE *f = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes, 1, sizeof(bytes) - 1, f);
  std::fclose(f);
  HostArray a;
  EXPECT_FALSE(readNpy(path, a, error));
  EXPECT_NE(error.find("malformed header"), std::string::npos) << error;
}

} // namespace
