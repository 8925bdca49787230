//===- Communicator.cpp - What every communicator shares ------------------===//

#include "trellis/Runtime/Runtime.h"

#include <string>

using namespace mlir::trellis::rt;

Communicator::~Communicator() = default;

PendingCollective::~PendingCollective() = default;

TraceEvent mlir::trellis::rt::transferEvent(const TransferTiming &timing,
                                            double originUs, int64_t bytes) {
  TraceEvent transfer;
  transfer.name = "ppermute to device " + std::to_string(timing.targetDevice);
  transfer.category = "transfer";
  transfer.startUs = timing.sendUs - originUs;
  transfer.durUs = timing.arriveUs - timing.sendUs;
  transfer.bytes = bytes;
  transfer.peer = timing.targetDevice;
  return transfer;
}
