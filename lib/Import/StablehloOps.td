//===- StablehloOps.td - The StableHLO subset the importer reads -*- tablegen -*-===//
//
// Written from the public StableHLO specification: the ops, attributes and
// textual forms (pretty and generic) that JAX prints for the programs
// Trellis imports. These ops exist only to be parsed and converted by
// `trellis-import-stablehlo`; they have no folders, no canonicalizations and
// no lowering of their own. The dialect is registered only by the tools'
// own contexts (see include/trellis/Import/Registration.h), never by
// `registerAllDialects`, so a compiler that links Trellis and the real
// StableHLO sees no clash.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_IMPORT_STABLEHLO_OPS_TD
#define TRELLIS_IMPORT_STABLEHLO_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def Hlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::trellis::hlo";
  let summary = "Import-only subset of StableHLO";
  let description = [{
    The StableHLO ops JAX prints for the programs Trellis imports, with the
    same textual syntax. Only `trellis-import-stablehlo` consumes them: it
    rewrites them to linalg, tensor, arith and math ops with Trellis
    shardings.
  }];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

class Hlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Hlo_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// Enums print bare (`GT`) in ops and as `#stablehlo<comparison_direction GT>`
// on their own, as StableHLO prints them.
class Hlo_BareEnumAttr<EnumAttrInfo info, string name>
    : EnumAttr<Hlo_Dialect, info, name> {
  let assemblyFormat = "$value";
}

def Hlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "the relation `compare` tests", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::trellis::hlo";
}
def Hlo_ComparisonDirectionAttr
    : Hlo_BareEnumAttr<Hlo_ComparisonDirection, "comparison_direction">;

def Hlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "how `compare` orders its operands", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::trellis::hlo";
}
def Hlo_ComparisonTypeAttr
    : Hlo_BareEnumAttr<Hlo_ComparisonType, "comparison_type">;

def Hlo_Precision : I32EnumAttr<"Precision",
    "the precision a dot asks of the backend", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::trellis::hlo";
}
def Hlo_PrecisionAttr : Hlo_BareEnumAttr<Hlo_Precision, "precision">;
def Hlo_PrecisionConfigAttr
    : TypedArrayAttrBase<Hlo_PrecisionAttr, "per-operand precision">;

def Hlo_DotDimensionNumbersAttr : AttrDef<Hlo_Dialect, "DotDimensionNumbers"> {
  let mnemonic = "dot";
  let summary = "Batching and contracting dimensions of a dot_general";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$lhsBatchingDimensions,
    OptionalArrayRefParameter<"int64_t">:$rhsBatchingDimensions,
    OptionalArrayRefParameter<"int64_t">:$lhsContractingDimensions,
    OptionalArrayRefParameter<"int64_t">:$rhsContractingDimensions
  );
  let hasCustomAssemblyFormat = 1;
}

def Hlo_GatherDimensionNumbersAttr
    : AttrDef<Hlo_Dialect, "GatherDimensionNumbers"> {
  let mnemonic = "gather";
  let summary = "How a gather's indices pick slices of its operand";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$offsetDims,
    OptionalArrayRefParameter<"int64_t">:$collapsedSliceDims,
    OptionalArrayRefParameter<"int64_t">:$operandBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$startIndicesBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim
  );
  let hasCustomAssemblyFormat = 1;
}

def Hlo_ScatterDimensionNumbersAttr
    : AttrDef<Hlo_Dialect, "ScatterDimensionNumbers"> {
  let mnemonic = "scatter";
  let summary = "How a scatter's indices place update windows";
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$updateWindowDims,
    OptionalArrayRefParameter<"int64_t">:$insertedWindowDims,
    OptionalArrayRefParameter<"int64_t">:$inputBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$scatterIndicesBatchingDims,
    OptionalArrayRefParameter<"int64_t">:$scatterDimsToOperandDims,
    "int64_t":$indexVectorDim
  );
  let hasCustomAssemblyFormat = 1;
}

def Hlo_ConvDimensionNumbersAttr
    : AttrDef<Hlo_Dialect, "ConvDimensionNumbers"> {
  let mnemonic = "conv";
  let summary = "Which dimensions of a convolution's operands and result are "
                "batch, feature and spatial";
  let description = [{
    `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`: one entry
    per dimension of the input, the kernel and the output; a number names
    the spatial dimension (the i-th window dimension) the position holds.
    The `raw` form spells every field:
    `#stablehlo.conv<raw input_batch_dimension = 0, ...>`.
  }];
  let parameters = (ins
    "int64_t":$inputBatchDimension,
    "int64_t":$inputFeatureDimension,
    OptionalArrayRefParameter<"int64_t">:$inputSpatialDimensions,
    "int64_t":$kernelInputFeatureDimension,
    "int64_t":$kernelOutputFeatureDimension,
    OptionalArrayRefParameter<"int64_t">:$kernelSpatialDimensions,
    "int64_t":$outputBatchDimension,
    "int64_t":$outputFeatureDimension,
    OptionalArrayRefParameter<"int64_t">:$outputSpatialDimensions
  );
  let hasCustomAssemblyFormat = 1;
}

