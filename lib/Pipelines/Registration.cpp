//===- Registration.cpp - One place that registers all of Trellis ---------===//

#include "trellis/Pipelines/Registration.h"

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisDialect.h"
#include "dialects/trellis/Interfaces/ExternalModels.h"
#include "trellis/Analysis/Passes.h"
#include "trellis/Autodiff/DerivativeOpInterface.h"
#include "trellis/Autodiff/Passes.h"
#include "trellis/Conversion/Passes.h"
#include "trellis/Import/Passes.h"
#include "trellis/Pipelines/Pipelines.h"
#include "trellis/Transforms/Spmd/Passes.h"
#include "trellis/Transforms/Spmd/TransposeOpInterfaceImpl.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::trellis::registerTrellisDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::trellis::TrellisDialect, mlir::spmd::SpmdDialect>();
  registerShardingRuleExternalModels(registry);
  spmd::registerTransposeOpInterfaceExternalModels(registry);
  registerDerivativeOpInterfaceExternalModels(registry);
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
  registerTrellisAutodiffPasses();
  registerTrellisConversionPasses();
  registerTrellisImportPasses();
  registerTrellisPipelines();
}

void mlir::trellis::registerAllPasses() {
  registerTrellisPasses();
  mlir::registerAllPasses();
}
