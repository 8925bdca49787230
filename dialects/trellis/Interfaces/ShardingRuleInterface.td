//===- ShardingRuleInterface.td - Ops that have a sharding rule -*- tablegen -*-===//

#ifndef TRELLIS_SHARDING_RULE_INTERFACE_TD
#define TRELLIS_SHARDING_RULE_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Trellis_ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::mlir::trellis";
  let description = [{
    An op that describes how its operand and result dimensions relate, as a
    factor-based ShardingRule (see ShardingRule.h). Explicit sharding
    inference (`trellis-infer-shardings`), auto propagation and the
    partitioner all read shardings through this one interface. Upstream ops
    get it from external models (registerShardingRuleExternalModels):
    elementwise arith and math ops, every structured linalg op (from its
    indexing maps and iterator types), and tensor.empty, extract_slice,
    insert_slice, concat, pad, expand_shape and collapse_shape.

    The partitioner (`trellis-partition`) also asks the op to build itself
    on the local (per-device) blocks once it has chosen how its factors
    are split (`buildLocalOp`, like upstream's `ShardingInterface::partition`).
  }];
  let methods = [
    InterfaceMethod<"The op's sharding rule, or failure if it has none "
                    "for these operand types (e.g. dynamic shapes).",
      "::mlir::FailureOr<::mlir::trellis::ShardingRule>", "getShardingRule">,
    InterfaceMethod<[{
        The op emitted at `builder`'s insertion point on the local blocks
        `localOperands` (one per operand, in the layouts the rule gives
        the factors `split`), with local result types `localResultTypes`:
        its local results, or failure when it cannot be built so (the
        partitioner then reports the op). `mapping` holds the local values
        of the global values the op uses that are not its operands (those
        its regions capture). By default the op is cloned on the local
        operands and given the local result types; ops whose attributes
        hold sizes are rebuilt instead.
      }],
      "::mlir::FailureOr<::llvm::SmallVector<::mlir::Value>>", "buildLocalOp",
      (ins "::mlir::ValueRange":$localOperands,
           "::mlir::TypeRange":$localResultTypes,
           "const ::mlir::trellis::FactorSplit &":$split,
           "::mlir::IRMapping &":$mapping,
           "::mlir::OpBuilder &":$builder),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::llvm::to_vector_of<::mlir::Value>(
            ::mlir::trellis::cloneOnLocal(builder, $_op.getOperation(),
                                          localOperands, localResultTypes,
                                          mapping)->getResults());
      }]>,
  ];
}

#endif // TRELLIS_SHARDING_RULE_INTERFACE_TD
