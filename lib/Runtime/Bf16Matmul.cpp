//===- Bf16Matmul.cpp - bf16 matmuls on the CPU's bf16 dot products -------===//
//
// oneDNN's matmul primitive on strided views of the operands. Its bf16
// kernels ("brg:avx512_core_bf16", "brg:avx512_core_amx") compute in f32
// with the CPU's bf16 dot products; where it would only have a reference
// or non-bf16 kernel for a layout, the operand is packed row-major first,
// and where it has none at all the caller's widening path runs instead.
// Each call is single-threaded: a device's compute already has its own
// core (compute slots), as for the Eigen kernels.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/Bf16Matmul.h"

#ifdef TRELLIS_HAS_DNNL
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <dlfcn.h>
#endif

namespace rt = mlir::trellis::rt;

#ifndef TRELLIS_HAS_DNNL

bool rt::dnnlBf16Matmul(int64_t, int64_t, int64_t, const uint16_t *, int64_t,
                        int64_t, const uint16_t *, int64_t, int64_t, float *,
                        int64_t, int64_t, bool) {
  return false;
}

std::string rt::dnnlBf16MatmulImpl(int64_t, int64_t, int64_t) { return ""; }

#else

namespace {

using dnnl::memory;

/// Below this many multiply-adds the primitive lookup costs more than the
/// Eigen path saves.
constexpr int64_t kMinWork = 32 * 32 * 32;

struct ThreadState {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  /// oneDNN parallelises with OpenMP (Debian's build), whose thread count
  /// is per calling thread: one here. Looked up rather than linked, as the
  /// OpenMP runtime comes with oneDNN's library.
  ThreadState() {
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(
            dlsym(RTLD_DEFAULT, "omp_set_num_threads")))
      set(1);
  }
};

ThreadState &threadState() {
  thread_local ThreadState state;
  return state;
}

/// A kernel that uses bf16 instructions, not a reference loop or one that
/// converts to f32 first.
bool isBf16Kernel(const dnnl::primitive_desc_base &pd) {
  const char *impl = pd.impl_info_str();
  return std::strstr(impl, "bf16") || std::strstr(impl, "amx");
}

memory::desc matrix(int64_t rows, int64_t cols, int64_t rowStride,
                    int64_t colStride, memory::data_type type) {
  // oneDNN wants strides of size-1 dimensions to be consistent too.
  if (rows == 1)
    rowStride = cols * colStride;
  if (cols == 1)
    colStride = 1;
  return memory::desc({rows, cols}, type, {rowStride, colStride});
}

dnnl::matmul::primitive_desc describe(const memory::desc &a,
                                      const memory::desc &b,
                                      const memory::desc &c, bool overwrite,
                                      const dnnl::engine &engine) {
  dnnl::primitive_attr attr;
  if (!overwrite) {
    dnnl::post_ops ops;
    ops.append_sum(1.0f);
    attr.set_post_ops(ops);
  }
  return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, b, c), attr, engine,
                                      /*allow_empty=*/true);
}

std::vector<uint16_t> packRowMajor(const uint16_t *p, int64_t rows,
                                   int64_t cols, int64_t rs, int64_t cs) {
  std::vector<uint16_t> packed(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      packed[i * cols + j] = p[i * rs + j * cs];
  return packed;
}

} // namespace

bool rt::dnnlBf16Matmul(int64_t m, int64_t n, int64_t k, const uint16_t *a,
                        int64_t ars, int64_t acs, const uint16_t *b,
                        int64_t brs, int64_t bcs, float *c, int64_t crs,
                        int64_t ccs, bool overwrite) {
  if (m <= 0 || n <= 0 || k <= 0 || m * n * k < kMinWork || ars < 0 ||
      acs < 0 || brs < 0 || bcs < 0 || crs < 0 || ccs < 0)
    return false;
  using dt = memory::data_type;
  memory::desc cDesc = matrix(m, n, crs, ccs, dt::f32);
  memory::desc aDesc = matrix(m, k, ars, acs, dt::bf16);
  memory::desc bDesc = matrix(k, n, brs, bcs, dt::bf16);
  std::vector<uint16_t> packedA, packedB;
  ThreadState *state = nullptr;
  dnnl::matmul matmul;
  try {
    state = &threadState();
    auto pd = describe(aDesc, bDesc, cDesc, overwrite, state->engine);
    // Strided layouts oneDNN has no bf16 kernel for: pack A and B
    // row-major (C's layout is the caller's; if even that has none, give
    // up and let the widening path run).
    if (!pd || !isBf16Kernel(pd)) {
      packedA = packRowMajor(a, m, k, ars, acs);
      packedB = packRowMajor(b, k, n, brs, bcs);
      a = packedA.data();
      b = packedB.data();
      aDesc = matrix(m, k, k, 1, dt::bf16);
      bDesc = matrix(k, n, n, 1, dt::bf16);
      pd = describe(aDesc, bDesc, cDesc, overwrite, state->engine);
      if (!pd || !isBf16Kernel(pd))
        return false;
    }
    matmul = dnnl::matmul(pd);
  } catch (const dnnl::error &) {
    return false; // nothing written yet: the widening path runs
  }
  // Once C may have been written, a failure cannot fall back (an
  // accumulating matmul would add twice): it stops the program.
  try {
    memory aMem(aDesc, state->engine, const_cast<uint16_t *>(a));
    memory bMem(bDesc, state->engine, const_cast<uint16_t *>(b));
    memory cMem(cDesc, state->engine, c);
    matmul.execute(
        state->stream,
        {{DNNL_ARG_SRC, aMem}, {DNNL_ARG_WEIGHTS, bMem}, {DNNL_ARG_DST, cMem}});
    state->stream.wait();
  } catch (const dnnl::error &error) {
    std::fprintf(stderr, "trellis runtime: oneDNN bf16 matmul failed: %s\n",
                 error.what());
    std::abort();
  }
  return true;
}

std::string rt::dnnlBf16MatmulImpl(int64_t m, int64_t n, int64_t k) {
  try {
    using dt = memory::data_type;
    auto pd =
        describe(matrix(m, k, k, 1, dt::bf16), matrix(k, n, n, 1, dt::bf16),
                 matrix(m, n, n, 1, dt::f32), true, threadState().engine);
    return pd ? pd.impl_info_str() : "";
  } catch (const dnnl::error &) {
    return "";
  }
}

#endif
