//===- Importer.h - The StableHLO importer's state and helpers --*- C++ -*-===//
//
// Private to lib/Import: the importer is one class whose methods live in
// one file per family (shardings and the driver, compute ops, manual
// computations, control flow).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_IMPORT_IMPORTER_H
#define TRELLIS_LIB_IMPORT_IMPORTER_H

#include "lib/Import/ImportDialects.h"

#include "dialects/trellis/IR/TrellisOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::trellis::import {

inline constexpr StringLiteral kSdySharding = "sdy.sharding";
inline constexpr StringLiteral kTrellisSharding = "trellis.sharding";
inline constexpr StringLiteral kTrellisName = "trellis.name";

/// Whether `op` belongs to one of the import-only dialects.
bool isImportDialect(Operation *op);

/// `loc`, or where it is `loc(unknown)` (XLA prints modules and functions
/// so) a location that names `what`, so that an error there still says
/// what it is about.
inline Location describedLoc(Location loc, const Twine &what) {
  if (!isa<UnknownLoc>(loc))
    return loc;
  return NameLoc::get(StringAttr::get(loc.getContext(), what));
}

/// Checks that `op`'s operands and results are static tensors of supported
/// element types.
LogicalResult checkTypes(Operation *op);

Value emptyOf(OpBuilder &b, Location loc, RankedTensorType type);

/// Clones `callee`'s body at `b`'s insertion point with its arguments bound
/// to `args`; returns the values it returns.
SmallVector<Value> cloneBody(OpBuilder &b, func::FuncOp callee,
                             ValueRange args);

/// The scalar in a 0-d tensor: a scalar constant when the tensor is a
/// constant (so a zero init is recognisably zero), else a tensor.extract.
Value scalarOf(OpBuilder &b, Location loc, Value tensor);

/// `value` (a 0-d tensor) broadcast to `type`; other values unchanged.
Value broadcastScalar(OpBuilder &b, Location loc, Value value,
                      RankedTensorType type);

/// Whether `values` holds each of 0..bound-1 at most once, all in range.
bool areDistinctDims(ArrayRef<int64_t> values, int64_t bound);

/// Checks the element types of a contraction `op` (dot_general,
/// convolution) of `lhs` and `rhs` elements into `result` elements: one
/// operand type, not booleans, a result of the same kind at least as wide.
LogicalResult checkContractionTypes(Operation *op, Type lhs, Type rhs,
                                    Type result);

/// The payload of a contraction `op`'s linalg.generic on (lhs element, rhs
/// element, accumulator): `acc + ext(a) * ext(b)` in the accumulator's
/// type, unsigned operands of `op` extended with zeros.
Value emitMultiplyAdd(OpBuilder &b, Location loc, Operation *op,
                      ValueRange args);

/// Reads a window attribute with one positive entry per dimension of
/// `type` (window sizes, strides, dilations) into `into`, which keeps its
/// default where the attribute is absent; a located error otherwise.
LogicalResult readWindowEntries(Operation *op,
                                std::optional<ArrayRef<int64_t>> values,
                                StringRef name, RankedTensorType type,
                                SmallVectorImpl<int64_t> &into);

/// Reads an `[rank x 2]` padding attribute into `low` and `high`, which
/// keep their defaults where it is absent; a located error otherwise.
LogicalResult readWindowPadding(Operation *op,
                                std::optional<DenseIntElementsAttr> padding,
                                int64_t rank, SmallVectorImpl<int64_t> &low,
                                SmallVectorImpl<int64_t> &high);

/// `input` with each dimension `dims[i]` dilated by `dilation[i]` (that
/// many minus one `padValue`s between elements) and padded with `padValue`
/// by the non-negative parts of `low[i]` and `high[i]`: a strided
/// tensor.insert_slice into a fill, or a tensor.pad. `offsets` receive, per
/// dimension, where the specification's padded input starts in the result
/// (a negative low padding: its reads start further in).
Value dilateAndPad(OpBuilder &b, Location loc, Value input, Value padValue,
                   ArrayRef<int64_t> dims, ArrayRef<int64_t> low,
                   ArrayRef<int64_t> high, ArrayRef<int64_t> dilation,
                   SmallVectorImpl<int64_t> &offsets);

/// Emits a reducer region's ops (elementwise ops, compare, select, scalar
/// constants) on scalars: `args` stand for the block's arguments (the
/// accumulators, then the elements). Returns the values it returns; emits
/// an error at the op and fails on anything else.
FailureOr<SmallVector<Value>> emitScalarRegion(OpBuilder &b, Operation *owner,
                                               Block &block, ValueRange args);

/// Replaces every func.call under `root` (and in what it inlines) by a
/// copy of its callee's body, adding the callees to `inlined`; `where`
/// names `root` in errors (a callee without a body, calls nested too deep).
LogicalResult inlineCalls(Operation *root, ModuleOp module,
                          llvm::SetVector<func::FuncOp> &inlined,
                          StringRef where);

/// Whether `text` is GSPMD's `{manual}` sharding.
bool isGspmdManualText(StringRef text);

struct ManualRegion;

/// Rewrites one module, op by op in program order.
class Importer {
public:
  explicit Importer(ModuleOp module) : module(module), b(module.getContext()) {}