def Hlo_ChannelHandleAttr : AttrDef<Hlo_Dialect, "ChannelHandle"> {
  let mnemonic = "channel_handle";
  let summary = "The channel of a cross-device collective (ignored)";
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

def Hlo_Tensor : RankedTensorOf<[AnyType]>;

// `stablehlo.tanh %x : tensor<4xf32>`, or a function type when the types
// differ (`convert`).
class Hlo_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat([Pure], traits)> {
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

class Hlo_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat([Pure], traits)> {
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def Hlo_AbsOp : Hlo_UnaryOp<"abs">;
def Hlo_CbrtOp : Hlo_UnaryOp<"cbrt">;
def Hlo_CeilOp : Hlo_UnaryOp<"ceil">;
def Hlo_CosineOp : Hlo_UnaryOp<"cosine">;
def Hlo_ExponentialOp : Hlo_UnaryOp<"exponential">;
def Hlo_ExponentialMinusOneOp : Hlo_UnaryOp<"exponential_minus_one">;
def Hlo_FloorOp : Hlo_UnaryOp<"floor">;
def Hlo_IsFiniteOp : Hlo_UnaryOp<"is_finite">;
def Hlo_LogOp : Hlo_UnaryOp<"log">;
def Hlo_LogPlusOneOp : Hlo_UnaryOp<"log_plus_one">;
def Hlo_LogisticOp : Hlo_UnaryOp<"logistic">;
def Hlo_NegateOp : Hlo_UnaryOp<"negate">;
def Hlo_NotOp : Hlo_UnaryOp<"not">;
def Hlo_RoundNearestAfzOp : Hlo_UnaryOp<"round_nearest_afz">;
def Hlo_RoundNearestEvenOp : Hlo_UnaryOp<"round_nearest_even">;
def Hlo_RsqrtOp : Hlo_UnaryOp<"rsqrt">;
def Hlo_SignOp : Hlo_UnaryOp<"sign">;
def Hlo_SineOp : Hlo_UnaryOp<"sine">;
def Hlo_SqrtOp : Hlo_UnaryOp<"sqrt">;
def Hlo_TanOp : Hlo_UnaryOp<"tan">;
def Hlo_TanhOp : Hlo_UnaryOp<"tanh">;
def Hlo_ConvertOp : Hlo_UnaryOp<"convert">;

def Hlo_AddOp : Hlo_BinaryOp<"add">;
def Hlo_AndOp : Hlo_BinaryOp<"and">;
def Hlo_Atan2Op : Hlo_BinaryOp<"atan2">;
def Hlo_DivideOp : Hlo_BinaryOp<"divide">;
def Hlo_MaximumOp : Hlo_BinaryOp<"maximum">;
def Hlo_MinimumOp : Hlo_BinaryOp<"minimum">;
def Hlo_MultiplyOp : Hlo_BinaryOp<"multiply">;
def Hlo_OrOp : Hlo_BinaryOp<"or">;
def Hlo_PowerOp : Hlo_BinaryOp<"power">;
def Hlo_RemainderOp : Hlo_BinaryOp<"remainder">;
def Hlo_ShiftLeftOp : Hlo_BinaryOp<"shift_left">;
def Hlo_ShiftRightArithmeticOp : Hlo_BinaryOp<"shift_right_arithmetic">;
def Hlo_ShiftRightLogicalOp : Hlo_BinaryOp<"shift_right_logical">;
def Hlo_SubtractOp : Hlo_BinaryOp<"subtract">;
def Hlo_XorOp : Hlo_BinaryOp<"xor">;

def Hlo_ClampOp : Hlo_Op<"clamp", [Pure]> {
  let summary = "min(max(operand, min), max), with scalar or full bounds";
  let arguments = (ins Hlo_Tensor:$min, Hlo_Tensor:$operand, Hlo_Tensor:$max);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))
  }];
}

def Hlo_SelectOp : Hlo_Op<"select", [Pure]> {
  let arguments = (ins Hlo_Tensor:$pred, Hlo_Tensor:$on_true,
                       Hlo_Tensor:$on_false);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))
  }];
}

