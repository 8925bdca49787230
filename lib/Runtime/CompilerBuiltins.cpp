//===- CompilerBuiltins.cpp - Soft-float helpers the JIT may call ---------===//

#include "lib/Runtime/CompilerBuiltins.h"
#include "lib/Runtime/Float16.h"

#include <cmath>
#include <cstring>

using namespace mlir::trellis::rt;

uint16_t mlir::trellis::rt::truncF32ToBf16Bits(float f) {
  return floatToBf16(f);
}

uint16_t mlir::trellis::rt::truncF64ToBf16Bits(double d) {
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

static __bf16 fromBits(uint16_t bits) {
  __bf16 b;
  std::memcpy(&b, &bits, sizeof(b));
  return b;
}

__bf16 trellis_builtin_truncsfbf2(float f) {
  return fromBits(truncF32ToBf16Bits(f));
}

__bf16 trellis_builtin_truncdfbf2(double d) {
  return fromBits(truncF64ToBf16Bits(d));
}
