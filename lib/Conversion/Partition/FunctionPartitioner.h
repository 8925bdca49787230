//===- FunctionPartitioner.h - One function's partitioning ------*- C++ -*-===//
//
// Private to lib/Conversion/Partition: the state of partitioning one
// function (the local block and Layout of every global value) and its
// methods, which live in one file per job:
//
//   Partition.cpp    the pass, the function-level driver and the per-op
//                    dispatch
//   LocalValues.cpp  local blocks of global values: reshards, fresh
//                    destinations, clones on local operands
//   RuleOps.cpp      ops with a sharding rule: which axes split which
//                    factor, and the cheaper of two plans
//   LocalOps.cpp     one op re-emitted on local blocks through its
//                    ShardingRuleOpInterface, and the replicated
//                    fallback for ops without a rule
//   RegionOps.cpp    scf.for/while/if, shard_map and auto/explicit axes
//   Halo.cpp         operands read through windows of split loops
//                    (convolutions, stencils): halo exchange
//   Roll.cpp         rotations of a split dimension (jnp.roll)
//   Concat.cpp       concatenations along a split dimension
//   Uneven.cpp       factors split over axes that do not divide them:
//                    which may be, and masking their padding in reductions
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_CONVERSION_PARTITION_FUNCTIONPARTITIONER_H
#define TRELLIS_LIB_CONVERSION_PARTITION_FUNCTIONPARTITIONER_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"
#include "lib/Conversion/Partition/Resharder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <string>

namespace mlir::trellis::partition {

/// The sharding an op result or argument is meant to have: the
/// `trellis.sharding` attribute (auto propagation, user hints) or else the
/// type's encoding (explicit mode). Null means replicated.
ShardingAttr declaredSharding(Value value);

/// Splits each mesh axis that shardings in `module` name sub-axes of into
/// mesh axes, one per part, and rewrites the shardings to name them
/// (RefineMeshes.cpp). Fails, with an error, where it cannot.
LogicalResult refineMeshes(ModuleOp module);

/// Strips the sharding encoding: local types are plain tensors.
Type plain(Type type);

/// Whether `value` is a fresh destination the partitioner can rebuild in
/// any layout: tensor.empty, or a linalg.fill of one (whatever its type's
/// sharding). Narrower than InferShardings' isUnshardedFreshInit, which
/// takes any linalg op without tensor inputs but only unsharded results.
bool isEmptyOrFillOfEmpty(Value value);

/// The mesh axes splitting each factor of an op's sharding rule.
using FactorAxes = SmallVector<SmallVector<StringAttr>>;

/// A window (ShardingRule::windows) whose loop the partitioner split. The
/// device computing the loop's block [o0, o0 + block) holds the elements
/// [stride * o0 + shift, stride * o0 + shift + length) of the dimension.
struct SplitWindow {
  WindowDim window;
  SmallVector<StringAttr> axes;
  int64_t devices; ///< the product of the axes' sizes
  int64_t block;   ///< the loop's block
  /// The window's first offset when the local op's indexing maps can be
  /// shifted by it (linalg.generic), else 0.
  int64_t shift;
  int64_t length() const {
    return window.stride * (block - 1) + window.maxOffset - shift + 1;
  }
};

/// One reshard the partitioner inserted, in words (`report-reshards`).
struct ReshardEntry {
  std::string value;    ///< what was moved
  std::string consumer; ///< what it was moved for
  std::string from, to; ///< the layouts
  std::string has;      ///< where the value's sharding came from, if known
  std::string wanted;   ///< where the consumer's came from, if known
  int64_t bytes = 0;    ///< sent per device, ring estimates
  SmallVector<std::string> collectives;
  /// The ops the reshard made (until the function is done: unread ones are
  /// erased, and a collective prices itself once it sees its mesh).
  SmallVector<Operation *> ops;
};

/// Rewrites one function with shardings into one fully-manual shard_map.
class FunctionPartitioner {
public:
  FunctionPartitioner(func::FuncOp func, MeshOp mesh)
      : func(func), mesh(mesh), b(func.getContext()), resharder(b, mesh) {}

  LogicalResult run();
  /// Records every reshard in `log` from now on.
  void logReshardsTo(std::vector<ReshardEntry> *log) { reshardLog = log; }

private:
  // The steps of run() (Partition.cpp).
  /// The layout of each argument (replicated for scalars, and along
  /// dimensions split unevenly, which are padded and sliced inside); fails,
  /// with an error, on an argument the partitioner cannot take.
  FailureOr<SmallVector<Layout>> argumentLayouts(Block &oldBody);
  /// The layout of each returned value: its declared sharding (its uneven
  /// dimensions replicated: they cross the shard_map whole), never
  /// partial.
  FailureOr<SmallVector<Layout>> returnLayouts(func::ReturnOp ret);
  /// Builds, in `entry`, the shard_map over every axis with the arguments
  /// as inputs, and maps the old arguments to its body's; leaves the
  /// builder in that body.
  spmd::ShardMapOp createShardMap(Block *entry, Block &oldBody,
                                  ArrayRef<Layout> argLayouts,
                                  ArrayRef<Layout> resultLayouts);

