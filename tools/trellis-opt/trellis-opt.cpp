//===- trellis-opt.cpp - The Trellis optimizer driver ---------------------===//

#include "trellis/Import/Registration.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::trellis::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  // trellis-opt reads what JAX prints: --trellis-import-stablehlo.
  mlir::trellis::registerImportDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Trellis optimizer driver\n", registry));
}
