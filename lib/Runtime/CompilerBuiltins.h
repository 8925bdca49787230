//===- CompilerBuiltins.h - Soft-float helpers the JIT may call -*- C++ -*-===//
//
// On a host without native bf16 conversions (x86 without AVX512-BF16, say)
// LLVM lowers arith.truncf to bf16 into calls to compiler-rt's
// __truncsfbf2 / __truncdfbf2, which a process linked against an older
// libgcc does not have. The executor hands the JIT these instead, under
// those names: Float16.h's floatToBf16 and doubleToBf16, which round to
// nearest even as arith.truncf does.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_COMPILERBUILTINS_H
#define TRELLIS_LIB_RUNTIME_COMPILERBUILTINS_H

extern "C" {
/// The compiler-rt calling convention: the bf16 comes back in xmm0.
__bf16 trellis_builtin_truncsfbf2(float f);
__bf16 trellis_builtin_truncdfbf2(double d);
}

#endif // TRELLIS_LIB_RUNTIME_COMPILERBUILTINS_H
