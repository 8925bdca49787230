//===- EraseMeshes.cpp - Drop mesh declarations before LLVM IR ------------===//

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "trellis/Conversion/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::trellis {
#define GEN_PASS_DEF_TRELLISERASEMESHES
#include "trellis/Conversion/Passes.h.inc"
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
      // Argument and result attributes of Trellis's (trellis.name,
      // trellis.sharding) mean nothing to LLVM, which warns about each.
      if (auto func = dyn_cast<FunctionOpInterface>(op)) {
        auto strip = [](DictionaryAttr attrs) {
          if (!attrs)
            return attrs;
          SmallVector<NamedAttribute> kept;
          for (NamedAttribute attr : attrs)
            if (!attr.getName().getValue().starts_with("trellis."))
              kept.push_back(attr);
          return DictionaryAttr::get(attrs.getContext(), kept);
        };
        for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
          func.setArgAttrs(i, strip(func.getArgAttrDict(i)));
        for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
          func.setResultAttrs(i, strip(func.getResultAttrDict(i)));
      }
    }
  }
};
} // namespace
