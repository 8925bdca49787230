//===- Bf16Matmul.h - bf16 matmuls on the CPU's bf16 dot products -*- C++
//-*-===//
//
// C (f32) += A * B (or =) for bf16 A and B through oneDNN's matmul, which
// uses AVX512-BF16's vdpbf16ps (or AMX) where the CPU has it: products of
// bf16 pairs are exact in f32 and summed in f32, as the widening Eigen path
// does (docs/Precision.md). Built only when oneDNN was found
// (TRELLIS_HAS_DNNL).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_BF16MATMUL_H
#define TRELLIS_LIB_RUNTIME_BF16MATMUL_H

#include <cstdint>
#include <string>

namespace mlir::trellis::rt {

/// Runs the matmul through oneDNN when it is built in, the shape is large
/// enough to pay for a primitive lookup and oneDNN has a bf16 kernel for
/// this CPU; returns false (having touched nothing) otherwise, and the
/// caller takes the widening path.
bool dnnlBf16Matmul(int64_t m, int64_t n, int64_t k, const uint16_t *a,
                    int64_t ars, int64_t acs, const uint16_t *b, int64_t brs,
                    int64_t bcs, float *c, int64_t crs, int64_t ccs,
                    bool overwrite);

/// The name of the oneDNN implementation bf16 matmuls of this shape (row-
/// major operands) would use, or "" without oneDNN: for benchmarks and
/// tests, which say what they measured.
std::string dnnlBf16MatmulImpl(int64_t m, int64_t n, int64_t k);

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_BF16MATMUL_H
