//===- DerivativeOpInterface.td - How an op differentiates -*- tablegen -*-===//
//
// trellis-grad asks each op for its derivative through this interface: the
// forward-mode rule (the tangent of its results from the tangents of its
// operands), which spmd-transpose then turns into the reverse-mode rule. The
// rules of the upstream ops (arith, math, linalg, tensor) are external
// models (lib/Autodiff).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_AUTODIFF_DERIVATIVE_OP_INTERFACE_TD
#define TRELLIS_AUTODIFF_DERIVATIVE_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Trellis_DerivativeOpInterface : OpInterface<"DerivativeOpInterface"> {
  let cppNamespace = "::mlir::trellis";
  let description = [{
    An op that knows its derivative. `jvp` builds with `b`, after the copy
    of the op in the new program, the tangents of its results from the
    tangents of its operands (`state`), as ops that are linear in those
    tangents, so that the linearized program can be transposed.

    Elementwise ops (on scalars or on tensors alike) also answer
    `buildTangent`: the tangent of their result from their (new) operands,
    their operands' tangents (null for zero) and their (new) result. It
    builds only elementwise ops, so `linalg.generic` bodies are
    differentiated with it too.
  }];
  let methods = [
    InterfaceMethod<
      "Builds the tangents of the results and records them in `state`.",
      "::llvm::LogicalResult", "jvp",
      (ins "::mlir::trellis::JvpState &":$state, "::mlir::OpBuilder &":$b)>,
    InterfaceMethod<
      "Elementwise ops: the tangent of the result (null: zero); other ops "
      "fail.",
      "::mlir::FailureOr<::mlir::Value>", "buildTangent",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands,
           "::mlir::ValueRange":$tangents, "::mlir::Value":$result)>,
  ];
}

#endif // TRELLIS_AUTODIFF_DERIVATIVE_OP_INTERFACE_TD
