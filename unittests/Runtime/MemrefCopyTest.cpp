//===- MemrefCopyTest.cpp - The strided copy JIT'd code calls -------------===//

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
} // namespace

extern "C" void memrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                           UnrankedDescriptor *dst);

namespace {

/// A rank-2 memref descriptor: allocated, aligned, offset, sizes, strides.
std::vector<int64_t> descriptor(float *data, int64_t offset, int64_t rows,
                                int64_t cols, int64_t rowStride,
                                int64_t colStride) {
  return {reinterpret_cast<int64_t>(data),
          reinterpret_cast<int64_t>(data),
          offset,
          rows,
          cols,
          rowStride,
          colStride};
}

void copy(std::vector<int64_t> &src, std::vector<int64_t> &dst) {
  UnrankedDescriptor s{2, src.data()}, d{2, dst.data()};
  memrefCopy(sizeof(float), &s, &d);
}

TEST(MemrefCopy, DenseStridedAndTransposed) {
  std::vector<float> big(6 * 8);
  for (size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<float>(i);
  // Dense: the whole 6x8 array.
  std::vector<float> dense(6 * 8, -1);
  auto a = descriptor(big.data(), 0, 6, 8, 8, 1);
  auto b = descriptor(dense.data(), 0, 6, 8, 8, 1);
  copy(a, b);
  EXPECT_EQ(dense, big);
  // Rows of a column block (contiguous runs): big[1:5, 2:6].
  std::vector<float> block(4 * 4, -1);
  auto c = descriptor(big.data(), 1 * 8 + 2, 4, 4, 8, 1);
  auto d = descriptor(block.data(), 0, 4, 4, 4, 1);
  copy(c, d);
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(block[r * 4 + k], big[(r + 1) * 8 + k + 2]);
  // Transposed source (no contiguous runs): big viewed as 8x6.
  std::vector<float> transposed(8 * 6, -1);
  auto e = descriptor(big.data(), 0, 8, 6, 1, 8);
  auto f = descriptor(transposed.data(), 0, 8, 6, 6, 1);
  copy(e, f);
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(transposed[r * 6 + k], big[k * 8 + r]);
  // Into a strided destination.
  std::vector<float> into(6 * 8, -1);
  auto g = descriptor(block.data(), 0, 4, 4, 4, 1);
  auto h = descriptor(into.data(), 8 + 2, 4, 4, 8, 1);
  copy(g, h);
  EXPECT_EQ(into[8 + 2], block[0]);
  EXPECT_EQ(into[4 * 8 + 5], block[15]);
  EXPECT_EQ(into[0], -1);
}

} // namespace
