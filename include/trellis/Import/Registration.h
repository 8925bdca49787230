//===- Registration.h - Register the import-only dialects -------*- C++ -*-===//

#ifndef TRELLIS_IMPORT_REGISTRATION_H
#define TRELLIS_IMPORT_REGISTRATION_H

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace mlir::trellis {

/// Registers the import-only `stablehlo`, `chlo` and `sdy` subsets. Only
/// Trellis's own tools call this: the dialects share names with the real
/// StableHLO and Shardy, so a compiler that links both must not get them
/// from `registerAllDialects`.
void registerImportDialects(DialectRegistry &registry);

/// Whether `module` holds anything `trellis-import-stablehlo` converts:
/// an op of the import dialects, or a Shardy/GSPMD sharding attribute.
bool needsStableHLOImport(ModuleOp module);

} // namespace mlir::trellis

#endif // TRELLIS_IMPORT_REGISTRATION_H
