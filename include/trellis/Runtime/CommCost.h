//===- CommCost.h - What a ring collective moves ----------------*- C++ -*-===//
//
// The one model of a collective's communication, shared by the comm report
// (the spmd collectives' getBytesSentPerDevice), the partitioner's choice
// between plans (reshardBytes) and the runtime's link model (ModelledLinks):
// every collective runs as a ring algorithm over its group of n devices.
// Plain C++ without dependencies, so that the runtime, which must not depend
// on MLIR, and the compiler include the same formulas.
//
// A collective's buffer is the whole array it works on, as one device sees
// it: the operand of an all-reduce, a reduce-scatter, an all-to-all or a
// ppermute, and the gathered result of an all-gather (n operands).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_RUNTIME_COMMCOST_H
#define TRELLIS_RUNTIME_COMMCOST_H

#include <cstdint>

namespace mlir::trellis::rt {

/// How a ring algorithm runs a collective over a group of devices: `steps`
/// transfers one after another, each of 1/`chunks` of the buffer.
struct RingSchedule {
  int64_t steps = 0;
  int64_t chunks = 1;

  /// Bytes of one transfer.
  double stepBytes(double bufferBytes) const { return bufferBytes / chunks; }
};

/// An all-reduce over n devices is a reduce-scatter then an all-gather:
/// 2(n-1) transfers of 1/n of the buffer.
constexpr RingSchedule allReduceSchedule(int64_t n) { return {2 * (n - 1), n}; }

/// An all-gather, a reduce-scatter or an all-to-all over n devices: n-1
/// transfers of 1/n of the buffer; each device keeps its own n-th.
constexpr RingSchedule ringShareSchedule(int64_t n) { return {n - 1, n}; }

/// A ppermute sends its buffer in one transfer.
constexpr RingSchedule permuteSchedule() { return {1, 1}; }

/// Bytes one device sends in an all-reduce of `bufferBytes` over n devices:
/// 2(n-1)/n of the buffer, rounded down.
constexpr int64_t allReduceBytes(int64_t bufferBytes, int64_t n) {
  RingSchedule ring = allReduceSchedule(n);
  return bufferBytes * ring.steps / ring.chunks;
}

/// Bytes one device sends (and receives) in an all-gather, a reduce-scatter
/// or an all-to-all of `bufferBytes` over n devices: every chunk but its own,
/// (n-1)/n of the buffer. Exact when n divides the buffer, as it does for
/// verified collectives; otherwise the own chunk is rounded down.
constexpr int64_t ringShareBytes(int64_t bufferBytes, int64_t n) {
  RingSchedule ring = ringShareSchedule(n);
  return bufferBytes - bufferBytes / ring.chunks;
}

/// Bytes one device sends in a ppermute of `bufferBytes`: all of it when
/// some pair moves data, nothing when every pair is a self-pair.
constexpr int64_t permuteBytes(int64_t bufferBytes, bool moves) {
  return moves ? bufferBytes : 0;
}

} // namespace mlir::trellis::rt

#endif // TRELLIS_RUNTIME_COMMCOST_H
