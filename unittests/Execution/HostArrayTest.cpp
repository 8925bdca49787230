//===- HostArrayTest.cpp - npy I/O, printing, comparison ------------------===//

#include "trellis/Execution/HostArray.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace mlir::trellis::exec;

namespace {

TEST(HostArray, NpyRoundTrip) {
  for (int32_t dtype : {TRELLIS_RT_F32, TRELLIS_RT_F64, TRELLIS_RT_I32,
                        TRELLIS_RT_I64, TRELLIS_RT_I8, TRELLIS_RT_I1}) {
    HostArray a;
    a.allocate(dtype, {2, 3, 1});
    fillIota(a);
    std::string path = ::testing::TempDir() + "/roundtrip.npy";
    ASSERT_EQ(llvm::toString(writeNpy(path, a)), "");
    llvm::Expected<HostArray> read = readNpy(path);
    ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
    const HostArray &b = *read;
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
    std::string path = ::testing::TempDir() + "/shape.npy";
    ASSERT_EQ(llvm::toString(writeNpy(path, a)), "");
    llvm::Expected<HostArray> read = readNpy(path);
    ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
    const HostArray &b = *read;
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

// 16-bit floats: widening is exact; narrowing goes through f32 and rounds
// ties to even (as numpy's astype and arith.truncf); f16 subnormals,
// overflow and NaN.
TEST(HostArray, ConvertsHalfPrecision) {
  auto bits = [](const HostArray &a, int64_t i) {
    uint16_t v;
    std::memcpy(&v, a.data.data() + 2 * i, 2);
    return v;
  };
  HostArray bf;
  bf.allocate(TRELLIS_RT_BF16, {5});
  bf.set(0, 1.0 + 0x1p-8);     // tie: to even, 1
  bf.set(1, 1.0 + 3 * 0x1p-8); // tie: to even, 1 + 2^-6
  bf.set(2, -2.5);
  bf.set(3, 1e39); // beyond f32: infinity
  bf.set(4, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(bits(bf, 0), 0x3f80);
  EXPECT_EQ(bits(bf, 1), 0x3f82);
  EXPECT_EQ(bf.at(2), -2.5);
  EXPECT_EQ(bits(bf, 3), 0x7f80);
  EXPECT_TRUE(std::isnan(bf.at(4)));
  HostArray h;
  h.allocate(TRELLIS_RT_F16, {8});
  h.set(0, 1.0 + 3 * 0x1p-11); // tie: to even, 1 + 2^-9
  h.set(1, 2049);              // tie: to even, 2048
  h.set(2, 0x1p-24);           // the smallest subnormal
  h.set(3, 3 * 0x1p-25);       // tie: to even, 2^-23
  h.set(4, 0x1p-26);           // rounds to zero
  h.set(5, -65520);            // tie at the top: -infinity
  h.set(6, 65504);             // the largest finite
  h.set(7, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(bits(h, 0), 0x3c02);
  EXPECT_EQ(h.at(1), 2048);
  EXPECT_EQ(bits(h, 2), 0x0001);
  EXPECT_EQ(h.at(2), 0x1p-24);
  EXPECT_EQ(bits(h, 3), 0x0002);
  EXPECT_EQ(bits(h, 4), 0x0000);
  EXPECT_EQ(bits(h, 5), 0xfc00);
  EXPECT_EQ(h.at(6), 65504);
  EXPECT_EQ(bits(h, 7), 0x7e00);
  EXPECT_TRUE(std::isnan(h.at(7)));
}

TEST(HostArray, RejectsBadFiles) {
  std::string path = ::testing::TempDir() + "/bad.npy";
  const char bytes[] = "\x93NUMPY\x01\x00\x10\x00{'descr': '>f4'}";
  FILE *f = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes, 1, sizeof(bytes) - 1, f);
  std::fclose(f);
  llvm::Expected<HostArray> a = readNpy(path);
  ASSERT_FALSE(static_cast<bool>(a));
  std::string error = llvm::toString(a.takeError());
  EXPECT_NE(error.find("malformed header"), std::string::npos) << error;
}

} // namespace
