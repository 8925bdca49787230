//===- Kernels.cpp - Eigen-backed compute kernels -------------------------===//
//
// Matmul-like linalg ops are lowered to trellis_rt_matmul (C += A * B), or
// to trellis_rt_matmul_overwrite (C = A * B) where the lowering proved that C
// was just zeroed, which runs Eigen's GEMM on strided views of the operands.
// Operands whose layout Eigen cannot take directly (neither rows nor columns
// contiguous) are packed into a temporary first.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/Bf16Matmul.h"
#include "lib/Runtime/Float16.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <Eigen/Core>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Eigen::Dynamic;
using Eigen::OuterStride;

template <typename T>
using RowMajorMap =
    Eigen::Map<Eigen::Matrix<T, Dynamic, Dynamic, Eigen::RowMajor>, 0,
               OuterStride<>>;
template <typename T>
using ColMajorMap =
    Eigen::Map<Eigen::Matrix<T, Dynamic, Dynamic, Eigen::ColMajor>, 0,
               OuterStride<>>;
template <typename T>
using ConstRowMajorMap =
    Eigen::Map<const Eigen::Matrix<T, Dynamic, Dynamic, Eigen::RowMajor>, 0,
               OuterStride<>>;
template <typename T>
using ConstColMajorMap =
    Eigen::Map<const Eigen::Matrix<T, Dynamic, Dynamic, Eigen::ColMajor>, 0,
               OuterStride<>>;

/// A read-only operand: a row- or column-major view, or a packed copy.
template <typename T> struct Operand {
  const T *data;
  int64_t rows, cols, rowStride, colStride;
  std::vector<T> packed;

  Operand(const T *p, int64_t r, int64_t c, int64_t rs, int64_t cs)
      : data(p), rows(r), cols(c), rowStride(rs), colStride(cs) {
    bool rowMajor = cs == 1 || c == 1;
    bool colMajor = rs == 1 || r == 1;
    if (!rowMajor && !colMajor) {
      packed.resize(r * c);
      for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
          packed[i * c + j] = p[i * rs + j * cs];
      data = packed.data();
      rowStride = c;
      colStride = 1;
    }
  }
  bool isRowMajor() const { return colStride == 1 || cols == 1; }
  int64_t outer() const {
    // Eigen needs an outer stride of at least the inner extent.
    if (isRowMajor())
      return cols == 1 ? std::max<int64_t>(rowStride, 1) : rowStride;
    return rows == 1 ? std::max<int64_t>(colStride, 1) : colStride;
  }
};

template <typename T, typename MapA, typename MapB>
void gemmInto(T *c, int64_t m, int64_t n, int64_t rowStride, bool overwrite,
              const MapA &a, const MapB &b) {
  RowMajorMap<T> cm(c, m, n, OuterStride<>(rowStride));
  if (overwrite)
    cm.noalias() = a * b;
  else
    cm.noalias() += a * b;
}

template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, const T *a, int64_t ars, int64_t acs,
          const T *b, int64_t brs, int64_t bcs, T *c, int64_t crs, int64_t ccs,
          bool overwrite) {
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    // An empty sum: C keeps its values, or becomes zero when overwritten.
    if (overwrite)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          c[i * crs + j * ccs] = T(0);
    return;
  }
  // A column-major C is the row-major C^T = B^T A^T: computed in place
  // instead of through a temporary (half the speed on a transposed einsum
  // result, bench/contraction_layouts.py).
  if (ccs != 1 && n != 1 && (crs == 1 || m == 1)) {
    gemm<T>(n, m, k, b, bcs, brs, a, acs, ars, c, ccs, 1, overwrite);
    return;
  }
  Operand<T> A(a, m, k, ars, acs), B(b, k, n, brs, bcs);
  // The result must be row-major with unit column stride; otherwise compute
  // into a temporary and add (or copy) it in.
  std::vector<T> temp;
  T *cData = c;
  int64_t cStride = crs;
  const bool direct = ccs == 1 || n == 1;
  // A temporary starts out empty: the product is assigned into it.
  const bool assign = overwrite || !direct;
  if (!direct) {
    temp.resize(m * n);
    cData = temp.data();
    cStride = n;
  } else if (n == 1) {
    cStride = std::max<int64_t>(crs, 1);
  }
  if (A.isRowMajor()) {
    ConstRowMajorMap<T> am(A.data, m, k, OuterStride<>(A.outer()));
    if (B.isRowMajor())
      gemmInto(cData, m, n, cStride, assign, am,
               ConstRowMajorMap<T>(B.data, k, n, OuterStride<>(B.outer())));
    else
      gemmInto(cData, m, n, cStride, assign, am,
               ConstColMajorMap<T>(B.data, k, n, OuterStride<>(B.outer())));
  } else {
    ConstColMajorMap<T> am(A.data, m, k, OuterStride<>(A.outer()));
    if (B.isRowMajor())
      gemmInto(cData, m, n, cStride, assign, am,
               ConstRowMajorMap<T>(B.data, k, n, OuterStride<>(B.outer())));
    else
      gemmInto(cData, m, n, cStride, assign, am,
               ConstColMajorMap<T>(B.data, k, n, OuterStride<>(B.outer())));
  }
  if (!direct)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c[i * crs + j * ccs] = overwrite
                                   ? temp[i * n + j]
                                   : c[i * crs + j * ccs] + temp[i * n + j];
}

