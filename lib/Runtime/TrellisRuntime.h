/*===- TrellisRuntime.h - The C ABI that JIT'd device code calls -*- C -*-===*\
|*                                                                            *|
|* This header is the contract between Trellis's lowering (the              *|
|* `spmd-to-runtime` and `trellis-linalg-to-kernels` passes) and the runtime *|
|* library. Changes here must be reflected in the lowering, and any change  *|
|* to a signature or an enum value bumps TRELLIS_RT_ABI_VERSION.             *|
|*                                                                            *|
|* Conventions:                                                               *|
|*  - Buffers are passed as integer addresses (i64) of contiguous, row-major *|
|*    data; strides are in elements.                                          *|
|*  - `site` numbers the collective op in the module; the host registers    *|
|*    each site (op name, source location, ppermute pairs) before running,  *|
|*    so errors and traces can name the op.                                   *|
|*  - `axes` is a packed axis list: one nibble per mesh axis, index + 1,     *|
|*    the first (major) axis in the lowest nibble.                            *|
|*  - Every device of a group must make the same calls in the same order.    *|
|*    A device that does not is reported with the sites involved and the     *|
|*    run stops; these functions then do not return to the caller.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TRELLIS_LIB_RUNTIME_TRELLISRUNTIME_H
#define TRELLIS_LIB_RUNTIME_TRELLISRUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRELLIS_RT_ABI_VERSION 1

/* Element types. */
enum {
  TRELLIS_RT_F32 = 0,
  TRELLIS_RT_F64 = 1,
  TRELLIS_RT_I32 = 2,
  TRELLIS_RT_I64 = 3,
  TRELLIS_RT_BF16 = 4,
  TRELLIS_RT_F16 = 5,
  TRELLIS_RT_I8 = 6,
  TRELLIS_RT_I16 = 7,
  TRELLIS_RT_I1 = 8 /* stored as one byte */
};

/* Reductions. */
enum {
  TRELLIS_RT_SUM = 0,
  TRELLIS_RT_MAX = 1,
  TRELLIS_RT_MIN = 2,
  TRELLIS_RT_MEAN = 3
};

/* The ABI version this library implements. */
int32_t trellis_rt_abi_version(void);

/* out = reduction over the group of `in` (`count` elements each). */
void trellis_rt_all_reduce(int64_t site, int64_t axes, int32_t dtype,
                           int32_t reduction, int64_t in, int64_t out,
                           int64_t count);

/* in is [outer][inner]; out is [outer][n][inner] with block k from the
 * device of rank k (a tiled gather along a dimension, or a stacked one). */
void trellis_rt_all_gather(int64_t site, int64_t axes, int32_t dtype,
                           int64_t in, int64_t out, int64_t outer,
                           int64_t inner);

/* in is [outer][n][inner]; rank r gets out[outer][inner] = reduction over
 * the group of in[:, r, :]. */
void trellis_rt_reduce_scatter(int64_t site, int64_t axes, int32_t dtype,
                               int32_t reduction, int64_t in, int64_t out,
                               int64_t outer, int64_t inner);

/* in is [splitOuter][n][splitInner]; chunk k = in[:, k, :] goes to rank k.
 * out is [concatOuter][n][concatInner] with out[:, j, :] = the chunk from
 * rank j. splitOuter * splitInner == concatOuter * concatInner. */
void trellis_rt_all_to_all(int64_t site, int64_t axes, int32_t dtype,
                           int64_t in, int64_t out, int64_t splitOuter,
                           int64_t splitInner, int64_t concatOuter,
                           int64_t concatInner);

/* Sends `in` along the site's (source, target) pairs; a device no pair
 * targets receives zeros. */
void trellis_rt_ppermute(int64_t site, int64_t axes, int32_t dtype, int64_t in,
                         int64_t out, int64_t count);

/* Asynchronous ppermute, staged: start sends `in` (copied at once, so the
 * caller may reuse it) and returns a handle; wait delivers into `out`. */
int64_t trellis_rt_ppermute_start(int64_t site, int64_t axes, int32_t dtype,
                                  int64_t in, int64_t count);
void trellis_rt_ppermute_wait(int64_t handle, int64_t out);

/* Asynchronous ppermute, direct: the payload goes from `in` straight into
 * the target's `out` (one copy, made by the transfer engine with a link
 * model); until the wait returns the caller keeps `in` alive and unchanged
 * and does not touch `out`. The wait names the start's `in` and `out` again
 * (checked) and `in_alias`, the sent value's own buffer (unused: it keeps
 * the compiler from reusing that buffer before the wait). */
int64_t trellis_rt_ppermute_start_direct(int64_t site, int64_t axes,
                                         int32_t dtype, int64_t in, int64_t out,
                                         int64_t count);
void trellis_rt_ppermute_wait_direct(int64_t handle, int64_t in, int64_t out,
                                     int64_t in_alias);

/* Asynchronous ppermute of a received value: sends what the staged
 * ppermute `handle` delivers to this device, plus `addend` (count elements,
 * copied at once; 0: none), along the site's pairs as soon as it arrives,
 * without the device waiting for it. `keep` != 0: the device waits for
 * `handle` later as well; otherwise the handle is consumed. Returns the new
 * ppermute's handle (staged: wait with trellis_rt_ppermute_wait). */
int64_t trellis_rt_ppermute_forward(int64_t site, int64_t axes, int32_t dtype,
                                    int64_t handle, int64_t addend,
                                    int64_t count, int64_t keep);

/* This device's index in its group along `axes`. */
int64_t trellis_rt_axis_index(int64_t axes);

/* C[b] += A[b] * B[b] for b < batch, A[b] m x k, B[b] k x n, C[b] m x n, each
 * operand given by its address and batch/row/column strides (elements). */
void trellis_rt_matmul(int32_t dtype, int64_t batch, int64_t m, int64_t n,
                       int64_t k, int64_t a, int64_t aBatchStride,
                       int64_t aRowStride, int64_t aColStride, int64_t b,
                       int64_t bBatchStride, int64_t bRowStride,
                       int64_t bColStride, int64_t c, int64_t cBatchStride,
                       int64_t cRowStride, int64_t cColStride);

/* C[b] = A[b] * B[b]: trellis_rt_matmul without reading C's old values (for a
 * C the program had just zeroed). */
void trellis_rt_matmul_overwrite(
    int32_t dtype, int64_t batch, int64_t m, int64_t n, int64_t k, int64_t a,
    int64_t aBatchStride, int64_t aRowStride, int64_t aColStride, int64_t b,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, int64_t c,
    int64_t cBatchStride, int64_t cRowStride, int64_t cColStride);

#ifdef __cplusplus
}
#endif

#endif /* TRELLIS_LIB_RUNTIME_TRELLISRUNTIME_H */
