//===- SpmdOps.td - shard_map and collectives ----------------*- tablegen -*-===//

#ifndef SPMD_OPS_TD
#define SPMD_OPS_TD

include "dialects/spmd/IR/CollectiveOpInterface.td"
include "dialects/spmd/IR/SpmdDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "dialects/trellis/IR/TrellisAttrs.td"
include "dialects/trellis/IR/TrellisInterfaces.td"
include "dialects/trellis/Interfaces/ShardingRuleInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Collectives communicate: they must not be removed on some devices, moved
/// into divergent control flow, or merged, so they carry a side effect on
/// this resource.
def Spmd_CommunicationResource
    : Resource<"::mlir::spmd::CommunicationResource">;
def Spmd_Communicates : MemoryEffects<[MemRead<Spmd_CommunicationResource>,
                                       MemWrite<Spmd_CommunicationResource>]>;

//===----------------------------------------------------------------------===//
// spmd.shard_map
//===----------------------------------------------------------------------===//

def Spmd_ShardMapOp : Spmd_Op<"shard_map", [
    IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<Trellis_AxisTypeRegionInterface>]> {
  let summary = "Per-device code over blocks of global arrays";
  let description = [{
    JAX's `shard_map`: split each input into blocks per its `in_specs`, run
    the body once per device of the mesh on per-device shapes, and assemble
    each output from the blocks per its `out_specs`.

    ```mlir
    %c = spmd.shard_map @mesh in_specs = [[{"i"}, {"j"}] # "}]" # [{, [{"j"}, {}] # "}]" # [{]
                              out_specs = [[{"i"}, {}] # "}]" # [{]
        (%a, %b) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> {
    ^bb0(%ab: tensor<2x8xf32>, %bb: tensor<8x32xf32>):
      ...
      spmd.yield %s : tensor<2x32xf32>
    }
    ```

    * A spec has one entry per leading tensor dimension (missing trailing
      entries are `{}`), each an ordered list of mesh axes, major to minor.
      A body argument's shape is its operand's shape divided, per dimension,
      by the product of the sizes of the axes in that entry. An axis an
      input spec omits means the block is the same on every device along it.
    * A result's shape is the yielded shape multiplied per `out_specs`. An
      axis an output spec omits is an *untile*: the body promises the blocks
      are equal along it and one is kept (`spmd-check-variance` checks the
      promise unless `check_vma = false`).
    * `manual_axes = ["i"]` makes only those axes manual (JAX's partial
      manual `axis_names`); by default every axis not already manual is.
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$mesh,
    Trellis_SpecArrayAttr:$in_specs,
    Trellis_SpecArrayAttr:$out_specs,
    OptionalAttr<StrArrayAttr>:$manual_axes,
    DefaultValuedAttr<BoolAttr, "true">:$check_vma,
    Variadic<AnyRankedTensor>:$inputs
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The axes that are manual inside the body, in mesh order (including
    /// axes made manual by enclosing shard_maps).
    ::llvm::SmallVector<::mlir::StringAttr> getAllManualAxes();
    /// The axes this op makes manual, in mesh order.
    ::llvm::SmallVector<::mlir::StringAttr> getOwnManualAxes();
    ::mlir::trellis::MeshOp getMeshOp();
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Spmd_YieldOp : Spmd_Op<"yield", [
    Pure, Terminator, ReturnLike, HasParent<"ShardMapOp">]> {
  let summary = "Return the per-device blocks of a shard_map";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// `overrides`: the CollectiveOpInterface methods with a default that the
/// op defines itself (in CollectiveOps.cpp).
class Spmd_CollectiveOp<string mnemonic, list<Trait> traits = [],
                        list<string> overrides = []>
    : Spmd_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<Spmd_CollectiveOpInterface, overrides>]> {
  let hasVerifier = 1;
}

/// Collectives that act elementwise on their operand have the elementwise
/// sharding rule: inside a partially-manual body, the blocks along the
/// automatic axes line up across each group of the manual axes.
defvar Spmd_ElementwiseRule =
    DeclareOpInterfaceMethods<Trellis_ShardingRuleOpInterface>;

class Spmd_ReduceOp<string mnemonic, string what>
    : Spmd_CollectiveOp<mnemonic, [Spmd_Communicates, Spmd_ElementwiseRule],
                        ["getReduction", "getBytesSentPerDevice",
                         "buildTranspose"]> {
  let hasFolder = 1;
  let summary = "All-reduce (" # what # ") over mesh axes";
  let description = [{
    Combines the operand elementwise (}] # what # [{) across the devices of
    each group along `axes` and gives every device the result. The result no
    longer varies over `axes` (seed 001: varying → invariant).

    ```mlir
    %s = spmd.}] # mnemonic # [{ %z over ["j"] : tensor<2x32xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $axes attr-dict `:` custom<ArrowType>(type($operand), type($result))
  }];
}

def Spmd_PsumOp : Spmd_ReduceOp<"psum", "sum"> {
  let hasCanonicalizer = 1;
}
def Spmd_PmaxOp : Spmd_ReduceOp<"pmax", "maximum">;
def Spmd_PminOp : Spmd_ReduceOp<"pmin", "minimum">;
def Spmd_PmeanOp : Spmd_ReduceOp<"pmean", "mean: the sum divided by the group size"> {
  let arguments = (ins RankedTensorOf<[AnyFloat]>:$operand, StrArrayAttr:$axes);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
}

def Spmd_PvaryOp : Spmd_CollectiveOp<"pvary", [Pure, Spmd_ElementwiseRule],
                                     ["buildTranspose"]> {
  let hasFolder = 1;
  let summary = "Mark an invariant value as varying (no communication)";
  let description = [{
    Seed 001's `pbroadcast` (JAX's `pvary`): the value is unchanged, but its
    type now varies over `axes`. It moves no data; its transpose is `psum`.

    ```mlir
    %v = spmd.pvary %x over ["i"] : tensor<4xf32> -> tensor<4xf32, #spmd.vary<["i"]>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $axes attr-dict `:` custom<ArrowType>(type($operand), type($result))
  }];
}

class Spmd_DimCollectiveOp<string mnemonic, list<Trait> traits = [],
                           list<string> overrides = []>
    : Spmd_CollectiveOp<mnemonic, traits,
                        !listconcat(["buildTranspose"], overrides)> {
  let hasFolder = 1;
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       I64Attr:$dim, UnitAttr:$tiled);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $axes `dim` $dim (`tiled` $tiled^)? attr-dict `:`
    type($operand) `->` type($result)
  }];
}