template <typename T>
void batchedGemm(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
                 int64_t abs, int64_t ars, int64_t acs, int64_t b, int64_t bbs,
                 int64_t brs, int64_t bcs, int64_t c, int64_t cbs, int64_t crs,
                 int64_t ccs, bool overwrite) {
  const T *ap = reinterpret_cast<const T *>(a);
  const T *bp = reinterpret_cast<const T *>(b);
  T *cp = reinterpret_cast<T *>(c);
  for (int64_t i = 0; i < batch; ++i)
    gemm<T>(m, n, k, ap + i * abs, ars, acs, bp + i * bbs, brs, bcs,
            cp + i * cbs, crs, ccs, overwrite);
}

/// The oracle's GEMM (trellis-run --reference): plain loops over strided
/// operands, sharing no code with Eigen or oneDNN. Each row of C is summed
/// in a row buffer, K outermost, so the inner loop runs along B's row and
/// the compiler vectorises it when B's rows are contiguous; `Wide` widens
/// 16-bit floats. Accumulates in T, in K order.
template <typename T, typename In = T>
void referenceGemm(int64_t batch, int64_t m, int64_t n, int64_t k,
                   const In *a, int64_t abs, int64_t ars, int64_t acs,
                   const In *b, int64_t bbs, int64_t brs, int64_t bcs, T *c,
                   int64_t cbs, int64_t crs, int64_t ccs, bool overwrite,
                   T (*read)(In)) {
  constexpr int64_t kBlock = 512; // columns of C per pass: a row in L1
  std::vector<T> row(static_cast<size_t>(std::min(n, kBlock)));
  std::vector<T> bRow(row.size());
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
        int64_t width = std::min(kBlock, n - j0);
        T *cRow = c + p * cbs + i * crs + j0 * ccs;
        for (int64_t j = 0; j < width; ++j)
          row[j] = overwrite ? T(0) : cRow[j * ccs];
        for (int64_t q = 0; q < k; ++q) {
          T x = read(a[p * abs + i * ars + q * acs]);
          const In *bq = b + p * bbs + q * brs + j0 * bcs;
          for (int64_t j = 0; j < width; ++j)
            bRow[j] = read(bq[j * bcs]);
          for (int64_t j = 0; j < width; ++j)
            row[j] += x * bRow[j];
        }
        for (int64_t j = 0; j < width; ++j)
          cRow[j * ccs] = row[j];
      }
}

template <typename T> T same(T v) { return v; }
float readBf16(uint16_t v) { return mlir::trellis::rt::bf16ToFloat(v); }
float readHalf(uint16_t v) { return mlir::trellis::rt::halfToFloat(v); }

/// Whether the calling device runs the oracle's kernels.
bool referenceKernels() {
  mlir::trellis::rt::DeviceContext *device = mlir::trellis::rt::currentDevice();
  return device && device->referenceKernels;
}

