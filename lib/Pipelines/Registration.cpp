//===- Registration.cpp - One place that registers all of Trellis ---------===//

#include "lib/Pipelines/Registration.h"

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/spmd/Transforms/Passes.h"
#include "dialects/trellis/IR/TrellisDialect.h"
#include "dialects/trellis/Interfaces/ExternalModels.h"
#include "dialects/trellis/Transforms/Passes.h"
#include "lib/Analysis/Passes.h"
#include "lib/Conversion/Passes.h"
#include "lib/Import/Passes.h"
#include "lib/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::trellis::registerTrellisDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::trellis::TrellisDialect, mlir::spmd::SpmdDialect>();
  registerShardingRuleExternalModels(registry);
}

void mlir::trellis::registerAllDialects(mlir::DialectRegistry &registry) {
  registerTrellisDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

void mlir::trellis::registerTrellisPasses() {
  registerTrellisShardingPasses();
  mlir::spmd::registerSpmdPasses();
  registerTrellisAnalysisPasses();
  registerTrellisConversionPasses();
  registerTrellisImportPasses();
  registerTrellisPipelines();
}

void mlir::trellis::registerAllPasses() {
  registerTrellisPasses();
  mlir::registerAllPasses();
}