  LogicalResult run();

private:
  /// run's steps; `current` is kept at the op being imported.
  LogicalResult runImport(Operation *&current);
  /// Verifies the imported module; an error is reported again at its
  /// location as the import's own.
  LogicalResult verifyImported();
  /// Rewrites Shardy's round-trip strings (`xla.sdy.*` frontend
  /// attributes and custom calls) back into sdy ops and attributes.
  LogicalResult importSdyRoundTrip();
  LogicalResult importModuleAttributes();
  LogicalResult importMesh(sdy::MeshOp op);
  FailureOr<ShardingAttr>
  importSharding(Location where, sdy::TensorShardingAttr sharding, Type type);
  LogicalResult importSignature(func::FuncOp func);
  LogicalResult importOp(Operation *op);
  LogicalResult importResultShardings(Operation *op,
                                      MutableArrayRef<Value> results);

  FailureOr<Value> importElementwise(Operation *op);
  FailureOr<Value> importConstant(hlo::ConstantOp op);
  FailureOr<Value> importIota(hlo::IotaOp op);
  FailureOr<Value> importBroadcastInDim(hlo::BroadcastInDimOp op);
  FailureOr<Value> importReshape(hlo::ReshapeOp op);
  FailureOr<Value> importTranspose(hlo::TransposeOp op);
  FailureOr<Value> importReverse(hlo::ReverseOp op);
  FailureOr<Value> importSlice(hlo::SliceOp op);
  FailureOr<Value> importConcatenate(hlo::ConcatenateOp op);
  FailureOr<Value> importPad(hlo::PadOp op);
  FailureOr<Value> importDotGeneral(hlo::DotGeneralOp op);
  FailureOr<Value> importConvolution(hlo::ConvolutionOp op);
  FailureOr<SmallVector<Value>> importReduce(hlo::ReduceOp op);
  FailureOr<Value> importReduceWindow(hlo::ReduceWindowOp op);
  FailureOr<Value> importSelectAndScatter(hlo::SelectAndScatterOp op);
  FailureOr<Value> importConstraint(Operation *op, Value input,
                                    sdy::TensorShardingAttr sharding);
  FailureOr<SmallVector<Value>>
  importManualComputation(sdy::ManualComputationOp op);
  /// Inlines the calls in manual computations' bodies (JAX calls a private
  /// function for jax.nn.relu and every jitted helper), so that what they
  /// compute, collectives included, is imported inside the shard_map;
  /// private callees left without calls are dropped.
  LogicalResult inlineManualCalls();
  FailureOr<SmallVector<Value>> importCollective(Operation *op);
  /// Types each imported shard_map's body for device variance (on a copy);
  /// where that fails, warns and sets check_vma = false: a StableHLO
  /// program does not say whether JAX checked variance, and StableHLO runs
  /// it either way.
  void relaxVarianceChecks();
  /// Makes every unsigned integer type signless, recording on each
  /// StableHLO op which of its operands and results were unsigned.
  LogicalResult makeSignless();
  FailureOr<Value> importPartitionId(hlo::PartitionIdOp op);
  LogicalResult importGspmdMesh();
  /// The Trellis sharding of GSPMD string `text` on a value of `type`;
  /// null when the module has no GSPMD mesh (every sharding replicated).
  FailureOr<ShardingAttr> gspmdSharding(Location loc, StringRef text,
                                        Type type);
  FailureOr<SmallVector<Value>> importCustomCall(hlo::CustomCallOp op);
  /// Moves each GSPMD manual region (@SPMDFullToShardShape ...
  /// @SPMDShardToFullShape) into an spmd.shard_map, before import.
  LogicalResult outlineGspmdManualRegions();
  LogicalResult outlineRegion(ManualRegion &region,
                              llvm::SetVector<func::FuncOp> &inlined);
  FailureOr<Attribute> gspmdSpec(Location loc, StringRef text, Type type);
  LogicalResult checkLocalShape(Operation *op, Attribute spec, Type global,
                                Type local);
  FailureOr<Value> importGather(hlo::GatherOp op);
  FailureOr<SmallVector<Value>> importTopK(chlo::TopKOp op);
  FailureOr<Value> importScatter(hlo::ScatterOp op);
  FailureOr<Value> importDynamicSlice(hlo::DynamicSliceOp op);
  FailureOr<Value> importDynamicUpdateSlice(hlo::DynamicUpdateSliceOp op);
  FailureOr<SmallVector<Value>> importWhile(hlo::WhileOp op);
  FailureOr<SmallVector<Value>> importGeneralWhile(hlo::WhileOp op);
  FailureOr<SmallVector<Value>> importIf(hlo::IfOp op);
  FailureOr<SmallVector<Value>> importCase(hlo::CaseOp op);

  ModuleOp module;
  OpBuilder b;
  /// Mesh sizes by name, for checking shardings.
  llvm::StringMap<int64_t> meshDevices;
  /// Ops of the original module erased before their turn (the condition of
  /// a while that became an scf.for): skipped.
  llvm::DenseSet<Operation *> erased;
  /// The mesh inferred from GSPMD shardings, and the axes per dimension of
  /// each sharding string.
  /// mhlo.num_partitions, when the module gives it.
  std::optional<int64_t> numPartitions;
  FlatSymbolRefAttr gspmdMesh;
  llvm::StringMap<SmallVector<SmallVector<int64_t>>> gspmdAxes;
  SmallVector<int64_t> gspmdAxisSizes;
};

} // namespace mlir::trellis::import

#endif // TRELLIS_LIB_IMPORT_IMPORTER_H
