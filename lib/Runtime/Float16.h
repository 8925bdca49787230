//===- Float16.h - bf16 and f16 to and from f32 -----------------*- C++ -*-===//
//
// The runtime's conversions of the 16-bit float types: widening is exact,
// narrowing rounds to nearest even like arith.truncf (NaN stays a quiet
// NaN). The reference communicator has its own, written differently, so
// that the two check each other.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_FLOAT16_H
#define TRELLIS_LIB_RUNTIME_FLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mlir::trellis::rt {

inline float bf16ToFloat(uint16_t v) {
  uint32_t bits = static_cast<uint32_t>(v) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

inline uint16_t floatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu))
    return static_cast<uint16_t>((bits >> 16) | 0x40); // quiet NaN
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);   // round to nearest even
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

/// Rounded once, to nearest even (through f32 it would round twice).
inline uint16_t doubleToBf16(double d) {
  if (std::isnan(d))
    return floatToBf16(static_cast<float>(d));
  // Round to f32 toward zero, then mark an inexact result by setting its
  // lowest bit (round to odd): f32 keeps 16 bits more than bf16, so the
  // final rounding to nearest even sees the right side of every tie.
  float f = static_cast<float>(d);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d))
    f = std::nextafter(f, 0.0f);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if (static_cast<double>(f) != d)
    bits |= 1u;
  std::memcpy(&f, &bits, sizeof(bits));
  return floatToBf16(f);
}

inline float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) // infinity or NaN
    bits = sign | 0x7f800000u | (mantissa << 13);
  else if (exponent != 0) // normal: rebias 15 -> 127
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  else // zero or subnormal: mantissa * 2^-24, exact in f32
    return (sign ? -1.0f : 1.0f) * static_cast<float>(mantissa) * 0x1p-24f;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// Round to nearest even, as arith.truncf does.
inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN: quiet, keeping the payload's top
    return sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu);
  if (magnitude >= 0x477ff000u) // 65520 and up round to infinity
    return sign | 0x7c00u;
  if (magnitude < 0x38800000u) { // below 2^-14: a subnormal multiple of 2^-24
    float a;
    std::memcpy(&a, &magnitude, sizeof(a));
    return sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24f));
  }
  const uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return sign | static_cast<uint16_t>((rounded - (112u << 23)) >> 13);
}

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_FLOAT16_H
