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
  }];
  let methods = [
    InterfaceMethod<"The op's sharding rule, or failure if it has none "
                    "for these operand types (e.g. dynamic shapes).",
      "::mlir::FailureOr<::mlir::trellis::ShardingRule>", "getShardingRule">,
  ];
}

#endif // TRELLIS_SHARDING_RULE_INTERFACE_TD
