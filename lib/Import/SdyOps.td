//===- SdyOps.td - The Shardy subset the importer reads -----*- tablegen -*-===//
//
// Written from Shardy's public documentation: meshes, tensor shardings and
// the ops JAX prints around them (constraints, reshards, manual
// computations). Import-only, like StablehloOps.td: the importer turns them
// into `trellis.mesh`, `trellis.sharding` and `spmd.shard_map`.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_IMPORT_SDY_OPS_TD
#define TRELLIS_IMPORT_SDY_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sdy_Dialect : Dialect {
  let name = "sdy";
  let cppNamespace = "::mlir::trellis::sdy";
  let summary = "Import-only subset of Shardy";
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

class Sdy_Attr<string name, string attrMnemonic>
    : AttrDef<Sdy_Dialect, name> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
}

def Sdy_MeshAttr : Sdy_Attr<"Mesh", "mesh"> {
  let summary = "Named axes with sizes, and optionally the device order";
  let description = [{
    `<["x"=2, "y"=4]>`, or `<["x"=2], device_ids=[1, 0]>` when the devices
    are not numbered in row-major order.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::StringAttr">:$axisNames,
    OptionalArrayRefParameter<"int64_t">:$axisSizes,
    OptionalArrayRefParameter<"int64_t">:$deviceIds
  );
}

def Sdy_DimShardingAttr : Sdy_Attr<"DimSharding", "dimension_sharding"> {
  let summary = "The axes of one dimension, whether it is open, its priority";
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::StringAttr">:$axes,
    "bool":$closed,
    "int64_t":$priority  // -1: none
  );
}

def Sdy_TensorShardingAttr : Sdy_Attr<"TensorSharding", "sharding"> {
  let summary = "How a tensor is laid out over a mesh";
  let description = [{
    `<@mesh, [{"x"}, {"y", ?}p1], replicated={"z"}, unreduced={"w"}>`.
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$mesh,
    OptionalArrayRefParameter<"DimShardingAttr">:$dims,
    OptionalArrayRefParameter<"::mlir::StringAttr">:$replicated,
    OptionalArrayRefParameter<"::mlir::StringAttr">:$unreduced
  );
  let extraClassDeclaration = [{
    /// The body without the `#sdy.sharding` prefix: `<@mesh, [...]>`.
    static ::mlir::FailureOr<TensorShardingAttr>
    parseBody(::mlir::AsmParser &parser);
    void printBody(::mlir::AsmPrinter &printer) const;
  }];
}

def Sdy_TensorShardingPerValueAttr
    : Sdy_Attr<"TensorShardingPerValue", "sharding_per_value"> {
  let summary = "One sharding per result of an op";
  let parameters = (ins
    OptionalArrayRefParameter<"TensorShardingAttr">:$shardings);
}

def Sdy_ManualAxesAttr : Sdy_Attr<"ManualAxes", "manual_axes"> {
  let summary = "The axes a manual computation is manual over";
  let parameters = (ins OptionalArrayRefParameter<"::mlir::StringAttr">:$axes);
}

class Sdy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sdy_Dialect, mnemonic, traits>;

def Sdy_MeshOp : Sdy_Op<"mesh", [Symbol]> {
  let arguments = (ins SymbolNameAttr:$sym_name, Sdy_MeshAttr:$mesh);
  let assemblyFormat = "$sym_name `=` $mesh attr-dict";
}

def Sdy_ShardingConstraintOp : Sdy_Op<"sharding_constraint", [Pure, AllTypesMatch<["input", "result"]>]> {
  let arguments = (ins AnyRankedTensor:$input, Sdy_TensorShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
}

def Sdy_ReshardOp : Sdy_Op<"reshard", [Pure, AllTypesMatch<["input", "result"]>]> {
  let arguments = (ins AnyRankedTensor:$input, Sdy_TensorShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
}

def Sdy_ShardingGroupOp : Sdy_Op<"sharding_group"> {
  let summary = "Values with one group_id share a sharding (shard_alike)";
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$group_id);
  let assemblyFormat = "$input `group_id` `=` $group_id attr-dict `:` type($input)";
}

def Sdy_PropagationBarrierOp : Sdy_Op<"propagation_barrier", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Shardings cross only in allowed_direction";
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$allowed_direction);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `allowed_direction` `=` custom<Direction>($allowed_direction)
    attr-dict `:` type($result)
  }];
}

def Sdy_ManualComputationOp : Sdy_Op<"manual_computation", [
    RecursiveMemoryEffects, SingleBlock]> {
  let summary = "A region of per-device code over some manual axes";
  let arguments = (ins Variadic<AnyRankedTensor>:$tensors,
                       Sdy_TensorShardingPerValueAttr:$in_shardings,
                       Sdy_TensorShardingPerValueAttr:$out_shardings,
                       Sdy_ManualAxesAttr:$manual_axes);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_ReturnOp : Sdy_Op<"return", [Pure, Terminator]> {
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

#endif // TRELLIS_IMPORT_SDY_OPS_TD
