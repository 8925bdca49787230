//===- Registration.cpp - One place that registers all of Trellis ---------===//

#include "lib/Pipelines/Registration.h"

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void trellis::registerTrellisDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::trellis::TrellisDialect, mlir::spmd::SpmdDialect>();
}

void trellis::registerAllDialects(mlir::DialectRegistry &registry) {
  registerTrellisDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void trellis::registerTrellisPasses() {}

void trellis::registerAllPasses() {
  registerTrellisPasses();
  mlir::registerAllPasses();
}
