//===- trellis-opt.cpp - The Trellis optimizer driver ---------------------===//

#include "lib/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::trellis::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Trellis optimizer driver\n", registry));
}