def Spmd_AllGatherOp : Spmd_DimCollectiveOp<"all_gather", [Spmd_Communicates],
                                            ["getBytesSentPerDevice"]> {
  let summary = "All-gather over mesh axes (result varying)";
  let description = [{
    Every device receives the operands of all devices of its group along
    `axes`, in group order. `tiled` concatenates them along `dim` (the
    dimension grows by the group size); otherwise they are stacked along a
    new dimension inserted at `dim`. The result is varying (seed 001), which
    makes its transpose a `psum_scatter`.

    ```mlir
    %g = spmd.all_gather %x over ["i"] dim 0 tiled : tensor<2x8xf32> -> tensor<8x8xf32>
    ```
  }];
}

def Spmd_AllGatherInvariantOp
    : Spmd_DimCollectiveOp<"all_gather_invariant", [Spmd_Communicates],
                           ["getBytesSentPerDevice"]> {
  let summary = "All-gather over mesh axes (result invariant)";
  let description = [{
    Same data movement as `spmd.all_gather`, but the result is invariant over
    `axes`; its transpose is `spmd.pscatter`, which moves no data.
  }];
}

def Spmd_PsumScatterOp
    : Spmd_DimCollectiveOp<"psum_scatter", [Spmd_Communicates],
                           ["getReduction", "getBytesSentPerDevice"]> {
  let summary = "Reduce-scatter over mesh axes";
  let description = [{
    Sums the operands of the group along `axes` and leaves device `k` of the
    group the `k`-th block of the sum along `dim`. `tiled` divides `dim` by
    the group size; otherwise `dim` must equal the group size and is removed.

    ```mlir
    %c = spmd.psum_scatter %p over ["j"] dim 1 tiled : tensor<2x32xf32> -> tensor<2x16xf32>
    ```
  }];
}

def Spmd_PscatterOp : Spmd_DimCollectiveOp<"pscatter", [Pure]> {
  let summary = "Keep this device's block of an invariant value (no communication)";
  let description = [{
    The transpose of `spmd.all_gather_invariant`: an invariant operand is
    sliced along `dim` and device `k` of the group keeps block `k`. The
    result varies over `axes`. No data moves.
  }];
}

