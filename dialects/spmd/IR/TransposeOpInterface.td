//===- TransposeOpInterface.td - How an op transposes ------*- tablegen -*-===//
//
// spmd-transpose asks each linear op for its transpose through this
// interface; the rules of the upstream ops it handles (arith, linalg,
// tensor) are external models (lib/Transforms/Spmd).
//
//===----------------------------------------------------------------------===//

#ifndef SPMD_TRANSPOSE_OP_INTERFACE_TD
#define SPMD_TRANSPOSE_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Spmd_TransposeOpInterface : OpInterface<"TransposeOpInterface"> {
  let cppNamespace = "::mlir::spmd";
  let description = [{
    An op that is linear in its linear operands (those `state` says are)
    and knows its transpose: given `cotangent`, the cotangent of its
    (first) result, it builds with `b` the contributions to the cotangents
    of its linear operands and adds them to `state`. It fails, with an
    error located at the op, where it is not linear (two linear factors, a
    non-zero non-linear addend) or its rule does not apply.
  }];
  let methods = [
    InterfaceMethod<
      "Adds the transposed contributions of `cotangent` to `state`.",
      "::llvm::LogicalResult", "transpose",
      (ins "::mlir::spmd::TransposeState &":$state,
           "::mlir::Value":$cotangent, "::mlir::OpBuilder &":$b)>,
  ];
}

#endif // SPMD_TRANSPOSE_OP_INTERFACE_TD
