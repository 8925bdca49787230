//===- trellis-lsp-server.cpp - LSP server for Trellis IR -----------------===//
//
// Point an editor's MLIR extension at this binary to get diagnostics from
// Trellis's verifiers, go-to-definition and hovers on `.mlir` files.
//
//===----------------------------------------------------------------------===//

#include "trellis/Import/Registration.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  mlir::trellis::registerImportDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
