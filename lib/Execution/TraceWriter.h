//===- TraceWriter.h - Chrome trace files of a run --------------*- C++ -*-===//
//
// Writes the events a Session collected (Session::traces, plain data) as
// Chrome/Perfetto trace JSON, which chrome://tracing, Perfetto and
// scripts/render-trace.py read.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_TRACEWRITER_H
#define TRELLIS_LIB_EXECUTION_TRACEWRITER_H

#include "trellis/Runtime/Runtime.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::trellis::exec {

/// Writes `events` (per device id) to `path`: per device its own track
/// (compute, collectives, waits), then as many transfer tracks as it has
/// payloads in flight at once. Fails when the file cannot be written.
llvm::Error
writeChromeTrace(const std::string &path, const rt::MeshShape &mesh,
                 const std::vector<std::vector<rt::TraceEvent>> &events);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_TRACEWRITER_H