def Spmd_AllToAllOp
    : Spmd_CollectiveOp<"all_to_all", [Spmd_Communicates],
                        ["getBytesSentPerDevice", "buildTranspose"]> {
  let hasFolder = 1;
  let summary = "All-to-all over mesh axes";
  let description = [{
    Splits the operand into group-size blocks along `split_dim`, sends block
    `k` to device `k` of the group, and concatenates the received blocks
    along `concat_dim` in group order (JAX's tiled `all_to_all`).

    ```mlir
    %t = spmd.all_to_all %x over ["i"] split 0 concat 1 : tensor<8x2xf32> -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       I64Attr:$split_dim, I64Attr:$concat_dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $axes `split` $split_dim `concat` $concat_dim attr-dict `:`
    type($operand) `->` type($result)
  }];
}

def Spmd_PpermuteOp
    : Spmd_CollectiveOp<"ppermute", [Spmd_Communicates, Spmd_ElementwiseRule],
                        ["getBytesSentPerDevice", "buildTranspose"]> {
  let hasFolder = 1;
  let summary = "Send blocks between devices along mesh axes";
  let description = [{
    Each `[source, target]` pair sends the operand of device `source` of the
    group to device `target`. Sources and targets are each unique (a partial
    permutation); a device that no pair targets receives zeros, as in JAX.

    ```mlir
    %n = spmd.ppermute %x over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]]
           : tensor<512x1024xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       DenseI64ArrayAttr:$pairs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $axes `pairs` custom<Pairs>($pairs) attr-dict `:`
    custom<ArrowType>(type($operand), type($result))
  }];
  let extraClassDeclaration = [{
    /// The (source, target) pairs.
    ::llvm::SmallVector<std::pair<int64_t, int64_t>> getPairList();
  }];
}

def Spmd_PpermuteStartOp
    : Spmd_CollectiveOp<"ppermute_start", [Spmd_Communicates],
                        ["getBytesSentPerDevice"]> {
  let summary = "Start an asynchronous ppermute";
  let description = [{
    The first half of `spmd.ppermute`: sends the operand along `pairs` and
    returns at once with a future; `spmd.ppermute_wait` delivers the value
    this device receives. Compute placed between the two overlaps the
    transfer. `spmd-async-collectives` splits ppermutes into this pair and
    schedules them; the runtime copies the operand when the transfer starts,
    so it may be overwritten afterwards.

    ```mlir
    %f = spmd.ppermute_start %x over ["i"] pairs [[0, 3], [1, 0], [2, 1], [3, 2]}] # "]" # [{
           : tensor<512x1024xf32> -> !spmd.future<tensor<512x1024xf32>>
    ...
    %y = spmd.ppermute_wait %f : !spmd.future<tensor<512x1024xf32>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       DenseI64ArrayAttr:$pairs);
  let results = (outs Spmd_FutureType:$future);
  let assemblyFormat = [{
    $operand `over` $axes `pairs` custom<Pairs>($pairs) attr-dict `:`
    type($operand) `->` qualified(type($future))
  }];
  let extraClassDeclaration = [{
    /// The (source, target) pairs.
    ::llvm::SmallVector<std::pair<int64_t, int64_t>> getPairList();
  }];
}

def Spmd_PpermuteWaitOp : Spmd_Op<"ppermute_wait", [
    Spmd_Communicates,
    TypesMatchWith<"the result is the future's value", "future", "result",
                   "::llvm::cast<::mlir::spmd::FutureType>($_self).getValueType()">]> {
  let summary = "Wait for an asynchronous ppermute";
  let description = [{
    Blocks until the value this device receives from the transfer started by
    `spmd.ppermute_start` has arrived and returns it (zeros when no pair
    targets this device).

    ```mlir
    %y = spmd.ppermute_wait %f : !spmd.future<tensor<512x1024xf32>>
    ```
  }];
  let arguments = (ins Spmd_FutureType:$future);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $future attr-dict `:` qualified(type($future))
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$future), [{
      build($_builder, $_state,
            ::llvm::cast<::mlir::spmd::FutureType>(future.getType())
                .getValueType(),
            future);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Asynchronous all_gather, psum_scatter, psum and all_to_all
//===----------------------------------------------------------------------===//

/// The first half of a collective: the same operand and attributes as the
/// synchronous op `sync`, and a future of its result, which
/// `spmd.collective_wait` delivers.
class Spmd_StartOp<string mnemonic, string sync>
    : Spmd_CollectiveOp<mnemonic, [Spmd_Communicates],
                        ["getReduction", "getBytesSentPerDevice"]> {
  let summary = "Start an asynchronous `spmd." # sync # "`";
  let description = [{
    Starts `spmd.}] # sync # [{` on the operand and returns at once with a
    future of its result; `spmd.collective_wait` delivers that result.
    Compute placed between the two overlaps the collective. The runtime
    copies the operand when the collective starts, so it may be overwritten
    afterwards. spmd-check-variance types the future like the synchronous
    result it will hold.
  }];
  let results = (outs Spmd_FutureType:$future);
}

