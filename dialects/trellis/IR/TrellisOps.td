//===- TrellisOps.td - Mesh and sharding ops ------------------*- tablegen -*-===//

#ifndef TRELLIS_OPS_TD
#define TRELLIS_OPS_TD

include "dialects/trellis/Interfaces/ShardingRuleInterface.td"
include "dialects/trellis/IR/TrellisAttrs.td"
include "dialects/trellis/IR/TrellisInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"


//===----------------------------------------------------------------------===//
// trellis.mesh
//===----------------------------------------------------------------------===//

def Trellis_MeshOp : Trellis_Op<"mesh", [Symbol]> {
  let summary = "A named arrangement of devices with named axes";
  let description = [{
    Declares a mesh: an N-dimensional array of devices whose axes have names,
    sizes and types.

    ```mlir
    trellis.mesh @mesh = <["i"=4, "j"=2]>
    trellis.mesh @emesh = <["X"=2, "Y"=4], types = [explicit, explicit]>
    trellis.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>
    ```

    Axis types default to `auto`. `devices` gives, in row-major order of the
    mesh coordinates, the device that sits at each mesh position (JAX's
    `Mesh(devices.reshape(...))`); it defaults to `0, 1, ..., N-1`.
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    StrArrayAttr:$axis_names,
    DenseI64ArrayAttr:$axis_sizes,
    Trellis_AxisTypeArrayAttr:$axis_types,
    OptionalAttr<DenseI64ArrayAttr>:$device_ids
  );
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    unsigned getNumAxes() { return getAxisSizes().size(); }
    /// The verifier rejects meshes with more devices than this.
    static constexpr int64_t kMaxDevices = int64_t(1) << 31;
    /// Index of `axis`, or std::nullopt if the mesh has no such axis.
    std::optional<unsigned> getAxisIndex(::llvm::StringRef axis);
    /// The mesh axis `axis` names, or is a sub-axis of (`x:(2)4`,
    /// SubAxes.h); std::nullopt when it names neither a mesh axis nor a
    /// proper part of one (the pre-size times the size divides the axis's
    /// size and the part is neither all nor none of it).
    std::optional<AxisPart> resolveAxis(::llvm::StringRef axis);
    /// Whether two resolvable axis names share devices' coordinates.
    bool axesOverlap(::llvm::StringRef a, ::llvm::StringRef b);
    /// Size of `axis` (an axis or a sub-axis); it must resolve.
    int64_t getAxisSize(::llvm::StringRef axis);
    /// Product of the sizes of `axes`; each must resolve.
    int64_t getAxesSize(::llvm::ArrayRef<::mlir::StringAttr> axes);
    AxisType getAxisType(unsigned index);
    int64_t getNumDevices();
    /// Device ids in row-major mesh order (the identity when unspecified).
    ::llvm::SmallVector<int64_t> getDeviceOrder();
  }];
}

//===----------------------------------------------------------------------===//
// trellis.reshard / trellis.sharding_constraint
//===----------------------------------------------------------------------===//