template <typename T>
void referenceBatched(int64_t batch, int64_t m, int64_t n, int64_t k,
                      int64_t a, int64_t abs, int64_t ars, int64_t acs,
                      int64_t b, int64_t bbs, int64_t brs, int64_t bcs,
                      int64_t c, int64_t cbs, int64_t crs, int64_t ccs,
                      bool overwrite) {
  referenceGemm<T>(batch, m, n, k, reinterpret_cast<const T *>(a), abs, ars,
                   acs, reinterpret_cast<const T *>(b), bbs, brs, bcs,
                   reinterpret_cast<T *>(c), cbs, crs, ccs, overwrite,
                   &same<T>);
}

/// A 16-bit float (bf16 or f16) read as f32.
float widen(int32_t dtype, uint16_t v) {
  return dtype == TRELLIS_RT_BF16 ? mlir::trellis::rt::bf16ToFloat(v)
                                  : mlir::trellis::rt::halfToFloat(v);
}

/// C (f32) += A * B (or =) for 16-bit A and B: both are read into f32
/// row-major copies and multiplied by the f32 GEMM, so every product and sum
/// is in f32 (docs/Precision.md).
void widenedGemm(int32_t dtype, int64_t m, int64_t n, int64_t k,
                 const uint16_t *a, int64_t ars, int64_t acs, const uint16_t *b,
                 int64_t brs, int64_t bcs, float *c, int64_t crs, int64_t ccs,
                 bool overwrite) {
  // Per-thread scratch kept between calls: fresh multi-megabyte buffers
  // would be new pages, zeroed by the kernel on every call.
  thread_local std::vector<float> wa, wb;
  wa.resize(static_cast<size_t>(m * k));
  wb.resize(static_cast<size_t>(k * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j)
      wa[i * k + j] = widen(dtype, a[i * ars + j * acs]);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      wb[i * n + j] = widen(dtype, b[i * brs + j * bcs]);
  gemm<float>(m, n, k, wa.data(), k, 1, wb.data(), n, 1, c, crs, ccs,
              overwrite);
  // Past 64 MiB the copies are not kept for the next call.
  if (wa.size() + wb.size() > (size_t{1} << 24)) {
    std::vector<float>().swap(wa);
    std::vector<float>().swap(wb);
  }
}

} // namespace

namespace {
/// When a kernel starts: on the calling device's clock when it traces.
double kernelStartUs() {
  mlir::trellis::rt::DeviceContext *device = mlir::trellis::rt::currentDevice();
  return device && device->tracing && !device->replay
             ? mlir::trellis::rt::deviceNowUs(*device)
             : 0;
}

/// Matmuls show up as their own spans within compute.
void recordMatmulSpan(double start) {
  if (mlir::trellis::rt::DeviceContext *device =
          mlir::trellis::rt::currentDevice())
    // A replayed run knows its compute segments' lengths, not where in
    // them its matmuls fall.
    if (device->tracing && !device->replay) {
      double end = mlir::trellis::rt::deviceNowUs(*device);
      if (start > device->lastMarkUs)
        device->events.push_back({"compute", "compute",
                                  device->lastMarkUs - device->originUs,
                                  start - device->lastMarkUs, 0});
      device->events.push_back(
          {"matmul", "compute", start - device->originUs, end - start, 0});
      device->lastMarkUs = end;
    }
}

/// Zeroes a strided m x n result (per batch) of `elem`-byte elements.
void zeroResult(int64_t c, int64_t elem, int64_t batch, int64_t m, int64_t n,
                int64_t batchStride, int64_t rowStride, int64_t colStride) {
  char *base = reinterpret_cast<char *>(c);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i) {
      char *row = base + (b * batchStride + i * rowStride) * elem;
      if (colStride == 1) {
        std::memset(row, 0, n * elem);
        continue;
      }
      for (int64_t j = 0; j < n; ++j)
        std::memset(row + j * colStride * elem, 0, elem);
    }
}

/// The calling device when it has a profile (virtual clock): its matmuls
/// are timed by the profile's roofline, not by their CPU time, and a dry
/// run skips their arithmetic. The compute before the kernel ends here.
mlir::trellis::rt::DeviceContext *beginModelledKernel() {
  mlir::trellis::rt::DeviceContext *device = mlir::trellis::rt::currentDevice();
  if (!device || !device->profile)
    return nullptr;
  mlir::trellis::rt::markComputeEnd(*device);
  return device;
}

