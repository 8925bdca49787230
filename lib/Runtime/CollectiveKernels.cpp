//===- CollectiveKernels.cpp - Local data movement of collectives ---------===//

#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/Float16.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

using namespace mlir::trellis::rt;

namespace {

/// Integer sums wrap around, as arith.addi does (added as unsigned: a
/// signed overflow would be undefined behaviour in C++).
struct Sum {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(
          static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
      return a + b;
    }
  }
};
/// Max and min follow arith.maximumf / arith.minimumf: a NaN on any device
/// propagates (whichever device holds it) and -0.0 < +0.0.
struct Max {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a || b != b)
        return a + b; // a quiet NaN
      if (a == b)
        return std::signbit(a) ? b : a;
    }
    return a < b ? b : a;
  }
};
struct Min {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (a != a || b != b)
        return a + b;
      if (a == b)
        return std::signbit(a) ? a : b;
    }
    return b < a ? b : a;
  }
};

/// Reduces `len` elements at `start` (at most kStrip) in registers: every
/// input's elements are combined before any output is stored, so an
/// output may be one of the inputs. With a constant `len` the loops over
/// `e` unroll into a few vector registers.
template <int64_t kStrip, typename T, typename Acc, typename Op, typename Load,
          typename Store>
inline void reduceStrip(Op op, bool mean, const void *const *inputs, size_t n,
                        int64_t start, int64_t len, void *const *outs,
                        size_t numOuts, int64_t outStart, Load load,
                        Store store) {
  Acc acc[kStrip];
  const T *first = static_cast<const T *>(inputs[0]) + start;
  for (int64_t e = 0; e < len; ++e)
    acc[e] = load(first[e]);
  for (size_t k = 1; k < n; ++k) {
    const T *src = static_cast<const T *>(inputs[k]) + start;
    for (int64_t e = 0; e < len; ++e)
      acc[e] = op(acc[e], load(src[e]));
  }
  if (mean)
    for (int64_t e = 0; e < len; ++e)
      acc[e] = acc[e] / static_cast<Acc>(n);
  T result[kStrip];
  for (int64_t e = 0; e < len; ++e)
    result[e] = store(acc[e]);
  for (size_t j = 0; j < numOuts; ++j) {
    T *dst = static_cast<T *>(outs[j]) + outStart;
    for (int64_t e = 0; e < len; ++e)
      dst[e] = result[e];
  }
}

/// Reduces strip by strip (512 bytes of accumulators: 8 AVX-512 registers;
/// with AVX2 all 16, and some may spill) and stores every strip into all
/// outputs at element `outOffset`: an all-reduce broadcasts its sum
/// without an accumulator array in memory or a second pass over it. `Op`
/// is a template parameter so the inner loops vectorise.
template <typename T, typename Acc, typename Op, typename Load, typename Store>
void reduceWith(Op op, bool mean, const std::vector<const void *> &inputs,
                int64_t offset, int64_t count, void *const *outs,
                size_t numOuts, int64_t outOffset, Load load, Store store) {
  constexpr int64_t kStrip = 512 / sizeof(Acc);
  const size_t n = inputs.size();
  int64_t e = 0;
  for (; e + kStrip <= count; e += kStrip)
    reduceStrip<kStrip, T, Acc>(op, mean, inputs.data(), n, offset + e, kStrip,
                                outs, numOuts, outOffset + e, load, store);
  if (e < count)
    reduceStrip<kStrip, T, Acc>(op, mean, inputs.data(), n, offset + e,
                                count - e, outs, numOuts, outOffset + e, load,
                                store);
}

template <typename T, typename Acc, typename Load, typename Store>
void reduceTyped(int32_t reduction, const std::vector<const void *> &inputs,
                 int64_t offset, int64_t count, void *const *outs,
                 size_t numOuts, int64_t outOffset, Load load, Store store) {
  switch (reduction) {
  case TRELLIS_RT_MAX:
    return reduceWith<T, Acc>(Max(), false, inputs, offset, count, outs,
                              numOuts, outOffset, load, store);
  case TRELLIS_RT_MIN:
    return reduceWith<T, Acc>(Min(), false, inputs, offset, count, outs,
                              numOuts, outOffset, load, store);
  default:
    return reduceWith<T, Acc>(Sum(), reduction == TRELLIS_RT_MEAN, inputs,
                              offset, count, outs, numOuts, outOffset, load,
                              store);
  }
}

