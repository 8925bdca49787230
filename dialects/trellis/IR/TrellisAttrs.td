//===- TrellisAttrs.td - Mesh axis types and shardings -------*- tablegen -*-===//

#ifndef TRELLIS_ATTRS_TD
#define TRELLIS_ATTRS_TD

include "dialects/trellis/IR/TrellisDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/TensorEncoding.td"

def Trellis_AxisType : I32EnumAttr<"AxisType", "the mode of a mesh axis", [
    I32EnumAttrCase<"Auto", 0, "auto">,
    I32EnumAttrCase<"Explicit", 1, "explicit">,
    I32EnumAttrCase<"Manual", 2, "manual">
  ]> {
  let cppNamespace = "::mlir::trellis";
  let genSpecializedAttr = 0;
}

def Trellis_AxisTypeAttr : EnumAttr<Trellis_Dialect, Trellis_AxisType, "axis_type">;

class Trellis_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Trellis_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Trellis_DimShardingAttr : Trellis_Attr<"DimSharding", "dim"> {
  let summary = "The mesh axes one tensor dimension is split over";
  let description = [{
    An ordered list of mesh axes, major to minor, that split one tensor
    dimension: `{"X", "Y"}` is JAX's `('X', 'Y')` entry of a PartitionSpec and
    `{}` is `None`. A dimension is *closed* by default: propagation may not add
    axes to it. A trailing `?` marks it *open* (`{"X", ?}`): auto propagation
    may append further axes. A suffix `p<N>` (`{"X"}p0`) gives a user
    sharding a priority: auto propagation runs one round per priority, p0
    first, and dimensions without one last.

    An axis may be a *sub-axis*, a part of a mesh axis as Shardy writes
    it: `{"x":(1)2, "y"}` splits the dimension over the major 2 of `x`
    (pre-size 1, size 2) and then `y`; `"x":(2)4` is the next 4 of an `x`
    of 8. A sub-axis is stored as the one axis name `x:(2)4`.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::StringAttr">:$axes,
    DefaultValuedParameter<"bool", "true">:$closed,
    DefaultValuedParameter<"int64_t", "-1">:$priority
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::StringAttr>":$axes), [{
      return $_get($_ctxt, axes, /*closed=*/true, /*priority=*/-1);
    }]>,
    AttrBuilder<(ins "::llvm::ArrayRef<::mlir::StringAttr>":$axes,
                     "bool":$closed), [{
      return $_get($_ctxt, axes, closed, /*priority=*/-1);
    }]>
  ];
  let extraClassDeclaration = [{
    bool isReplicated() const { return getAxes().empty(); }
    bool hasPriority() const { return getPriority() >= 0; }
    /// Print as `{"X", "Y"}` without the attribute prefix.
    void printBare(::mlir::AsmPrinter &printer) const;
    static ::mlir::FailureOr<DimShardingAttr>
    parseBare(::mlir::AsmParser &parser);
  }];
}

def Trellis_SpecAttr : Trellis_Attr<"Spec", "spec"> {
  let summary = "A PartitionSpec: per tensor dimension, the axes it is split over";
  let description = [{
    A mesh-less partition spec, as used by `spmd.shard_map`'s `in_specs` and
    `out_specs`: `#trellis.spec<[{"i"}, {"j"}] # "}]" # [{>` is JAX's `P('i', 'j')` and
    `#trellis.spec<[]>` is `P()`. A spec may be shorter than the rank of the
    tensor it describes; the missing trailing dimensions are not split.
  }];
  let parameters = (ins OptionalArrayRefParameter<"DimShardingAttr">:$dims);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Print as `[{"i"}, {}] # "}]" # [{` without the attribute prefix.
    void printBare(::mlir::AsmPrinter &printer) const;
    static ::mlir::FailureOr<SpecAttr> parseBare(::mlir::AsmParser &parser);
    /// The axes splitting dimension `dim` (empty past the end of the spec).
    ::llvm::ArrayRef<::mlir::StringAttr> getAxes(unsigned dim) const;
    /// Every axis the spec mentions.
    ::llvm::SmallVector<::mlir::StringAttr> getAllAxes() const;
    bool mentions(::llvm::StringRef axis) const;
  }];
}

def Trellis_ShardingAttr : Trellis_Attr<"Sharding", "sharding", [
    DeclareAttrInterfaceMethods<VerifiableTensorEncoding>
  ]> {
  let summary = "How a global tensor is laid out over a mesh";
  let description = [{
    `#trellis.sharding<@mesh, [{"X"}, {}] # "}]" # [{>` names a mesh and, per tensor
    dimension, the mesh axes (major to minor) that split it. Axes the sharding
    does not mention hold replicas. Two optional sets refine that:
    `replicated = {"Y"}` states that the tensor is replicated along `Y` and
    must stay so (propagation may not shard it over `Y`), and
    `unreduced = {"Z"}` states that the per-device values along `Z` are
    partial sums still to be added up.

    Used as a tensor encoding it is the sharding in the type (explicit mode);
    used as the discardable attribute `trellis.sharding` it is an auto-mode
    annotation. No axis may appear twice, and each dimension's size must be
    divisible by the product of the sizes of its axes.
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$mesh,
    OptionalArrayRefParameter<"DimShardingAttr">:$dims,
    OptionalArrayRefParameter<"::mlir::StringAttr">:$replicated,
    OptionalArrayRefParameter<"::mlir::StringAttr">:$unreduced
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::mlir::FlatSymbolRefAttr":$mesh,
                     "::llvm::ArrayRef<DimShardingAttr>":$dims), [{
      return $_get($_ctxt, mesh, dims, ::llvm::ArrayRef<::mlir::StringAttr>(),
                   ::llvm::ArrayRef<::mlir::StringAttr>());
    }]>
  ];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::StringAttr> getAxes(unsigned dim) const;
    ::llvm::SmallVector<::mlir::StringAttr> getAllAxes() const;
    bool mentions(::llvm::StringRef axis) const;
    bool isFullyReplicated() const;
    /// The same sharding as a mesh-less spec.
    SpecAttr getSpec() const;
  }];
}

def Trellis_AxisTypeArrayAttr
    : TypedArrayAttrBase<Trellis_AxisTypeAttr, "array of mesh axis types">;
def Trellis_SpecArrayAttr
    : TypedArrayAttrBase<Trellis_SpecAttr, "array of partition specs">;

#endif // TRELLIS_ATTRS_TD
