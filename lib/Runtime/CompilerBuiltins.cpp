//===- CompilerBuiltins.cpp - Soft-float helpers the JIT may call ---------===//

#include "lib/Runtime/CompilerBuiltins.h"
#include "lib/Runtime/Float16.h"

#include <cstring>

using namespace mlir::trellis::rt;

static __bf16 fromBits(uint16_t bits) {
  __bf16 b;
  std::memcpy(&b, &bits, sizeof(b));
  return b;
}

__bf16 trellis_builtin_truncsfbf2(float f) { return fromBits(floatToBf16(f)); }

__bf16 trellis_builtin_truncdfbf2(double d) {
  return fromBits(doubleToBf16(d));
}
