//===- KernelsTest.cpp - trellis_rt_matmul and its overwriting form -------===//

#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

namespace {

int64_t address(const void *p) { return reinterpret_cast<int64_t>(p); }

/// A (2x3) = [[1 2 3] [4 5 6]], B (3x2) = [[1 0] [0 1] [1 1]]:
/// A * B = [[4 5] [10 11]].
const std::vector<float> kA = {1, 2, 3, 4, 5, 6};
const std::vector<float> kB = {1, 0, 0, 1, 1, 1};

/// C row-major (row stride 2, column stride 1), or column-major (1, 2):
/// the second takes the kernel's path through a temporary.
void matmul(bool overwrite, std::vector<float> &c, bool columnMajorC,
            int64_t k = 3) {
  auto fn = overwrite ? trellis_rt_matmul_overwrite : trellis_rt_matmul;
  fn(TRELLIS_RT_F32, /*batch=*/1, /*m=*/2, /*n=*/2, k, address(kA.data()), 0, 3,
     1, address(kB.data()), 0, 2, 1, address(c.data()), 0, columnMajorC ? 1 : 2,
     columnMajorC ? 2 : 1);
}

TEST(MatmulKernel, AccumulatesIntoC) {
  std::vector<float> c = {1, 1, 1, 1};
  matmul(/*overwrite=*/false, c, /*columnMajorC=*/false);
  EXPECT_EQ(c, (std::vector<float>{5, 6, 11, 12}));
  std::vector<float> t = {1, 1, 1, 1};
  matmul(/*overwrite=*/false, t, /*columnMajorC=*/true);
  EXPECT_EQ(t, (std::vector<float>{5, 11, 6, 12}));
}

TEST(MatmulKernel, OverwriteIgnoresWhatCHeld) {
  std::vector<float> c = {7, -3, 1e30f, 2};
  matmul(/*overwrite=*/true, c, /*columnMajorC=*/false);
  EXPECT_EQ(c, (std::vector<float>{4, 5, 10, 11}));
  std::vector<float> t = {7, -3, 1e30f, 2};
  matmul(/*overwrite=*/true, t, /*columnMajorC=*/true);
  EXPECT_EQ(t, (std::vector<float>{4, 10, 5, 11}));
}

TEST(MatmulKernel, EmptyContractionZeroesOnlyWhenOverwriting) {
  std::vector<float> c = {7, -3, 1, 2};
  matmul(/*overwrite=*/false, c, /*columnMajorC=*/false, /*k=*/0);
  EXPECT_EQ(c, (std::vector<float>{7, -3, 1, 2}));
  matmul(/*overwrite=*/true, c, /*columnMajorC=*/true, /*k=*/0);
  EXPECT_EQ(c, (std::vector<float>{0, 0, 0, 0}));
}

TEST(MatmulKernel, OverwriteColumnWithRowStride) {
  // C is one column (n = 1) of a 2x3 buffer: column 1, row stride 3.
  std::vector<float> c = {9, 9, 9, 9, 9, 9};
  trellis_rt_matmul_overwrite(TRELLIS_RT_F32, 1, 2, 1, 3, address(kA.data()), 0,
                              3, 1, address(kB.data()), 0, 2, 1,
                              address(c.data() + 1), 0, 3, 1);
  EXPECT_EQ(c, (std::vector<float>{9, 4, 9, 9, 10, 9}));
}

TEST(MatmulKernel, OverwriteEachBatch) {
  // Two batches of 1x1 = 1x2 * 2x1, C padded with a sentinel between them.
  std::vector<int32_t> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
  std::vector<int32_t> c = {-1, 99, -1};
  trellis_rt_matmul_overwrite(TRELLIS_RT_I32, 2, 1, 1, 2, address(a.data()), 2,
                              2, 1, address(b.data()), 2, 1, 1,
                              address(c.data()), 2, 1, 1);
  EXPECT_EQ(c, (std::vector<int32_t>{1 * 5 + 2 * 6, 99, 3 * 7 + 4 * 8}));
}

// Integer matmuls wrap like arith.muli/addi (they were computed in signed
// arithmetic: undefined behaviour on overflow, flagged by UBSan on random
// programs).
TEST(MatmulKernel, IntegerProductsWrapAround) {
  std::vector<int32_t> a = {INT32_MAX, 2}, b = {2, INT32_MAX};
  std::vector<int32_t> c = {0};
  trellis_rt_matmul_overwrite(TRELLIS_RT_I32, 1, 1, 1, 2, address(a.data()), 2,
                              2, 1, address(b.data()), 2, 1, 1,
                              address(c.data()), 1, 1, 1);
  // 2 * (2^31 - 1) twice = 2^33 - 4 = -4 modulo 2^32.
  EXPECT_EQ(c[0], -4);
  std::vector<int64_t> a64 = {INT64_MIN, -1}, b64 = {-1, INT64_MIN};
  std::vector<int64_t> c64 = {5};
  trellis_rt_matmul(TRELLIS_RT_I64, 1, 1, 1, 2, address(a64.data()), 2, 2, 1,
                    address(b64.data()), 2, 1, 1, address(c64.data()), 1, 1, 1);
  // 5 + 2^63 + 2^63 = 5 modulo 2^64.
  EXPECT_EQ(c64[0], 5);
}

// bf16 and f16 A and B into an f32 C: products and sums in f32. A's
// values 1 + 2^-7 and B's 1 + 2^-7 are exact in bf16 (and f16); their
// product 1 + 2^-6 + 2^-14 needs f32 (bf16 products would round it away).
// B is read transposed (row stride 1, column stride 3): strides are kept.
TEST(MatmulKernel, WideningTakesBf16AndF16IntoF32) {
  // bf16 bits: 1 + 2^-7 = 0x3f81, 2 = 0x4000, -1 = 0xbf80; f16: 0x3c08,
  // 0x4000, 0xbc00.
  for (auto [dtype, one, two, minusOne] :
       {std::tuple<int32_t, uint16_t, uint16_t, uint16_t>{
            TRELLIS_RT_BF16, 0x3f81, 0x4000, 0xbf80},
        {TRELLIS_RT_F16, 0x3c08, 0x4000, 0xbc00}}) {
    // A (1x3) = [e, 2, -1] with e = 1 + 2^-7; B (3x2) stored transposed:
    // its columns [e, 2, -1] and [2, 2, 2].
    std::vector<uint16_t> a = {one, two, minusOne};
    std::vector<uint16_t> bt = {one, two, minusOne, two, two, two};
    const double e = 1.0 + 1.0 / 128;
    // C = A * B: [e*e + 4 + 1, 2e + 4 - 2].
    std::vector<float> c = {100, 200};
    trellis_rt_matmul_widening(dtype, /*overwrite=*/1, 1, 1, 2, 3,
                               address(a.data()), 0, 3, 1, address(bt.data()),
                               0, 1, 3, address(c.data()), 0, 2, 1);
    EXPECT_EQ(c[0], static_cast<float>(e * e + 5)) << dtype;
    EXPECT_EQ(c[1], static_cast<float>(2 * e + 2)) << dtype;
    // Accumulating adds to what C holds.
    trellis_rt_matmul_widening(dtype, /*overwrite=*/0, 1, 1, 2, 3,
                               address(a.data()), 0, 3, 1, address(bt.data()),
                               0, 1, 3, address(c.data()), 0, 2, 1);
    EXPECT_EQ(c[0], static_cast<float>(2 * (e * e + 5))) << dtype;
  }
}

/// The oracle's kernels (SessionOptions::referenceKernels) against the
/// optimised ones on random sizes and layouts: row- or column-major and
/// padded operands, transposed and strided results, batches, accumulating
/// and overwriting, f32, f64 and integers. The oracle of --reference is
/// only worth what it agrees with.
TEST(MatmulKernel, ReferenceLoopsAgreeWithTheKernels) {
  std::mt19937_64 rng(7);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  mlir::trellis::rt::DeviceContext device;
  device.referenceKernels = true;
  for (int round = 0; round < 200; ++round) {
    int64_t batch = pick(1, 3), m = pick(1, 40), n = pick(1, 700),
            k = pick(0, 40);
    bool overwrite = pick(0, 1);
    // Per operand: rows x cols with a padded, possibly transposed layout.
    auto layout = [&](int64_t rows, int64_t cols, int64_t &rs, int64_t &cs,
                      int64_t &bs) {
      int64_t pad = pick(0, 3);
      if (pick(0, 1)) {
        cs = 1;
        rs = cols + pad;
        bs = rows * rs;
      } else {
        rs = 1;
        cs = rows + pad;
        bs = cols * cs;
      }
      return bs * batch;
    };
    int64_t ars, acs, abs, brs, bcs, bbs, crs, ccs, cbs;
    std::vector<double> a(layout(m, k, ars, acs, abs) + 1),
        b(layout(k, n, brs, bcs, bbs) + 1), c(layout(m, n, crs, ccs, cbs) + 1);
    std::uniform_real_distribution<double> value(-1, 1);
    for (double &x : a)
      x = value(rng);
    for (double &x : b)
      x = value(rng);
    for (double &x : c)
      x = value(rng);
    auto address = [](auto &v) { return reinterpret_cast<int64_t>(v.data()); };
    auto run = [&](auto tag, bool reference) {
      using T = decltype(tag);
      std::vector<T> ta(a.begin(), a.end()), tb(b.begin(), b.end()),
          tc(c.begin(), c.end());
      if constexpr (std::is_integral_v<T>) {
        for (size_t i = 0; i < a.size(); ++i)
          ta[i] = static_cast<T>(std::lround(a[i] * 8));
        for (size_t i = 0; i < b.size(); ++i)
          tb[i] = static_cast<T>(std::lround(b[i] * 8));
        for (size_t i = 0; i < c.size(); ++i)
          tc[i] = static_cast<T>(std::lround(c[i] * 8));
      }
      int32_t dtype = std::is_same_v<T, float>    ? TRELLIS_RT_F32
                      : std::is_same_v<T, double> ? TRELLIS_RT_F64
                                                  : TRELLIS_RT_I64;
      mlir::trellis::rt::setCurrentDevice(reference ? &device : nullptr);
      (overwrite ? trellis_rt_matmul_overwrite : trellis_rt_matmul)(
          dtype, batch, m, n, k, address(ta), abs, ars, acs, address(tb), bbs,
          brs, bcs, address(tc), cbs, crs, ccs);
      mlir::trellis::rt::setCurrentDevice(nullptr);
      return tc;
    };
    std::vector<double> fast = run(double(), false),
                        slow = run(double(), true);
    for (size_t i = 0; i < c.size(); ++i)
      ASSERT_NEAR(fast[i], slow[i], 1e-12 * (k + 1)) << "round " << round;
    std::vector<float> fastF = run(float(), false), slowF = run(float(), true);
    for (size_t i = 0; i < c.size(); ++i)
      ASSERT_NEAR(fastF[i], slowF[i], 1e-5f * (k + 1)) << "round " << round;
    EXPECT_EQ(run(int64_t(), false), run(int64_t(), true)) << round;
  }
}

} // namespace
