//===- Registration.h - One place that registers all of Trellis -*- C++ -*-===//
//
// Tools (trellis-opt, trellis-run, trellis-lsp-server) and compilers that
// embed Trellis call these instead of listing dialects and passes one by one.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_PIPELINES_REGISTRATION_H
#define TRELLIS_PIPELINES_REGISTRATION_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::trellis {

/// Registers the `trellis` and `spmd` dialects and the external models
/// (sharding rules, transposes, bufferization of collectives) they attach to
/// upstream dialects.
void registerTrellisDialects(mlir::DialectRegistry &registry);

/// Registers Trellis's dialects plus every upstream dialect and extension.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers Trellis's passes and named pipelines.
void registerTrellisPasses();

/// Registers Trellis's passes and pipelines plus every upstream pass.
void registerAllPasses();

} // namespace mlir::trellis

#endif // TRELLIS_PIPELINES_REGISTRATION_H
