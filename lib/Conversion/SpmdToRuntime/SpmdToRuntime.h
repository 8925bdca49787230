//===- SpmdToRuntime.h - Collectives to runtime call patterns ---*- C++ -*-===//
//
// The rewrite patterns of spmd-to-runtime, one per spmd op, for a compiler
// that lowers device functions its own way: each turns the op into calls of
// include/trellis/Runtime/TrellisRuntimeABI.def on buffers of its tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_CONVERSION_SPMDTORUNTIME_SPMDTORUNTIME_H
#define TRELLIS_LIB_CONVERSION_SPMDTORUNTIME_SPMDTORUNTIME_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trellis {

/// What the patterns share while lowering one module.
struct SpmdToRuntimeState {
  explicit SpmdToRuntimeState(ModuleOp module, bool asyncPpermute)
      : module(module), asyncPpermute(asyncPpermute) {}

  ModuleOp module;
  /// Lower spmd.ppermute as a direct start and wait.
  bool asyncPpermute;
  /// The site table (spmd.sites): per runtime call site, its op, location
  /// and ppermute pairs.
  SmallVector<Attribute> sites;
  /// A direct ppermute started but not yet waited for, by its wait: the
  /// buffers the wait names again, and the sent tensor.
  struct DirectPermute {
    Value in, out, sent;
  };
  DenseMap<Operation *, DirectPermute> directWaits;
  /// Set when a pattern reported an error at its op.
  bool failed = false;

  /// Registers a site and returns its number.
  int64_t addSite(Operation *op, ArrayRef<int64_t> pairs = {});
};

/// Adds one pattern per spmd op of device functions (every collective,
/// pvary, the axis queries, the halves of asynchronous ppermutes). A
/// pattern that cannot lower its op (not in a device function, a dynamic
/// shape, an element type or axis the runtime cannot address) reports a
/// located error and sets `state.failed`.
void populateSpmdToRuntimePatterns(RewritePatternSet &patterns,
                                   SpmdToRuntimeState &state);

} // namespace mlir::trellis

#endif // TRELLIS_LIB_CONVERSION_SPMDTORUNTIME_SPMDTORUNTIME_H