template <typename T>
void reducePlain(int32_t reduction, const std::vector<const void *> &inputs,
                 int64_t offset, int64_t count, void *const *outs,
                 size_t numOuts, int64_t outOffset) {
  reduceTyped<T, T>(
      reduction, inputs, offset, count, outs, numOuts, outOffset,
      [](T v) { return v; }, [](T v) { return v; });
}

} // namespace

bool mlir::trellis::rt::canReduce(int32_t dtype, int32_t reduction) {
  switch (dtype) {
  case TRELLIS_RT_F32:
  case TRELLIS_RT_F64:
  case TRELLIS_RT_BF16:
  case TRELLIS_RT_F16:
    return true;
  case TRELLIS_RT_I32:
  case TRELLIS_RT_I64:
  case TRELLIS_RT_I8:
  case TRELLIS_RT_I16:
    return reduction != TRELLIS_RT_MEAN;
  default:
    return false;
  }
}

namespace {
/// reduceWith for `dtype`, the results stored at element `outOffset` of
/// each of `outs`.
void reduceInto(int32_t dtype, int32_t reduction,
                const std::vector<const void *> &inputs, int64_t offset,
                int64_t count, void *const *outs, size_t numOuts,
                int64_t outOffset) {
  switch (dtype) {
  case TRELLIS_RT_F32:
    return reducePlain<float>(reduction, inputs, offset, count, outs, numOuts,
                              outOffset);
  case TRELLIS_RT_F64:
    return reducePlain<double>(reduction, inputs, offset, count, outs, numOuts,
                               outOffset);
  case TRELLIS_RT_I32:
    return reducePlain<int32_t>(reduction, inputs, offset, count, outs, numOuts,
                                outOffset);
  case TRELLIS_RT_I64:
    return reducePlain<int64_t>(reduction, inputs, offset, count, outs, numOuts,
                                outOffset);
  case TRELLIS_RT_I8:
    return reducePlain<int8_t>(reduction, inputs, offset, count, outs, numOuts,
                               outOffset);
  case TRELLIS_RT_I16:
    return reducePlain<int16_t>(reduction, inputs, offset, count, outs, numOuts,
                                outOffset);
  case TRELLIS_RT_BF16:
    return reduceTyped<uint16_t, float>(reduction, inputs, offset, count, outs,
                                        numOuts, outOffset, bf16ToFloat,
                                        floatToBf16);
  case TRELLIS_RT_F16:
    return reduceTyped<uint16_t, float>(reduction, inputs, offset, count, outs,
                                        numOuts, outOffset, halfToFloat,
                                        floatToHalf);
  default:
    return;
  }
}
} // namespace

void mlir::trellis::rt::reduceBlocks(int32_t dtype, int32_t reduction,
                                     const std::vector<const void *> &inputs,
                                     int64_t offset, int64_t count, void *out) {
  reduceInto(dtype, reduction, inputs, offset, count, &out, 1, 0);
}

void mlir::trellis::rt::reduceBlocksInto(
    int32_t dtype, int32_t reduction, const std::vector<const void *> &inputs,
    int64_t offset, int64_t count, const std::vector<void *> &outs) {
  reduceInto(dtype, reduction, inputs, offset, count, outs.data(), outs.size(),
             offset);
}

void mlir::trellis::rt::copyChunk(int64_t elemBytes, const char *src,
                                  int64_t srcInner, int64_t srcBlocks,
                                  int64_t srcBlock, char *dst, int64_t dstInner,
                                  int64_t dstBlocks, int64_t dstBlock,
                                  int64_t count) {
  int64_t f = 0;
  while (f < count) {
    int64_t si = f % srcInner, so = f / srcInner;
    int64_t di = f % dstInner, dOuter = f / dstInner;
    int64_t run = std::min({srcInner - si, dstInner - di, count - f});
    const char *from =
        src + ((so * srcBlocks + srcBlock) * srcInner + si) * elemBytes;
    char *to =
        dst + ((dOuter * dstBlocks + dstBlock) * dstInner + di) * elemBytes;
    std::memcpy(to, from, run * elemBytes);
    f += run;
  }
}
