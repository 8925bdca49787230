//===- CollectiveKernels.h - Local data movement of collectives -*- C++ -*-===//
//
// The per-device halves of collectives, written once for every
// communicator: given the buffers of all group members (shared memory) or
// received chunks (MPI), compute this device's output.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_COLLECTIVEKERNELS_H
#define TRELLIS_LIB_RUNTIME_COLLECTIVEKERNELS_H

#include <cstdint>
#include <vector>

namespace mlir::trellis::rt {

/// Whether `reduction` is supported for `dtype` by reduceBlocks.
bool canReduce(int32_t dtype, int32_t reduction);

/// out[e] = reduction over k of inputs[k][offset + e] for e < count; MEAN
/// divides by inputs.size(). `out` may alias none of the inputs.
void reduceBlocks(int32_t dtype, int32_t reduction,
                  const std::vector<const void *> &inputs, int64_t offset,
                  int64_t count, void *out);

/// reduceBlocks storing the same `count` results into each of `outs`, at
/// the inputs' `offset` (outs[j][offset + e]), strip by strip while the
/// strip is in registers. An output may be one of the inputs (every strip
/// is read before it is stored).
void reduceBlocksInto(int32_t dtype, int32_t reduction,
                      const std::vector<const void *> &inputs, int64_t offset,
                      int64_t count, const std::vector<void *> &outs);

/// Copies `count` elements of `elemBytes` from a [outerA][nA][innerA] view
/// (block `blockA`) to a [outerB][nB][innerB] view (block `blockB`); the
/// chunk is row-major with outerA * innerA == outerB * innerB == count.
void copyChunk(int64_t elemBytes, const char *src, int64_t srcInner,
               int64_t srcBlocks, int64_t srcBlock, char *dst, int64_t dstInner,
               int64_t dstBlocks, int64_t dstBlock, int64_t count);

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_COLLECTIVEKERNELS_H
