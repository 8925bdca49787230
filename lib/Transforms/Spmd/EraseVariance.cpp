//===- EraseVariance.cpp - Drop #spmd.vary encodings ----------------------===//

#include "dialects/spmd/IR/SpmdDialect.h"
#include "trellis/Transforms/Spmd/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::spmd {
#define GEN_PASS_DEF_SPMDERASEVARIANCE
#include "trellis/Transforms/Spmd/Passes.h.inc"
} // namespace mlir::spmd

using namespace mlir;
using namespace mlir::spmd;

namespace {

struct EraseVariancePass
    : spmd::impl::SpmdEraseVarianceBase<EraseVariancePass> {
  void runOnOperation() override {
    // Types appear in results, block arguments and attributes (function
    // types, the values of tensor constants): replace them everywhere.
    AttrTypeReplacer replacer;
    replacer.addReplacement([](RankedTensorType type) -> std::optional<Type> {
      if (!isa_and_nonnull<VaryAttr>(type.getEncoding()))
        return std::nullopt;
      return RankedTensorType::get(type.getShape(), type.getElementType());
    });
    // Dense constants do not expose their type as a sub-element.
    replacer.addReplacement(
        [](DenseElementsAttr attr) -> std::optional<Attribute> {
          auto type = dyn_cast<RankedTensorType>(attr.getType());
          if (!type || !isa_and_nonnull<VaryAttr>(type.getEncoding()))
            return std::nullopt;
          return attr.reshape(
              RankedTensorType::get(type.getShape(), type.getElementType()));
        });
    replacer.recursivelyReplaceElementsIn(getOperation(),
                                          /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
    // Inherent attributes live in properties, which the replacer skips.
    WalkResult result = getOperation()->walk([&](Operation *op) {
      Attribute props = op->getPropertiesAsAttribute();
      if (!props)
        return WalkResult::advance();
      Attribute replaced = replacer.replace(props);
      if (replaced == props)
        return WalkResult::advance();
      if (failed(op->setPropertiesFromAttribute(
              replaced, [&] { return op->emitOpError(); })))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
