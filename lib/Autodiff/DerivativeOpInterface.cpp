//===- DerivativeOpInterface.cpp - How an op differentiates ---------------===//

#include "trellis/Autodiff/DerivativeOpInterface.h"

#include "lib/Autodiff/Linearizer.h"

#include "trellis/Autodiff/DerivativeOpInterface.cpp.inc"

void mlir::trellis::registerDerivativeOpInterfaceExternalModels(
    DialectRegistry &registry) {
  autodiff::registerElementwiseDerivativeModels(registry);
  autodiff::registerLinalgDerivativeModels(registry);
}
