//===- ShardingUtils.h - Helpers on meshes and shardings --------*- C++ -*-===//
//
// Lookups and checks shared by the trellis and spmd dialects and their
// passes: finding a mesh, checking a sharding or a spec against a mesh and a
// shape, stripping axes from shardings, and printing JAX-style types such as
// `float32[4@X,4@Y]`.
//
//===----------------------------------------------------------------------===//

#ifndef DIALECTS_TRELLIS_IR_SHARDINGUTILS_H
#define DIALECTS_TRELLIS_IR_SHARDINGUTILS_H

#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

namespace mlir {
class SymbolTableCollection;
namespace trellis {

/// Finds the mesh `meshRef` from `from` (nearest symbol table).
MeshOp lookupMesh(Operation *from, FlatSymbolRefAttr meshRef);

/// The one mesh the shardings in `func` refer to (in argument and result
/// attributes and types, sharding_constraint ops, `trellis.sharding` op
/// attributes and op result types), else the mesh of an axis-type region
/// in it (a shard_map, auto_axes or explicit_axes); null when there is
/// none. Fails, with an error at `func`, when they name more than one mesh
/// or an unknown one.
FailureOr<MeshOp> findFunctionMesh(FunctionOpInterface func);

/// The `#trellis.sharding` encoding of `type`, or null.
ShardingAttr getShardingEncoding(Type type);

/// `type` with its encoding replaced by `sharding`. A sharding that splits no
/// dimension and has no replicated/unreduced axes is dropped: in explicit
/// mode an unannotated tensor is replicated, and both spellings must be the
/// same type.
RankedTensorType withSharding(RankedTensorType type, ShardingAttr sharding);

/// `sharding` without any of `axes` (in dims, replicated and unreduced).
ShardingAttr dropAxes(ShardingAttr sharding, ArrayRef<StringAttr> axes);

/// `type` with `axes` removed from its sharding encoding (canonicalised).
Type dropAxesFromType(Type type, ArrayRef<StringAttr> axes);

/// Checks that `axes` (from the sharding/spec of one dimension, or a
/// collective) exist in `mesh`. `what` names the user of the axes in the
/// message.
LogicalResult verifyAxesExist(ArrayRef<StringAttr> axes, MeshOp mesh,
                              function_ref<InFlightDiagnostic()> emitError);

/// Checks `sharding` against `mesh` and, if given, the tensor `shape`: every
/// axis exists and, unless `allowUneven`, each static dimension is
/// divisible by the product of its axes' sizes. Shardings the partitioner
/// reads (arguments, results, constraints) may be uneven: it pads them
/// (docs/Partitioning.md); types and shard_map specs may not.
LogicalResult verifyShardingForShape(
    ShardingAttr sharding, std::optional<ArrayRef<int64_t>> shape, MeshOp mesh,
    function_ref<InFlightDiagnostic()> emitError, bool allowUneven = false);

/// Checks every `#trellis.sharding` encoding in the types of values and
/// function signatures nested under `root` against the mesh it names.
/// Reports at the op whose type is wrong.
LogicalResult verifyShardingEncodings(Operation *root);

/// The type of mesh axis `axis` of `mesh` as seen by `op`: the type given by
/// the innermost enclosing op that switches it (AxisTypeRegionInterface), or
/// the type the mesh declares.
AxisType getAxisTypeAt(Operation *op, MeshOp mesh, StringRef axis);

/// The type of mesh axis `axis` where `value` lives: for a block argument,
/// inside its block's parent op (an auto_axes body sees that op's types);
/// for a result, where its op is.
AxisType getAxisTypeOf(Value value, MeshOp mesh, StringRef axis);

/// Bytes one element of `elementType` takes in memory and on the wire: 8
/// for index (which has no bit width), whole bytes for others (at least 1).
int64_t elementBytes(Type elementType);

/// JAX's dtype name of `elementType`: `float32`/`int32` (or `f32`/`i32` when
/// `shortName`).
std::string formatJaxDtype(Type elementType, bool shortName);

/// JAX's type string of `type`, such as `float32[4@X,4@Y]` or `i32[4@X,4]`;
/// a dimension split over several axes prints as `8@(X,Y)`.
std::string formatJaxType(Type type, bool shortName = false);

/// The same for a tensor whose dimension `d` is split over `axesOf(d)`
/// (a sharding that may be illegal, so no attribute is built), without
/// unreduced axes.
std::string formatJaxType(RankedTensorType type,
                          function_ref<ArrayRef<StringAttr>(int64_t)> axesOf,
                          bool shortName);

/// Formats `axes` as a Python tuple of strings: `('Y',)` or `('X', 'Y')`.
std::string formatAxesTuple(ArrayRef<StringAttr> axes);

/// Whether `prefix` is a prefix of the axis list `list`.
bool isAxisPrefix(ArrayRef<StringAttr> prefix, ArrayRef<StringAttr> list);

/// How the axes of a tensor dimension split the factors it holds (their
/// sizes `factorSizes`, major to minor): the axes fill the factors in
/// order, every factor but the last they reach wholly (the product of its
/// axes is its size), so that the dimension's blocks are those of its
/// factors: 8 elements over `x` = 8 reshaped to 2x4 are the factors 2 and
/// 4, split over `"x":(1)2` and `"x":(2)4`. With `splitAxes`, an axis
/// that straddles two factors is split into sub-axes (SubAxes.h);
/// without, the axes then do not fit. Per factor its axes, or
/// std::nullopt when they do not fit (a dynamic factor, or a product that
/// does not divide).
std::optional<SmallVector<SmallVector<StringAttr>>>
splitAxesOverFactors(MeshOp mesh, ArrayRef<int64_t> factorSizes,
                     ArrayRef<StringAttr> axes, bool splitAxes);

/// `axes` with neighbouring parts of one mesh axis, major then minor,
/// merged: `"x":(1)2, "x":(2)4` on `x` = 8 is `"x"`.
SmallVector<StringAttr> mergeSubAxes(MeshOp mesh, ArrayRef<StringAttr> axes);

/// `file.mlir:12:8` for a file location (the file's name without its
/// directory), else the location as printed: for messages that name ops.
std::string formatShortLocation(Location loc);

/// Whether `v` is a constant zero: integer 0 or a float zero of either
/// sign, scalar or splat.
bool isZeroConstant(Value v);

} // namespace trellis
} // namespace mlir

#endif // DIALECTS_TRELLIS_IR_SHARDINGUTILS_H