  LogicalResult partitionBlock(Block &block);
  LogicalResult partitionOp(Operation *op);
  LogicalResult partitionRuleOp(Operation *op, const ShardingRule &rule);

  // The steps of partitionRuleOp (RuleOps.cpp).
  /// Factor axes after the reduction factors took their operands' axes
  /// (except `banned` ones) and the parallel factors gave up the axes the
  /// reductions use (those come back by reduce-scatter); `reduced` lists
  /// the axes the reductions keep.
  struct FactorPlan {
    FactorAxes factorAxes;
    SmallVector<StringAttr> reduced;
  };
  void takeResultAxes(Operation *op, const ShardingRule &rule,
                      FactorAxes &factorAxes, SmallVector<bool> &assigned);
  FactorPlan makePlan(Operation *op, const ShardingRule &rule,
                      const FactorAxes &factorAxes, ArrayRef<bool> assigned,
                      bool combinable,
                      const llvm::SmallDenseSet<StringAttr> &banned);
  /// The plan that keeps the reductions' axes, or the one that gathers
  /// their operands over the axes the results want, whichever moves fewer
  /// bytes.
  FactorPlan choosePlan(Operation *op, const ShardingRule &rule,
                        const FactorAxes &factorAxes, ArrayRef<bool> assigned,
                        bool combinable);
  /// Drops axes that are used twice (or `carried`), that do not divide
  /// their factor when it may not be split unevenly, or that split a minor
  /// factor of a compound dimension.
  void fitAxesToFactors(Operation *op, const ShardingRule &rule,
                        ArrayRef<StringAttr> carried, FactorAxes &factorAxes);

  // Factors split over axes that do not divide them (Uneven.cpp).
  /// Which factors of `op`'s rule may be split unevenly: not in a
  /// compound dimension, not read through a window of a padded tensor
  /// (windowsFitUnevenly decides the others), and, when reduced, only in
  /// a structured op (which can mask the padding).
  SmallVector<bool> unevenFactors(Operation *op, const ShardingRule &rule);
  /// Whether `op`'s windows of factor `f` (none: true) can be read by halo
  /// exchange when `f` is split unevenly into `parts`.
  bool windowsFitUnevenly(Operation *op, const ShardingRule &rule, int64_t f,
                          int64_t parts);
  /// For each reduction factor `factorAxes` split unevenly, the index
  /// (a local loop index) where its padding starts on this device. A
  /// contraction's `operands` are zeroed from there and nothing is
  /// returned; for other ops the returned pairs go to maskPayload.
  FailureOr<SmallVector<std::pair<int64_t, Value>>>
  maskPaddedReductions(Operation *op, const ShardingRule &rule,
                       const FactorAxes &factorAxes,
                       SmallVector<Value> &operands);
  /// `local`, made a linalg.generic if it is not one, whose outputs keep
  /// their value at the iterations past each (loop, start) of `limits`:
  /// its new results.
  FailureOr<SmallVector<Value>>
  maskPayload(Operation *local, ArrayRef<std::pair<int64_t, Value>> limits);
  /// The op's operands resharded to the layouts its factors give them.
  SmallVector<Value> localOperands(Operation *op, const ShardingRule &rule,
                                   const FactorAxes &factorAxes,
                                   ArrayRef<StringAttr> carried);
  /// The local type and layout of each result (partial over the reduction
  /// factors' axes and the `carried` ones).
  /// The windows of `op`'s rule whose loops `factorAxes` split.
  SmallVector<SplitWindow> splitWindows(Operation *op, const ShardingRule &rule,
                                        const FactorAxes &factorAxes);
  /// Operand `k` in layout `need`, except that each dimension read
  /// through a window of a split loop holds this device's window.
  Value localWindowed(Operation *op, const ShardingRule &rule,
                      const FactorAxes &factorAxes, int64_t k,
                      const Layout &need);
  /// The local windows of `operand` (built once per function and windows).
  Value unionWindows(Operation *op, Value operand,
                     ArrayRef<SplitWindow> windows, const Layout &need);
  /// Each device's windows sliced out of `local`, whose windowed
  /// dimensions are whole.
  Value sliceWindows(Location loc, Value local, ArrayRef<SplitWindow> windows);
  /// Shifts the indexing maps of `local`, the local op, by the windows'
  /// shifts: its windowed operands start at their first offset.
  void shiftWindowMaps(Operation *local, ArrayRef<SplitWindow> windows);
  /// The windows of `operand` built from its source's blocks and the
  /// neighbours' halos, or null when the source is not split so.
  Value haloWindows(Value operand, ArrayRef<SplitWindow> windows,
                    const Layout &need);
  void localResults(Operation *op, const ShardingRule &rule,
                    const FactorAxes &factorAxes, ArrayRef<StringAttr> carried,
                    std::optional<PartialKind> kind,
                    SmallVector<Type> &resultTypes,
                    SmallVector<Layout> &resultLayouts);
  /// Maps each result to its local block, resharded to its desired layout
  /// unless it may stay partial.
  void bindResults(Operation *op, ArrayRef<Value> results,
                   ArrayRef<Layout> resultLayouts);
  int64_t planBytes(Operation *op, const ShardingRule &rule,
                    ArrayRef<SmallVector<StringAttr>> factorAxes,
                    ArrayRef<StringAttr> reduced);
  LogicalResult partitionFallback(Operation *op);
  /// A roll (the concatenation x[N - s:] ++ x[:N - s]) wanted split along
  /// its dimension, by passing block ends along the ring (Roll.cpp); false
  /// when `concat` is no such roll.
  FailureOr<bool> partitionRoll(tensor::ConcatOp concat);
  /// A concatenation wanted split along its dimension, its blocks
  /// assembled from pieces of the operands' blocks when that moves fewer
  /// bytes than gathering them (Concat.cpp); false otherwise.
  FailureOr<bool> partitionSplitConcat(tensor::ConcatOp concat);
  LogicalResult partitionFor(scf::ForOp op);
  LogicalResult partitionIf(scf::IfOp op);
  LogicalResult partitionWhile(scf::WhileOp op);
  /// The one layout a loop-carried tensor keeps: its declared sharding,
  /// else its init's, never partial.
  Layout carryLayout(Value result, Value init);
  LogicalResult partitionShardMap(spmd::ShardMapOp op);
  LogicalResult partitionAxisRegion(Operation *op);