def Trellis_ReshardOp : Trellis_Op<"reshard", [Pure]> {
  let summary = "Change the sharding in a tensor's type (explicit mode)";
  let description = [{
    Returns its operand with the sharding given by the result type, JAX's
    `reshard(x, P(...))`. Only the encodings may differ: shape and element
    type are those of the operand. The partitioner realises the change with
    the fewest collectives it can.

    ```mlir
    %y = trellis.reshard %x : tensor<8x8xf32, #trellis.sharding<@m, [{"X"}, {}] # "}]" # [{>>
                           -> tensor<8x8xf32, #trellis.sharding<@m, [{}, {"X"}] # "}]" # [{>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Trellis_ShardingConstraintOp : Trellis_Op<"sharding_constraint", [
    Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Trellis_ShardingRuleOpInterface>]> {
  let summary = "Ask auto propagation for a sharding at this point";
  let description = [{
    JAX's `with_sharding_constraint`: the value is unchanged; auto sharding
    propagation must give it `sharding` here, and propagates from it.

    ```mlir
    %y = trellis.sharding_constraint %x to #trellis.sharding<@m, [{"X"}, {}] # "}]" # [{>
           : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, Trellis_ShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `to` $sharding attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// trellis.sharding_group / trellis.propagation_barrier
//===----------------------------------------------------------------------===//

def Trellis_ShardingGroupOp : Trellis_Op<"sharding_group"> {
  let summary = "Ask auto propagation to give values one sharding";
  let description = [{
    JAX's `shard_alike`: every value named by a `trellis.sharding_group`
    with the same `group_id` (in one function) gets the same sharding from
    auto propagation, whatever each would get alone; the values must have
    one shape. The op does nothing else, and partitioning drops it.

    ```mlir
    trellis.sharding_group %x group_id = 0 : tensor<8x16xf32>
    trellis.sharding_group %y group_id = 0 : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$group_id);
  let assemblyFormat = "$input `group_id` `=` $group_id attr-dict `:` type($input)";
}

def Trellis_PropagationBarrierOp : Trellis_Op<"propagation_barrier", [
    Pure, SameOperandsAndResultType]> {
  let summary = "Let auto propagation pass a point one way, or not at all";
  let description = [{
    The value is unchanged; auto sharding propagation carries shardings
    across the op only in `allowed_direction`: `"forward"` (from the
    operand to the result), `"backward"` (from the result to the operand)
    or `"none"`. The partitioner reshards at the op when the two sides
    differ.

    ```mlir
    %y = trellis.propagation_barrier %x allowed_direction = "forward"
           : tensor<8x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$allowed_direction);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `allowed_direction` `=` $allowed_direction attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool allowsForward() const {
      return const_cast<PropagationBarrierOp *>(this)->getAllowedDirection() ==
             "forward";
    }
    bool allowsBackward() const {
      return const_cast<PropagationBarrierOp *>(this)->getAllowedDirection() ==
             "backward";
    }
  }];
}

//===----------------------------------------------------------------------===//
// trellis.auto_axes / trellis.explicit_axes
//===----------------------------------------------------------------------===//

class Trellis_AxisRegionOp<string mnemonic>
    : Trellis_Op<mnemonic, [IsolatedFromAbove, SingleBlock,
                            RecursiveMemoryEffects,
                            DeclareOpInterfaceMethods<SymbolUserOpInterface>,
                            DeclareOpInterfaceMethods<Trellis_AxisTypeRegionInterface>]> {
  let arguments = (ins FlatSymbolRefAttr:$mesh, StrArrayAttr:$axes,
                       Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $mesh $axes `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
}

def Trellis_AutoAxesOp : Trellis_AxisRegionOp<"auto_axes"> {
  let summary = "Make explicit mesh axes auto inside a region";
  let description = [{
    JAX's `auto_axes`: inside the body, the listed axes are auto, so their
    shardings vanish from the tensor types; the result types outside are the
    required `out_sharding` (they may shard over the listed axes freely).

    ```mlir
    %z = trellis.auto_axes @mesh ["X"] (%x)
        : (tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}] # "}]" # [{>>)
       -> tensor<4x4xf32, #trellis.sharding<@mesh, [{"X"}, {"Y"}] # "}]" # [{>> {
    ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}] # "}]" # [{>>):
      ...
      trellis.yield %r : tensor<4x4xf32, #trellis.sharding<@mesh, [{}, {"Y"}] # "}]" # [{>>
    }
    ```

    Each block argument type is its operand type without the listed axes;
    each yielded type is its result type without the listed axes.
  }];
}

def Trellis_ExplicitAxesOp : Trellis_AxisRegionOp<"explicit_axes"> {
  let summary = "Make auto mesh axes explicit inside a region";
  let description = [{
    JAX's `explicit_axes`: inside the body the listed axes are explicit, and
    the block argument types carry the required `in_sharding` over them.
    Outside, the operand and result types show none of the listed axes.

    ```mlir
    %z = trellis.explicit_axes @amesh ["X", "Y"] (%x)
        : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%y: tensor<4x4xf32, #trellis.sharding<@amesh, [{"X"}, {"Y"}] # "}]" # [{>>):
      ...
    }
    ```
  }];
}

def Trellis_YieldOp : Trellis_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["AutoAxesOp", "ExplicitAxesOp"]>]> {
  let summary = "Return values from an axis-type region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TRELLIS_OPS_TD
