//===- Float16Test.cpp - bf16/f16 conversions against APFloat -------------===//
//
// lib/Runtime/Float16.h converts with bit tricks in the kernels and in
// trellis-run's host arrays. LLVM's APFloat, written independently, is the
// oracle: every 16-bit pattern widened, and f32 patterns across the whole
// range (plus every value halfway between two 16-bit neighbours) narrowed
// to nearest even.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/Float16.h"
#include "lib/Runtime/CompilerBuiltins.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir::trellis::rt;

namespace {

float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

float widenWithAPFloat(const llvm::fltSemantics &semantics, uint16_t bits) {
  return llvm::APFloat(semantics, llvm::APInt(16, bits)).convertToFloat();
}

uint16_t narrowWithAPFloat(const llvm::fltSemantics &semantics, float f) {
  llvm::APFloat value(f);
  bool losesInfo;
  value.convert(semantics, llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

/// Narrowing `f` both ways agrees (any NaN for a NaN).
void expectNarrows(const llvm::fltSemantics &semantics,
                   uint16_t (*narrow)(float), float (*widen)(uint16_t),
                   float f) {
  uint16_t got = narrow(f), want = narrowWithAPFloat(semantics, f);
  if (std::isnan(f)) {
    EXPECT_TRUE(std::isnan(widen(got))) << "bits " << floatToBits(f);
    return;
  }
  EXPECT_EQ(got, want) << "f32 bits 0x" << std::hex << floatToBits(f);
}

void checkFormat(const llvm::fltSemantics &semantics, float (*widen)(uint16_t),
                 uint16_t (*narrow)(float)) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    float got = widen(static_cast<uint16_t>(h));
    float want = widenWithAPFloat(semantics, static_cast<uint16_t>(h));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << h;
      continue;
    }
    ASSERT_EQ(floatToBits(got), floatToBits(want)) << "16-bit pattern " << h;
    // Round trip, and the ties between this value and the next one up.
    expectNarrows(semantics, narrow, widen, got);
    if (h != 0x7fff && h != 0xffff) {
      float next = widenWithAPFloat(semantics, static_cast<uint16_t>(h + 1));
      if (std::isfinite(got) && std::isfinite(next)) {
        double middle = (static_cast<double>(got) + next) / 2;
        float tie = static_cast<float>(middle);
        if (static_cast<double>(tie) == middle) {
          expectNarrows(semantics, narrow, widen, tie);
          expectNarrows(semantics, narrow, widen, std::nextafter(tie, 0.0f));
          expectNarrows(semantics, narrow, widen,
                        std::nextafter(tie, INFINITY));
        }
      }
    }
  }
  // f32 patterns across the whole range, both signs, NaNs and infinities.
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 997)
    expectNarrows(semantics, narrow, widen,
                  bitsToFloat(static_cast<uint32_t>(bits)));
  for (uint32_t bits : {0x7f800000u, 0xff800000u, 0x7f800001u, 0x7fc00000u,
                        0x477fefffu, 0x477ff000u, 0x33000000u, 0x33000001u})
    expectNarrows(semantics, narrow, widen, bitsToFloat(bits));
}

TEST(Float16, Bf16MatchesAPFloat) {
  checkFormat(llvm::APFloat::BFloat(), bf16ToFloat, floatToBf16);
}

TEST(Float16, HalfMatchesAPFloat) {
  checkFormat(llvm::APFloat::IEEEhalf(), halfToFloat, floatToHalf);
}

/// The bf16 bits APFloat rounds `d` to, once, to nearest even.
uint16_t apfloatBf16(double d) {
  llvm::APFloat v(d);
  bool lost;
  v.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
}

void expectBf16FromDouble(double d) {
  uint16_t got = doubleToBf16(d);
  if (std::isnan(d)) {
    EXPECT_EQ(got & 0x7fc0, 0x7fc0) << d << " gives no quiet NaN";
    return;
  }
  EXPECT_EQ(got, apfloatBf16(d)) << "f64 " << d;
}

/// What the JIT's code reads after calling the builtin: the low 16 bits
/// of xmm0. The test holds no __bf16 value itself, since the compiler
/// may convert one through __truncsfbf2, which is missing here (that is
/// why the builtins exist); a float return comes back in xmm0 too.
template <typename Arg> uint16_t viaXmm0(__bf16 (*builtin)(Arg), Arg a) {
  // Through void (*)(): the cast is meant (-Wcast-function-type).
  auto asFloat =
      reinterpret_cast<float (*)(Arg)>(reinterpret_cast<void (*)()>(builtin));
  float f = asFloat(a);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return static_cast<uint16_t>(bits);
}

// The soft-float conversions the JIT calls on hosts without bf16
// instructions: f32 as floatToBf16, f64 rounded once (through f32 it
// would round twice: 1 + 2^-8 + 2^-30 is above the tie between 1 and
// 1 + 2^-7, but its f32 rounding, 1 + 2^-8, is on it and goes to 1).
TEST(Float16, JitBuiltinsRoundOnce) {
  for (float f : {0.0f, -0.0f, 1.0f, 1.00390625f, 3.0e38f, -1e-40f, INFINITY})
    EXPECT_EQ(viaXmm0(&trellis_builtin_truncsfbf2, f), floatToBf16(f)) << f;
  EXPECT_EQ(viaXmm0(&trellis_builtin_truncdfbf2, 1.0 + 0x1p-8 + 0x1p-30),
            0x3f81);
  EXPECT_EQ(viaXmm0(&trellis_builtin_truncdfbf2, -(1.0 + 0x1p-8 + 0x1p-30)),
            0xbf81);
  for (double d : {0.0, -0.0, 1.0 + 0x1p-8, 1.0 + 0x1p-8 - 0x1p-40,
                   1.0 + 0x1p-7 + 0x1p-8, 1e300, -1e300, 3.3961e38, 3.3959e38,
                   1e-320, -1e-320, 0x1p-133, 0x1p-134, 0x1p-134 + 0x1p-160,
                   5e-324, HUGE_VAL, -HUGE_VAL, static_cast<double>(NAN)})
    expectBf16FromDouble(d);
  // Random patterns over the whole f64 range, and values near bf16 ties.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, 8);
    expectBf16FromDouble(d);
    double scale = std::ldexp(1.0, static_cast<int>(rng() % 260) - 130);
    double tie = (1.0 + ((rng() % 128) * 2 + 1) * 0x1p-8) * scale;
    expectBf16FromDouble(tie);
    expectBf16FromDouble(std::nextafter(tie, 0.0));
    expectBf16FromDouble(std::nextafter(tie, HUGE_VAL));
  }
}

} // namespace
