//===- SpmdDialect.td - Per-device programs and collectives --*- tablegen -*-===//

#ifndef SPMD_DIALECT_TD
#define SPMD_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Spmd_Dialect : Dialect {
  let name = "spmd";
  let cppNamespace = "::mlir::spmd";
  let summary = "Manual SPMD: shard_map, per-device code and collectives";
  let description = [{
    The `spmd` dialect is the manual mode of Trellis: `spmd.shard_map` switches
    mesh axes to manual, its body is per-device code on per-device shapes, and
    devices talk through explicit collectives (`spmd.psum`,
    `spmd.all_gather`, `spmd.ppermute`, ...) over named mesh axes.

    Device variance (seed 001) is tracked in tensor types:
    `tensor<2x8xf32, #spmd.vary<["i"]>>` is seed 001's `f32[2,8]{i}`, a value
    that may differ between devices along axis `i`. An unannotated tensor in
    a body has not been typed yet; `spmd-check-variance` annotates them.
  }];
  let dependentDialects = ["::mlir::trellis::TrellisDialect",
                           "::mlir::arith::ArithDialect"];
  // Folded axis queries (and psum of a pvary) become arith constants.
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes (defined beside their storage classes).
    void registerAttributes();
    /// Registers the types.
    void registerTypes();

    /// Attributes of a function outlined from a shard_map body: the mesh and
    /// the axes that are manual in it.
    static constexpr ::llvm::StringLiteral kMeshAttrName = "spmd.mesh";
    static constexpr ::llvm::StringLiteral kManualAxesAttrName =
        "spmd.manual_axes";
    /// The device function outlined from a shard_map (on the shard_map).
    static constexpr ::llvm::StringLiteral kDeviceFuncAttrName =
        "spmd.device_func";
    /// Module attribute: per collective site, its op, location and pairs
    /// (set by spmd-to-runtime, read by the executor).
    static constexpr ::llvm::StringLiteral kSitesAttrName = "spmd.sites";
    /// Function attribute: spmd-transpose builds this function's transpose.
    static constexpr ::llvm::StringLiteral kTransposeAttrName =
        "spmd.transpose";
    /// Argument attribute: the function is not linear in this argument
    /// (spmd-transpose keeps it as an input of the transpose).
    static constexpr ::llvm::StringLiteral kNonlinearAttrName =
        "spmd.nonlinear";
  }];
}

class Spmd_Op<string mnemonic, list<Trait> traits = []>
    : Op<Spmd_Dialect, mnemonic, traits>;

def Spmd_VaryAttr : AttrDef<Spmd_Dialect, "Vary"> {
  let mnemonic = "vary";
  let summary = "The manual mesh axes a per-device value may vary over";
  let description = [{
    A tensor encoding inside manual regions: `#spmd.vary<["i", "j"]>` marks a
    value that may differ between devices along `i` and `j` and is equal
    across devices along every other manual axis. `#spmd.vary<[]>` is a
    device-invariant value. Axes are listed in mesh order.
  }];
  let parameters = (ins OptionalArrayRefParameter<"::mlir::StringAttr">:$axes);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    bool contains(::mlir::StringAttr axis) const {
      return ::llvm::is_contained(getAxes(), axis);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Asynchronous collectives (issue 7)
//===----------------------------------------------------------------------===//

def Spmd_FutureType : TypeDef<Spmd_Dialect, "Future"> {
  let mnemonic = "future";
  let summary = "A value in flight between devices";
  let description = [{
    The result of an asynchronous collective that has been started but not
    waited for: `!spmd.future<tensor<512x2048xf32>>` becomes a
    `tensor<512x2048xf32>` at its `spmd.ppermute_wait`. Each future is
    waited for exactly once.
  }];
  let parameters = (ins "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
}

#endif // SPMD_DIALECT_TD
