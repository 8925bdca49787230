//===- consumer-opt.cpp - A compiler embedding Trellis --------------------===//
//
// Shows the one registration surface another compiler calls: Trellis's
// dialects and passes are added to a registry next to the host's own. The
// same binary started as `consumer-run` (a link to it) is trellis-run,
// whose flags exist only in that mode: linking TrellisExecution registers
// none of them.

#include "trellis/Execution/RunMain.h"
#include "trellis/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Path.h"

int main(int argc, char **argv) {
  if (llvm::sys::path::filename(argv[0]) == "consumer-run")
    return mlir::trellis::exec::runMain(argc, argv);
  mlir::trellis::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "An out-of-tree compiler using Trellis\n", registry));
}
