//===- Registration.cpp - Register the import-only dialects ---------------===//

#include "trellis/Import/Registration.h"
#include "lib/Import/ImportDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void mlir::trellis::registerImportDialects(DialectRegistry &registry) {
  registry.insert<hlo::HloDialect, chlo::ChloDialect, sdy::SdyDialect>();
}

bool mlir::trellis::needsStableHLOImport(ModuleOp module) {
  auto isImportAttr = [](NamedAttribute attr) {
    StringRef name = attr.getName().getValue();
    return name.starts_with("sdy.") || name.starts_with("mhlo.");
  };
  bool found = llvm::any_of(module->getAttrs(), isImportAttr);
  module.walk([&](Operation *op) {
    if (found)
      return WalkResult::interrupt();
    if (isa_and_nonnull<hlo::HloDialect, chlo::ChloDialect, sdy::SdyDialect>(
            op->getDialect()) ||
        llvm::any_of(op->getAttrs(), isImportAttr))
      found = true;
    return WalkResult::advance();
  });
  return found;
}
