//===- EraseVariance.cpp - Drop #spmd.vary encodings ----------------------===//

#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/spmd/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDERASEVARIANCE
#include "dialects/spmd/Transforms/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

Type eraseVariance(Type type) {
  if (auto future = dyn_cast<FutureType>(type))
    return FutureType::get(type.getContext(),
                           eraseVariance(future.getValueType()));
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isa_and_nonnull<VaryAttr>(tensor.getEncoding()))
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
}

struct EraseVariancePass
    : spmd::impl::SpmdEraseVarianceBase<EraseVariancePass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      for (OpResult result : op->getResults())
        result.setType(eraseVariance(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(eraseVariance(arg.getType()));
      auto func = dyn_cast<FunctionOpInterface>(op);
      if (func && isa<FunctionType>(func.getFunctionType())) {
        auto inputs =
            llvm::map_to_vector(func.getArgumentTypes(), eraseVariance);
        auto results =
            llvm::map_to_vector(func.getResultTypes(), eraseVariance);
        func.setType(FunctionType::get(op->getContext(), inputs, results));
      }
    });
  }
};

} // namespace
