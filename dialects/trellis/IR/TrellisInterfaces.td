//===- TrellisInterfaces.td - Ops that change axis types -----*- tablegen -*-===//

#ifndef TRELLIS_INTERFACES_TD
#define TRELLIS_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Trellis_AxisTypeRegionInterface : OpInterface<"AxisTypeRegionInterface"> {
  let cppNamespace = "::mlir::trellis";
  let description = [{
    An op whose regions see some axes of a mesh with a different type than
    its surroundings: `trellis.auto_axes` (explicit → auto),
    `trellis.explicit_axes` (auto → explicit) and `spmd.shard_map` (→ manual).
    The type of a mesh axis at any point of a program is found by walking up
    through the ops that implement this interface.
  }];
  let methods = [
    InterfaceMethod<"The mesh whose axes the region switches.",
      "::mlir::FlatSymbolRefAttr", "getSwitchedMesh">,
    InterfaceMethod<[{
        The type `axis` has inside the regions, or std::nullopt when the op
        leaves that axis as it is outside.
      }],
      "std::optional<::mlir::trellis::AxisType>", "getAxisTypeInside",
      (ins "::llvm::StringRef":$axis)>,
  ];
}

#endif // TRELLIS_INTERFACES_TD