  /// The layout a global tensor value is meant to have.
  Layout desiredLayout(Value global) {
    auto type = cast<RankedTensorType>(global.getType());
    return Layout::fromSharding(declaredSharding(global), type.getRank());
  }
  /// The local block of `global` in layout `layout`.
  Value localIn(Value global, const Layout &layout);
  /// A fresh destination (tensor.empty, possibly filled) built directly in
  /// `layout`, or null if `global` is not one.
  Value materializeFresh(Value global, const Layout &layout);
  /// Runs `build` with the tensors `op`'s regions capture mapped to their
  /// whole (replicated) local blocks: a region that reads a tensor defined
  /// outside it indexes it globally.
  void withCapturedWhole(Operation *op, function_ref<void()> build);
  /// Clones `op` with its operands replaced by `operands` (an operand used
  /// twice may need two layouts, so this is not a mapping).
  Operation *cloneOn(Operation *op, ValueRange operands);
  SmallVector<StringAttr> carriedPartialSums(Operation *op);
  void setLocal(Value global, Value local, const Layout &layout) {
    mapping.map(global, local);
    layouts[global] = layout;
  }
  /// `op` built on local `operands` with local `resultTypes` by its
  /// ShardingRuleOpInterface, its factors split over `factorAxes`: its
  /// local results, or failure when it cannot be built so.
  FailureOr<SmallVector<Value>>
  createLocalOp(Operation *op, ValueRange operands, ArrayRef<Type> resultTypes,
                const FactorAxes &factorAxes, const ShardingRule &rule,
                ArrayRef<std::pair<int64_t, Value>> payloadMasks = {});

  func::FuncOp func;
  MeshOp mesh;
  OpBuilder b;
  Resharder resharder;
  IRMapping mapping;
  DenseMap<Value, Layout> layouts;
  /// Arguments split unevenly: the block and layout they crossed the
  /// shard_map in (their uneven dimensions whole).
  DenseMap<Value, std::pair<Value, Layout>> boundaryBlocks;
  std::map<std::pair<const void *, std::string>, Value> reshardCache;
  /// `report-reshards`: where reshards are recorded, and the op being
  /// partitioned (null: the function's return).
  std::vector<ReshardEntry> *reshardLog = nullptr;
  Operation *consumer = nullptr;
  /// With no consumer: which function result is being returned.
  int64_t returning = -1;
  void logReshard(Value global, const Layout &from, const Layout &to,
                  llvm::iterator_range<Block::iterator> created);
  /// Once the function is partitioned: drops the logged reshards that were
  /// erased unread and prices the others.
  void finishReshardLog();
};

} // namespace mlir::trellis::partition

#endif // TRELLIS_LIB_CONVERSION_PARTITION_FUNCTIONPARTITIONER_H
