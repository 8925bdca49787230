//===- consumer-opt.cpp - A compiler embedding Trellis --------------------===//
//
// Shows the one registration surface another compiler calls: Trellis's
// dialects and passes are added to a registry next to the host's own.

#include "lib/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::trellis::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "An out-of-tree compiler using Trellis\n", registry));
}
