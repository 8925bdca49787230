//===- CollectiveOpInterface.td - What a collective means ----*- tablegen -*-===//
//
// Every spmd op that works across the devices of groups along mesh axes
// (reductions, gathers, scatters, all_to_all, the ppermutes, pvary and the
// axis queries) answers these questions; passes ask them instead of
// switching over op types.
//
//===----------------------------------------------------------------------===//

#ifndef SPMD_COLLECTIVE_OP_INTERFACE_TD
#define SPMD_COLLECTIVE_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Spmd_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::mlir::spmd";
  let description = [{
    An op over the groups of devices along its mesh axes (`axes`): the
    group size, seed 001's variance rule, the elementwise reduction it
    performs if any, the bytes each device sends, and its transpose.
  }];
  let methods = [
    InterfaceMethod<
      "The mesh axes the op works over, in its order (major first).",
      "::llvm::SmallVector<::mlir::StringAttr>", "getAxisList", (ins), [{}],
      [{
        return ::llvm::to_vector(
            $_op.getAxes().template getAsRange<::mlir::StringAttr>());
      }]>,
    InterfaceMethod<
      "The group size: the product of the sizes of the op's axes (1 where "
      "they are not manual, so before the verifier has rejected that).",
      "int64_t", "getGroupSize", (ins), [{}],
      [{
        return ::mlir::spmd::detail::groupSizeOf($_op.getOperation(),
                                                 $_op.getAxisList());
      }]>,
    InterfaceMethod<
      "Seed 001's typing rule, or none for ops that are not typed (the "
      "halves of an asynchronous ppermute).",
      "std::optional<::mlir::spmd::VarianceRule>", "getVarianceRule">,
    InterfaceMethod<
      "The elementwise reduction the op performs, if any.",
      "std::optional<::mlir::spmd::ReductionKind>", "getReduction", (ins),
      [{}], [{ return std::nullopt; }]>,
    InterfaceMethod<
      "Whether the op moves data between devices (pvary, pscatter and the "
      "axis queries do not).",
      "bool", "communicates", (ins), [{}],
      [{ return !::mlir::isPure($_op.getOperation()); }]>,
    InterfaceMethod<
      "Bytes each device sends, by the ring formulas for reductions, "
      "gathers, scatters and all_to_all (docs/Design.md); -1 for a "
      "dynamic shape; 0 for ops that do not communicate.",
      "int64_t", "getBytesSentPerDevice", (ins), [{}], [{ return 0; }]>,
    InterfaceMethod<
      "Builds the transpose of the op applied to `cotangent` (the "
      "cotangent of its result) at `b`'s insertion point and returns the "
      "cotangent of its operand, of type `type` (the operand's type "
      "without variance). `naive` reproduces the transposition JAX used "
      "before variance types. Emits an error and fails for ops that are "
      "not linear or have no rule.",
      "::mlir::FailureOr<::mlir::Value>", "buildTranspose",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Value":$cotangent,
           "::mlir::Type":$type, "bool":$naive), [{}],
      [{
        return $_op->emitOpError(
            "uses linear values, but spmd-transpose has no rule to "
            "transpose it");
      }]>,
  ];
}

#endif // SPMD_COLLECTIVE_OP_INTERFACE_TD