/// Advances a profiled device's clock by a matmul's roofline time: A (m x
/// k) and B (k x n) read, C (m x n) written, and read too when accumulated.
void endModelledKernel(mlir::trellis::rt::DeviceContext &device, int32_t dtype,
                       int64_t batch, int64_t m, int64_t n, int64_t k,
                       int64_t outBytes, bool overwrite) {
  double in = double(mlir::trellis::rt::dtypeSize(dtype));
  double flops = 2.0 * batch * m * n * k;
  double bytes = batch * ((double(m) * k + double(k) * n) * in +
                          double(m) * n * outBytes * (overwrite ? 1 : 2));
  mlir::trellis::rt::advanceByKernel(
      device, "matmul", device.profile->matmulUs(dtype, flops, bytes));
}

void runMatmul(int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
               int64_t a, int64_t aBatchStride, int64_t aRowStride,
               int64_t aColStride, int64_t b, int64_t bBatchStride,
               int64_t bRowStride, int64_t bColStride, int64_t c,
               int64_t cBatchStride, int64_t cRowStride, int64_t cColStride,
               bool overwrite) {
  double start = kernelStartUs();
  mlir::trellis::rt::DeviceContext *modelled = beginModelledKernel();
  if (modelled && modelled->dryRun &&
      (dtype == TRELLIS_RT_F32 || dtype == TRELLIS_RT_F64 ||
       dtype == TRELLIS_RT_I32 || dtype == TRELLIS_RT_I64)) {
    // No arithmetic, but a defined result (zeros) for the code that reads
    // it to compute on.
    if (overwrite)
      zeroResult(c, mlir::trellis::rt::dtypeSize(dtype), batch, m, n,
                 cBatchStride, cRowStride, cColStride);
    endModelledKernel(*modelled, dtype, batch, m, n, k,
                      mlir::trellis::rt::dtypeSize(dtype), overwrite);
    return;
  }
  if (referenceKernels()) {
    auto run = dtype == TRELLIS_RT_F32   ? &referenceBatched<float>
               : dtype == TRELLIS_RT_F64 ? &referenceBatched<double>
               : dtype == TRELLIS_RT_I32 ? &referenceBatched<uint32_t>
               : dtype == TRELLIS_RT_I64 ? &referenceBatched<uint64_t>
                                         : nullptr;
    if (run) {
      run(batch, m, n, k, a, aBatchStride, aRowStride, aColStride, b,
          bBatchStride, bRowStride, bColStride, c, cBatchStride, cRowStride,
          cColStride, overwrite);
      return;
    }
  }
  switch (dtype) {
  case TRELLIS_RT_F32:
    batchedGemm<float>(batch, m, n, k, a, aBatchStride, aRowStride, aColStride,
                       b, bBatchStride, bRowStride, bColStride, c, cBatchStride,
                       cRowStride, cColStride, overwrite);
    break;
  case TRELLIS_RT_F64:
    batchedGemm<double>(batch, m, n, k, a, aBatchStride, aRowStride, aColStride,
                        b, bBatchStride, bRowStride, bColStride, c,
                        cBatchStride, cRowStride, cColStride, overwrite);
    break;
  // Integer matmuls wrap like arith.muli/addi: computed on the unsigned
  // type of the same width (same bits in two's complement, no signed
  // overflow, which is undefined behaviour in C++).
  case TRELLIS_RT_I32:
    batchedGemm<uint32_t>(batch, m, n, k, a, aBatchStride, aRowStride,
                          aColStride, b, bBatchStride, bRowStride, bColStride,
                          c, cBatchStride, cRowStride, cColStride, overwrite);
    break;
  case TRELLIS_RT_I64:
    batchedGemm<uint64_t>(batch, m, n, k, a, aBatchStride, aRowStride,
                          aColStride, b, bBatchStride, bRowStride, bColStride,
                          c, cBatchStride, cRowStride, cColStride, overwrite);
    break;
  default:
    std::fprintf(stderr,
                 "trellis runtime: matmul on element type %s is not "
                 "supported\n",
                 mlir::trellis::rt::dtypeName(dtype));
    std::abort();
  }
  if (modelled)
    endModelledKernel(*modelled, dtype, batch, m, n, k,
                      mlir::trellis::rt::dtypeSize(dtype), overwrite);
  else
    recordMatmulSpan(start);
}
} // namespace

