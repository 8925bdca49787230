//===- EraseMeshes.cpp - Drop mesh declarations before LLVM IR ------------===//

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "lib/Conversion/Passes.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISERASEMESHES
#include "lib/Conversion/Passes.h.inc"
} // namespace mlir::trellis

using namespace mlir;

namespace {
struct EraseMeshesPass
    : mlir::trellis::impl::TrellisEraseMeshesBase<EraseMeshesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto mesh :
         llvm::make_early_inc_range(module.getOps<trellis::MeshOp>()))
      mesh.erase();
    for (Operation &op : module.getBody()->getOperations()) {
      op.removeAttr(spmd::SpmdDialect::kMeshAttrName);
      op.removeAttr(spmd::SpmdDialect::kManualAxesAttrName);
    }
  }
};
} // namespace