def Spmd_AllGatherStartOp : Spmd_StartOp<"all_gather_start", "all_gather"> {
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       I64Attr:$dim, UnitAttr:$tiled);
  let assemblyFormat = [{
    $operand `over` $axes `dim` $dim (`tiled` $tiled^)? attr-dict `:`
    type($operand) `->` qualified(type($future))
  }];
}

def Spmd_PsumScatterStartOp
    : Spmd_StartOp<"psum_scatter_start", "psum_scatter"> {
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       I64Attr:$dim, UnitAttr:$tiled);
  let assemblyFormat = [{
    $operand `over` $axes `dim` $dim (`tiled` $tiled^)? attr-dict `:`
    type($operand) `->` qualified(type($future))
  }];
}

def Spmd_PsumStartOp : Spmd_StartOp<"psum_start", "psum"> {
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes);
  let assemblyFormat = [{
    $operand `over` $axes attr-dict `:` type($operand) `->`
    qualified(type($future))
  }];
}

def Spmd_AllToAllStartOp : Spmd_StartOp<"all_to_all_start", "all_to_all"> {
  let arguments = (ins AnyRankedTensor:$operand, StrArrayAttr:$axes,
                       I64Attr:$split_dim, I64Attr:$concat_dim);
  let assemblyFormat = [{
    $operand `over` $axes `split` $split_dim `concat` $concat_dim attr-dict `:`
    type($operand) `->` qualified(type($future))
  }];
}

def Spmd_CollectiveWaitOp : Spmd_Op<"collective_wait", [
    Spmd_Communicates,
    TypesMatchWith<"the result is the future's value", "future", "result",
                   "::llvm::cast<::mlir::spmd::FutureType>($_self).getValueType()">]> {
  let summary = "Wait for an asynchronous all_gather, psum_scatter, psum or all_to_all";
  let description = [{
    Blocks until the collective started by `spmd.all_gather_start`,
    `spmd.psum_scatter_start`, `spmd.psum_start` or `spmd.all_to_all_start`
    has completed on this device and returns its result.

    ```mlir
    %f = spmd.all_gather_start %w over ["i"] dim 0 tiled
           : tensor<2x8xf32> -> !spmd.future<tensor<8x8xf32>>
    ...
    %g = spmd.collective_wait %f : !spmd.future<tensor<8x8xf32>>
    ```
  }];
  let arguments = (ins Spmd_FutureType:$future);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $future attr-dict `:` qualified(type($future))
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$future), [{
      build($_builder, $_state,
            ::llvm::cast<::mlir::spmd::FutureType>(future.getType())
                .getValueType(),
            future);
    }]>
  ];
}

class Spmd_AxisQueryOp<string mnemonic, string what>
    : Spmd_CollectiveOp<mnemonic, [Pure]> {
  let hasFolder = 1;
  let arguments = (ins StrArrayAttr:$axes);
  let results = (outs AnySignlessIntegerOrIndex:$result);
  let assemblyFormat = "`over` $axes attr-dict `:` type($result)";
  let summary = "The " # what # " along mesh axes";
}

def Spmd_AxisIndexOp : Spmd_AxisQueryOp<"axis_index", "device index"> {
  let description = [{
    This device's index in its group along `axes` (row-major over the listed
    axes, the first major). It varies over `axes`.

    ```mlir
    %i = spmd.axis_index over ["i"] : index
    ```
  }];
}

def Spmd_AxisSizeOp : Spmd_AxisQueryOp<"axis_size", "group size"> {
  let description = [{
    The product of the sizes of `axes` (JAX's `psum(1, axes)`); invariant.

    ```mlir
    %n = spmd.axis_size over ["i"] : index
    ```
  }];
}

#endif // SPMD_OPS_TD
