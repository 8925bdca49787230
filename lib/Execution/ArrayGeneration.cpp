//===- ArrayGeneration.cpp - Generated inputs: iota and random ------------===//

#include "trellis/Execution/HostArray.h"
#include "trellis/Runtime/TrellisRuntime.h"

using namespace mlir::trellis::exec;

/// Calls fn(i, g) for every element i of a block of `block` at `offset` in
/// a row-major array of `global`, g being the element's global index.
template <typename Fn>
static void forEachGlobalIndex(const std::vector<int64_t> &global,
                               const std::vector<int64_t> &offset,
                               const std::vector<int64_t> &block, Fn fn) {
  const size_t rank = global.size();
  int64_t count = 1;
  for (int64_t d : block)
    count *= d;
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t g = 0;
    for (size_t d = 0; d < rank; ++d)
      g = g * global[d] + offset[d] + index[d];
    fn(i, g);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < block[d])
        break;
      index[d] = 0;
    }
  }
}

/// A counter-based generator (splitmix64 of seed and index): element g of
/// an input has the same value whichever process generates which block.
static uint64_t mix(uint64_t seed, uint64_t index) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + index + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z = z ^ (z >> 31);
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double randomValue(const HostArray &array, uint64_t seed,
                          int64_t index) {
  uint64_t bits = mix(seed, static_cast<uint64_t>(index));
  if (array.isFloat()) // uniform in [-1, 1) with 53 random bits
    return static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;
  int64_t value = static_cast<int64_t>(bits % 17) - 8; // [-8, 8]
  if (array.dtype == TRELLIS_RT_I1)
    return value > 0;
  return static_cast<double>(value);
}

void mlir::trellis::exec::fillIota(HostArray &array) {
  for (int64_t i = 0, n = array.numElements(); i < n; ++i)
    array.set(i, static_cast<double>(i));
}

void mlir::trellis::exec::fillRandom(HostArray &array, uint64_t seed) {
  for (int64_t i = 0, n = array.numElements(); i < n; ++i)
    array.set(i, randomValue(array, seed, i));
}

void mlir::trellis::exec::fillBlock(HostArray &block,
                                    const std::vector<int64_t> &globalShape,
                                    const std::vector<int64_t> &offset,
                                    bool random, uint64_t seed) {
  forEachGlobalIndex(globalShape, offset, block.shape,
                     [&](int64_t i, int64_t g) {
                       block.set(i, random ? randomValue(block, seed, g)
                                           : static_cast<double>(g));
                     });
}
