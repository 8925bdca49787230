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

#ifndef TRELLIS_RUNTIME_TRELLISRUNTIME_H
#define TRELLIS_RUNTIME_TRELLISRUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRELLIS_RT_ABI_VERSION 5

/* `axes` arguments pack one mesh axis a nibble (index + 1, 0 ends the
 * list), so a list names at most this many axes, each among a mesh's first
 * this many; the lowering rejects programs that would need more. */
#define TRELLIS_RT_MAX_PACKED_AXES 15

/* Element types (TrellisDtypes.def: F32 = 0, F64, I32, I64, BF16, F16, I8,
 * I16, I1 = 8, stored as one byte). */
enum {
#define TRELLIS_RT_DTYPE(NAME, VALUE, MLIR, BYTES, IS_FLOAT, NUMPY, NPY_DESCR) \
  TRELLIS_RT_##NAME = VALUE,
#include "trellis/Runtime/TrellisDtypes.def"
};

/* Reductions. */
enum {
  TRELLIS_RT_SUM = 0,
  TRELLIS_RT_MAX = 1,
  TRELLIS_RT_MIN = 2,
  TRELLIS_RT_MEAN = 3
};

/* Kinds of asynchronous collectives (trellis_rt_collective_start; since
 * version 5). */
enum {
  TRELLIS_RT_ALL_REDUCE = 0,
  TRELLIS_RT_ALL_GATHER = 1,
  TRELLIS_RT_REDUCE_SCATTER = 2,
  TRELLIS_RT_ALL_TO_ALL = 3
};

/* The ABI version this library implements (the host checks it against the
 * version a lowered module was built for; device code does not call it). */
int32_t trellis_rt_abi_version(void);

/* The entry points lowered device code calls, one declaration per
 * TRELLIS_RT_FUNC entry of TrellisRuntimeABI.def (which documents each). */
#define TRELLIS_RT_RESULT_void void
#define TRELLIS_RT_RESULT_i32 int32_t
#define TRELLIS_RT_RESULT_i64 int64_t
#define ARG_I32(name) int32_t name
#define ARG_I64(name) int64_t name
#define TRELLIS_RT_FUNC(RESULT, NAME, PARAMS)                                  \
  TRELLIS_RT_RESULT_##RESULT trellis_rt_##NAME PARAMS;
#include "trellis/Runtime/TrellisRuntimeABI.def"

/* Heap buffers of lowered code: the generic allocation functions of the
 * upstream memref-to-LLVM lowering (`use-generic-functions`). Within a
 * device's run the runtime records each live buffer, so that a run that
 * stops on an error, and so never reaches the code's deallocations, frees
 * them. Outside a device they are malloc and free. (Since version 2.) */
void *_mlir_memref_to_llvm_alloc(uint64_t size);
void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size);
void _mlir_memref_to_llvm_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* TRELLIS_RUNTIME_TRELLISRUNTIME_H */
