//===- TrellisDialect.td - The global-view sharding dialect --*- tablegen -*-===//
//
// The `trellis` dialect describes programs in the global view: meshes of
// devices with named axes, shardings of tensors over those axes (as type
// encodings in explicit mode, as discardable attributes in auto mode), and
// the region ops that switch the type of mesh axes.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_DIALECT_TD
#define TRELLIS_DIALECT_TD

include "mlir/IR/OpBase.td"

def Trellis_Dialect : Dialect {
  let name = "trellis";
  let cppNamespace = "::mlir::trellis";
  let summary = "Global-view sharding: meshes, shardings, axis types";
  let description = [{
    The `trellis` dialect holds the global view of a multi-device program.

    * `trellis.mesh` declares a named arrangement of devices, for example
      `trellis.mesh @mesh = <["X"=2, "Y"=4], types = [explicit, explicit]>`.
      Each axis has a type: `auto` (the compiler chooses shardings),
      `explicit` (shardings are part of tensor types) or `manual` (per-device
      code inside `spmd.shard_map`).
    * `#trellis.sharding<@mesh, [{"X"}, {}] # "}]" # [{>` describes how each dimension of
      a tensor is split over mesh axes. As a tensor encoding it is JAX's
      "sharding in types": `tensor<4x2xi32, #trellis.sharding<@mesh,
      [{"X"}, {}] # "}]" # [{>>` is JAX's `i32[4@X,2]`. As a discardable attribute
      (`trellis.sharding`) it is an auto-mode annotation.
    * `trellis.reshard`, `trellis.sharding_constraint`, `trellis.auto_axes`
      and `trellis.explicit_axes` change shardings and axis types.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes (defined beside their storage classes).
    void registerAttributes();

    /// Name of the discardable attribute that carries an auto-mode sharding on
    /// function arguments/results and on op results.
    static constexpr ::llvm::StringLiteral kShardingAttrName = "trellis.sharding";
    /// Name of the attribute on an op with one region (a partially-manual
    /// shard_map) holding the shardings of the region's arguments, one per
    /// argument, as trellis-propagate found them.
    static constexpr ::llvm::StringLiteral kArgShardingsAttrName =
        "trellis.arg_shardings";
    /// Name of a function argument, for `trellis-run --input NAME=FILE`.
    static constexpr ::llvm::StringLiteral kNameAttrName = "trellis.name";
    /// Marks a function for trellis-grad: a unit attribute, or the array of
    /// argument indices to differentiate with respect to.
    static constexpr ::llvm::StringLiteral kGradAttrName = "trellis.grad";
    /// A sharding rule the user declares for an op (one Trellis has no rule
    /// for, or whose rule it overrides): `"ij,jk->ik; reduce sum"`, see
    /// ShardingRule.h's parseDeclaredRule.
    static constexpr ::llvm::StringLiteral kRuleAttrName = "trellis.rule";
    /// Where propagation found a value's sharding, in words (a string, or
    /// an array of strings for an op with several results); written by
    /// `trellis-propagate{explain}`.
    static constexpr ::llvm::StringLiteral kShardingOriginAttrName =
        "trellis.sharding_origin";
    /// Module attribute: the TRELLIS_RT_ABI_VERSION (an i32) that the
    /// module's calls into the runtime were lowered for.
    static constexpr ::llvm::StringLiteral kRuntimeABIVersionAttrName =
        "trellis.rt_abi_version";
  }];
}

class Trellis_Op<string mnemonic, list<Trait> traits = []>
    : Op<Trellis_Dialect, mnemonic, traits>;

#endif // TRELLIS_DIALECT_TD
