//===- SpmdOps.h - shard_map and collectives --------------------*- C++ -*-===//

#ifndef DIALECTS_SPMD_IR_SPMDOPS_H
#define DIALECTS_SPMD_IR_SPMDOPS_H

#include "dialects/spmd/IR/CollectiveOpInterface.h"
#include "dialects/spmd/IR/SpmdDialect.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "dialects/trellis/Interfaces/ShardingRule.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/spmd/IR/SpmdOps.h.inc"

#endif // DIALECTS_SPMD_IR_SPMDOPS_H

namespace mlir::spmd {

/// Seed 001's typing rule for collective `op` (a psum-like, pvary, gather,
/// scatter, all_to_all or ppermute op): given the manual axes its operand
/// varies over, the axes its result varies over (in the order of
/// `operandVary`, new axes appended). Fails, explaining why in `reason`,
/// when the operand's variance is wrong for the op: reductions, gathers,
/// scatters, all_to_all and ppermute need an operand varying over all their
/// axes; pvary and pscatter need one invariant over all of them.
FailureOr<SmallVector<StringAttr>>
inferCollectiveVariance(Operation *op, ArrayRef<StringAttr> operandVary,
                        std::string &reason);

/// Whether `op` starts an asynchronous collective (spmd.ppermute_start,
/// all_gather_start, psum_scatter_start, psum_start or all_to_all_start).
bool isCollectiveStart(Operation *op);

/// Builds at `b` the start of the asynchronous form of `collective` (an
/// spmd.all_gather, psum_scatter, psum or all_to_all) on `operand`, with
/// the collective's attributes, and returns its future.
Value buildCollectiveStart(OpBuilder &b, Operation *collective, Value operand);

/// Seed 001's out_specs rule for output #`index` of `op`, whose yielded value
/// `yielded` varies over `vary`: an output spec that omits one of the
/// shard_map's own manual axes promises equal blocks along it, so the value
/// must not vary there. Emits a located error naming the output, the axes and
/// the fix, and fails, when it may; always succeeds with `check_vma = false`.
LogicalResult verifyOutputVariance(ShardMapOp op, unsigned index,
                                   ArrayRef<StringAttr> vary, Value yielded);

/// The shard_map when `func`'s body is that shard_map, manual over every
/// axis of its mesh, and the return; null otherwise.
ShardMapOp getWholeFunctionShardMap(FunctionOpInterface func);

/// An axis set as diagnostics spell it: `{"x", "y"}`.
std::string formatAxisSet(ArrayRef<StringAttr> axes);

/// A shape as diagnostics spell it: `[4, ?]`.
std::string formatShape(ArrayRef<int64_t> shape);

/// `x / n` elementwise, for a floating-point tensor `x` (the transposes of
/// means and of the naive pscatter).
Value buildDivideBy(OpBuilder &b, Location loc, Value x, int64_t n);

} // namespace mlir::spmd