extern "C" void trellis_rt_matmul(
    int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
    int64_t aBatchStride, int64_t aRowStride, int64_t aColStride, int64_t b,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, int64_t c,
    int64_t cBatchStride, int64_t cRowStride, int64_t cColStride) {
  runMatmul(dtype, batch, m, n, k, a, aBatchStride, aRowStride, aColStride, b,
            bBatchStride, bRowStride, bColStride, c, cBatchStride, cRowStride,
            cColStride, /*overwrite=*/false);
}

extern "C" void trellis_rt_matmul_overwrite(
    int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
    int64_t aBatchStride, int64_t aRowStride, int64_t aColStride, int64_t b,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, int64_t c,
    int64_t cBatchStride, int64_t cRowStride, int64_t cColStride) {
  runMatmul(dtype, batch, m, n, k, a, aBatchStride, aRowStride, aColStride, b,
            bBatchStride, bRowStride, bColStride, c, cBatchStride, cRowStride,
            cColStride, /*overwrite=*/true);
}

extern "C" void trellis_rt_matmul_widening(
    int32_t dtype, int32_t overwrite, int64_t batch, int64_t m, int64_t n,
    int64_t k, int64_t a, int64_t aBatchStride, int64_t aRowStride,
    int64_t aColStride, int64_t b, int64_t bBatchStride, int64_t bRowStride,
    int64_t bColStride, int64_t c, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride) {
  if (dtype != TRELLIS_RT_BF16 && dtype != TRELLIS_RT_F16) {
    std::fprintf(stderr,
                 "trellis runtime: a widening matmul needs bf16 or f16 "
                 "operands, got %s\n",
                 mlir::trellis::rt::dtypeName(dtype));
    std::abort();
  }
  if (referenceKernels()) {
    referenceGemm<float, uint16_t>(
        batch, m, n, k, reinterpret_cast<const uint16_t *>(a), aBatchStride,
        aRowStride, aColStride, reinterpret_cast<const uint16_t *>(b),
        bBatchStride, bRowStride, bColStride, reinterpret_cast<float *>(c),
        cBatchStride, cRowStride, cColStride, overwrite != 0,
        dtype == TRELLIS_RT_BF16 ? &readBf16 : &readHalf);
    return;
  }
  double start = kernelStartUs();
  mlir::trellis::rt::DeviceContext *modelled = beginModelledKernel();
  if (modelled && modelled->dryRun && overwrite)
    zeroResult(c, sizeof(float), batch, m, n, cBatchStride, cRowStride,
               cColStride);
  for (int64_t i = 0; i < batch && !(modelled && modelled->dryRun); ++i) {
    const uint16_t *ai =
        reinterpret_cast<const uint16_t *>(a) + i * aBatchStride;
    const uint16_t *bi =
        reinterpret_cast<const uint16_t *>(b) + i * bBatchStride;
    float *ci = reinterpret_cast<float *>(c) + i * cBatchStride;
    // bf16 on the CPU's bf16 dot products where oneDNN has a kernel for
    // them; otherwise (f16, small or unsupported shapes) widened to f32.
    if (dtype == TRELLIS_RT_BF16 &&
        mlir::trellis::rt::dnnlBf16Matmul(
            m, n, k, ai, aRowStride, aColStride, bi, bRowStride, bColStride, ci,
            cRowStride, cColStride, overwrite != 0))
      continue;
    widenedGemm(dtype, m, n, k, ai, aRowStride, aColStride, bi, bRowStride,
                bColStride, ci, cRowStride, cColStride, overwrite != 0);
  }
  if (modelled)
    endModelledKernel(*modelled, dtype, batch, m, n, k, sizeof(float),
                      overwrite != 0);
  else
    recordMatmulSpan(start);
}