def Hlo_CompareOp : Hlo_Op<"compare", [Pure]> {
  let arguments = (ins Hlo_ComparisonDirectionAttr:$comparison_direction,
                       Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       OptionalAttr<Hlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_BitcastConvertOp : Hlo_Op<"bitcast_convert", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Constants, shapes and data movement
//===----------------------------------------------------------------------===//

def Hlo_ConstantOp : Hlo_Op<"constant", [Pure]> {
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Hlo_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
}

def Hlo_IotaOp : Hlo_Op<"iota", [Pure]> {
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs Hlo_Tensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
}

def Hlo_BroadcastInDimOp : Hlo_Op<"broadcast_in_dim", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($broadcast_dimensions)
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ReshapeOp : Hlo_Op<"reshape", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Hlo_TransposeOp : Hlo_Op<"transpose", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($permutation)
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ReverseOp : Hlo_Op<"reverse", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($dimensions)
    attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

def Hlo_SliceOp : Hlo_Op<"slice", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ConcatenateOp : Hlo_Op<"concatenate", [Pure]> {
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_PadOp : Hlo_Op<"pad", [Pure]> {
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` custom<Dims>($edge_padding_low)
    `,` `high` `=` custom<Dims>($edge_padding_high)
    `,` `interior` `=` custom<Dims>($interior_padding)
    attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Contractions and reductions
//===----------------------------------------------------------------------===//

def Hlo_DotGeneralOp : Hlo_Op<"dot_general", [Pure]> {
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       Hlo_DotDimensionNumbersAttr:$dot_dimension_numbers,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers)
    (`,` `precision` `=` custom<PrecisionConfig>($precision_config)^)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ConvolutionOp : Hlo_Op<"convolution", [Pure]> {
  let summary = "A convolution (lax.conv_general_dilated and its gradients)";
  let description = [{
    `stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]
    ->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]],
    lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : ...`.
  }];
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Hlo_ConvDimensionNumbersAttr:$dimension_numbers,
                       I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count,
                       OptionalAttr<Hlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs `)` `dim_numbers` `=`
    custom<ConvDimensions>($dimension_numbers) `,` `window` `=` `{`
    custom<WindowAttributes>($window_strides, $padding, $lhs_dilation,
                             $rhs_dilation, $window_reversal) `}`
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ReduceOp : Hlo_Op<"reduce", [
    Pure, RecursiveMemoryEffects, SameVariadicOperandSize, SingleBlock]> {
  let summary = "Reduces operands along dimensions with a reducer region";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       Variadic<Hlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Hlo_ReduceWindowOp : Hlo_Op<"reduce_window", [
    RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "Reduces each window of the operands (cumsum, pooling)";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs,
                       Variadic<Hlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region SizedRegion<1>:$body);
}

def Hlo_SelectAndScatterOp : Hlo_Op<"select_and_scatter", [
    RecursiveMemoryEffects]> {
  let summary = "Scatters each source element to the element its window "
                "selects (the max-pool gradient)";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$source,
                       Hlo_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Hlo_Tensor);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
}

def Hlo_ReturnOp : Hlo_Op<"return", [Pure, Terminator]> {
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

//===----------------------------------------------------------------------===//
// Collectives (inside sdy.manual_computation; JAX prints them generically)
//===----------------------------------------------------------------------===//

// Groups and pairs are lists of partition ids: mesh positions in row-major
// order. The importer decodes them back into mesh axes.

def Hlo_AllReduceOp : Hlo_Op<"all_reduce", [SingleBlock]> {
  let summary = "Reduces operands across each replica group";
  let arguments = (ins Variadic<Hlo_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Hlo_ChannelHandleAttr>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
}

def Hlo_ReduceScatterOp : Hlo_Op<"reduce_scatter", [SingleBlock]> {
  let summary = "Reduces across each group and scatters along a dimension";
  let arguments = (ins Hlo_Tensor:$operand, I64Attr:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Hlo_ChannelHandleAttr>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Hlo_Tensor);
  let regions = (region SizedRegion<1>:$computation);
}

def Hlo_AllGatherOp : Hlo_Op<"all_gather"> {
  let summary = "Concatenates each group's operands along a dimension";
  let arguments = (ins Variadic<Hlo_Tensor>:$operands, I64Attr:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Hlo_ChannelHandleAttr>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<Hlo_Tensor>);
}

def Hlo_AllToAllOp : Hlo_Op<"all_to_all"> {
  let summary = "Splits, exchanges within each group and concatenates";
  let arguments = (ins Variadic<Hlo_Tensor>:$operands,
                       I64Attr:$split_dimension, I64Attr:$concat_dimension,
                       I64Attr:$split_count, I64ElementsAttr:$replica_groups,
                       OptionalAttr<Hlo_ChannelHandleAttr>:$channel_handle);
  let results = (outs Variadic<Hlo_Tensor>);
}

def Hlo_CollectivePermuteOp : Hlo_Op<"collective_permute"> {
  let summary = "Sends each source's operand to its target";
  let arguments = (ins Hlo_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<Hlo_ChannelHandleAttr>:$channel_handle);
  let results = (outs Hlo_Tensor);
}

def Hlo_PartitionIdOp : Hlo_Op<"partition_id", [Pure]> {
  let summary = "This device's partition id (its row-major mesh position)";
  let results = (outs RankedTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Hlo_OptimizationBarrierOp : Hlo_Op<"optimization_barrier", [Pure]> {
  let summary = "Returns its operands (a scheduling barrier for XLA)";
  let arguments = (ins Variadic<Hlo_Tensor>:$operand);
  let results = (outs Variadic<Hlo_Tensor>:$result);
  let assemblyFormat = [{
    attr-dict ($operand^ `:` custom<PairedTypes>(type($operand), type($result)))?
  }];
}

//===----------------------------------------------------------------------===//
// Control flow (fori_loop, scan, while_loop, cond, switch)
//===----------------------------------------------------------------------===//

def Hlo_WhileOp : Hlo_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "Runs body while cond holds, on loop-carried values";
  let description = [{
    `stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<4xf32>
    cond { ... stablehlo.return %p : tensor<i1> } do { ...
    stablehlo.return %i1, %x1 : tensor<i32>, tensor<4xf32> }`
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$operand);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
}

def Hlo_IfOp : Hlo_Op<"if", [RecursiveMemoryEffects]> {
  let summary = "Runs one of two regions on a boolean";
  let arguments = (ins RankedTensorOf<[I1]>:$pred);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
}

def Hlo_CaseOp : Hlo_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "Runs the index-th region (the last one when out of range)";
  let arguments = (ins RankedTensorOf<[I32]>:$index);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
}

//===----------------------------------------------------------------------===//
// Indexing (x[idx], jnp.take, dynamic slices)
//===----------------------------------------------------------------------===//

def Hlo_GatherOp : Hlo_Op<"gather", [Pure]> {
  let summary = "Slices of the operand at positions read from indices";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$start_indices,
                       Hlo_GatherDimensionNumbersAttr:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs Hlo_Tensor);
}

def Hlo_ScatterOp : Hlo_Op<"scatter", [RecursiveMemoryEffects,
                                       SameVariadicOperandSize]> {
  let summary = "Combines update windows into the operand at indices";
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, Hlo_Tensor:$scatter_indices,
                       Variadic<Hlo_Tensor>:$updates,
                       Hlo_ScatterDimensionNumbersAttr:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<Hlo_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasVerifier = 1;
}

def Hlo_DynamicSliceOp : Hlo_Op<"dynamic_slice", [Pure]> {
  let summary = "A slice at run-time start indices (clamped into range)";
  let arguments = (ins Hlo_Tensor:$operand, Variadic<Hlo_Tensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<VariadicOperandWithAttribute>($start_indices)
    `sizes` `=` custom<Dims>($slice_sizes) attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_DynamicUpdateSliceOp : Hlo_Op<"dynamic_update_slice", [Pure]> {
  let summary = "The operand with update written at run-time indices";
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$update,
                       Variadic<Hlo_Tensor>:$start_indices);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// custom_call (GSPMD's @Sharding)
//===----------------------------------------------------------------------===//

def Hlo_CustomCallOp : Hlo_Op<"custom_call"> {
  let summary = "A call to a backend function, by name";
  let description = [{
    `stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"}
    : (tensor<8xf32>) -> tensor<8xf32>`. The importer knows `@Sharding`
    (GSPMD's sharding constraint); every other target is an error.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$call_target_name,
                       OptionalAttr<BoolAttr>:$has_side_effect,
                       OptionalAttr<AnyAttr>:$backend_config,
                       OptionalAttr<AnyAttr>:$api_version,
                       OptionalAttr<AnyAttr>:$called_computations,
                       OptionalAttr<AnyAttr>:$operand_layouts,
                       OptionalAttr<AnyAttr>:$result_layouts,
                       OptionalAttr<AnyAttr>:$output_operand_aliases);
  let results = (outs Variadic<AnyType>);
  let hasCustomAssemblyFormat = 1;
}

#endif // TRELLIS_IMPORT_STABLEHLO_OPS_TD
