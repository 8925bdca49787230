//===- CompilerBuiltins.h - Soft-float helpers the JIT may call -*- C++ -*-===//
//
// On a host without native bf16 conversions (x86 without AVX512-BF16, say)
// LLVM lowers arith.truncf to bf16 into calls to compiler-rt's
// __truncsfbf2 / __truncdfbf2, which a process linked against an older
// libgcc does not have. The executor hands the JIT these instead, under
// those names. Each rounds to nearest even as arith.truncf does; f64 is
// rounded once (not through f32, which would round twice).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_COMPILERBUILTINS_H
#define TRELLIS_LIB_RUNTIME_COMPILERBUILTINS_H

#include <cstdint>

namespace mlir::trellis::rt {

/// The bf16 bits of `f` (and of `d`), rounded to nearest even.
uint16_t truncF32ToBf16Bits(float f);
uint16_t truncF64ToBf16Bits(double d);

} // namespace mlir::trellis::rt

extern "C" {
/// The compiler-rt calling convention: the bf16 comes back in xmm0.
__bf16 trellis_builtin_truncsfbf2(float f);
__bf16 trellis_builtin_truncdfbf2(double d);
}

#endif // TRELLIS_LIB_RUNTIME_COMPILERBUILTINS_H
