//===- Bf16MatmulTest.cpp - bf16 matmuls against a double reference -------===//
//
// trellis_rt_matmul_widening on bf16 operands large enough for the oneDNN
// kernel (when built in): every layout the lowering can hand it (row- and
// column-major operands, strided ones that must be packed, column-major C),
// accumulating and overwriting, batched, against products summed in double
// here. Products of two bf16 values are exact in f32, so the only error is
// the f32 summation: bounded by k * 2^-23 * sum |a||b| per element.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/Bf16Matmul.h"
#include "lib/Runtime/Float16.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

namespace rt = mlir::trellis::rt;

int64_t address(const void *p) { return reinterpret_cast<int64_t>(p); }

/// A strided bf16 matrix: element (i, j) at data[i * rs + j * cs].
struct Matrix {
  int64_t rows, cols, rs, cs;
  std::vector<uint16_t> data;
  float at(int64_t i, int64_t j) const {
    return rt::bf16ToFloat(data[i * rs + j * cs]);
  }
};

/// rows x cols with values in [-2, 2) rounded to bf16, laid out with
/// strides (rs, cs) in a buffer big enough for them.
Matrix randomMatrix(std::mt19937 &gen, int64_t rows, int64_t cols, int64_t rs,
                    int64_t cs) {
  std::uniform_real_distribution<float> dist(-2, 2);
  Matrix m{rows, cols, rs, cs, {}};
  m.data.assign((rows - 1) * rs + (cols - 1) * cs + 1, 0x7fc0); // NaN gaps
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m.data[i * rs + j * cs] = rt::floatToBf16(dist(gen));
  return m;
}

struct Layout {
  const char *name;
  bool transA, transB, stridedA, columnMajorC;
};

class Bf16Matmul : public ::testing::TestWithParam<Layout> {};

TEST_P(Bf16Matmul, MatchesADoubleReference) {
  const Layout layout = GetParam();
  const int64_t batch = 2, m = 37, n = 50, k = 96;
  std::mt19937 gen(20261124);
  auto strides = [](int64_t rows, int64_t cols, bool trans, int64_t pad) {
    // Row-major with `pad` extra columns, or column-major.
    return trans ? std::pair<int64_t, int64_t>{1, rows + pad}
                 : std::pair<int64_t, int64_t>{cols + pad, 1};
  };
  auto [ars, acs] = strides(m, k, layout.transA, 3);
  if (layout.stridedA) // neither rows nor columns contiguous
    std::tie(ars, acs) = std::pair<int64_t, int64_t>{2 * k + 1, 2};
  auto [brs, bcs] = strides(k, n, layout.transB, 0);
  std::vector<Matrix> as, bs;
  for (int64_t i = 0; i < batch; ++i) {
    as.push_back(randomMatrix(gen, m, k, ars, acs));
    bs.push_back(randomMatrix(gen, k, n, brs, bcs));
  }
  // One buffer per operand with the batch stride the kernel takes.
  const int64_t aBatch = as[0].data.size(), bBatch = bs[0].data.size();
  std::vector<uint16_t> a, b;
  for (int64_t i = 0; i < batch; ++i) {
    a.insert(a.end(), as[i].data.begin(), as[i].data.end());
    b.insert(b.end(), bs[i].data.begin(), bs[i].data.end());
  }
  const int64_t crs = layout.columnMajorC ? 1 : n;
  const int64_t ccs = layout.columnMajorC ? m : 1;
  for (bool overwrite : {true, false}) {
    std::vector<float> c(batch * m * n);
    for (size_t e = 0; e < c.size(); ++e)
      c[e] = static_cast<float>(e % 7) - 3; // what C held
    std::vector<float> before = c;
    trellis_rt_matmul_widening(TRELLIS_RT_BF16, overwrite, batch, m, n, k,
                               address(a.data()), aBatch, ars, acs,
                               address(b.data()), bBatch, brs, bcs,
                               address(c.data()), m * n, crs, ccs);
    for (int64_t t = 0; t < batch; ++t)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0, bound = 0;
          for (int64_t l = 0; l < k; ++l) {
            double p = double(as[t].at(i, l)) * bs[t].at(l, j);
            sum += p;
            bound += std::fabs(p);
          }
          int64_t e = t * m * n + i * crs + j * ccs;
          if (!overwrite)
            sum += before[e];
          bound = (k + 1) * std::ldexp(bound + std::fabs(sum), -23);
          ASSERT_NEAR(c[e], sum, bound)
              << layout.name << (overwrite ? " overwrite" : " accumulate")
              << " batch " << t << " at (" << i << ", " << j << ")";
        }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, Bf16Matmul,
    ::testing::Values(Layout{"row-major", false, false, false, false},
                      Layout{"transposed A", true, false, false, false},
                      Layout{"transposed B", false, true, false, false},
                      Layout{"strided A", false, false, true, false},
                      Layout{"column-major C", false, false, false, true},
                      Layout{"all transposed", true, true, false, true}),
    [](const auto &info) {
      std::string name = info.param.name;
      for (char &ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch)))
          ch = '_';
      return name;
    });

/// NaN and infinity propagate as in f32: a NaN in A's row 0 makes C's row
/// 0 NaN; inf * 0 is NaN; inf * 1 stays inf.
TEST(Bf16MatmulSpecials, NaNAndInfinityPropagate) {
  const int64_t m = 32, n = 32, k = 64;
  std::vector<uint16_t> a(m * k, rt::floatToBf16(1)), b(k * n, 0);
  for (int64_t l = 0; l < k; ++l)
    b[l * n + l % n] = rt::floatToBf16(1); // B's columns sum rows of A
  a[0 * k + 5] = 0x7fc0;                   // NaN in row 0
  a[1 * k + 0] = 0x7f80;                   // +inf in row 1, times B(0, 0)=1
  std::vector<float> c(m * n, 0);
  trellis_rt_matmul_widening(TRELLIS_RT_BF16, 1, 1, m, n, k, address(a.data()),
                             0, k, 1, address(b.data()), 0, n, 1,
                             address(c.data()), 0, n, 1);
  for (int64_t j = 0; j < n; ++j) {
    // Row 0 meets the NaN wherever B's column has a non-zero in row 5 --
    // and NaN * 0 is NaN too, so every column.
    EXPECT_TRUE(std::isnan(c[j])) << j;
    // Row 1: inf * 1 in column 0 (and 32), inf * 0 = NaN elsewhere.
    if (j == 0)
      EXPECT_EQ(c[n + j], std::numeric_limits<float>::infinity());
    else
      EXPECT_TRUE(std::isnan(c[n + j])) << j;
    EXPECT_EQ(c[2 * n + j], 2.0f) << j; // two ones per column
  }
}

/// Says which kernel ran (in the test log), and that small shapes are left
/// to the widening path.
TEST(Bf16MatmulSpecials, SmallShapesTakeTheWideningPath) {
  std::printf("oneDNN bf16 kernel for 1024^3: '%s'\n",
              rt::dnnlBf16MatmulImpl(1024, 1024, 1024).c_str());
  std::vector<uint16_t> a(4 * 4, rt::floatToBf16(1)), b(4 * 4, 0);
  std::vector<float> c(16, 0);
  EXPECT_FALSE(rt::dnnlBf16Matmul(4, 4, 4, a.data(), 4, 1, b.data(), 4, 1,
                                  c.data(), 4, 1, true));
}

} // namespace
