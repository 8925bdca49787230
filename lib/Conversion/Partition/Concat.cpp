//===- Concat.cpp - Concatenations along a split dimension ----------------===//
//
// A tensor.concat whose result is wanted split along the concatenated
// dimension needs, op by op, that dimension whole in every operand: each is
// gathered, concatenated, and the result sliced. Each device's block of the
// result lies in one or two operands' blocks, though, so it can instead be
// assembled from the pieces of the operands' blocks that cover it, each
// received from a device holding it (the Resharder's block routing over
// several sources), when that moves fewer bytes.
//
//===----------------------------------------------------------------------===//

#include "lib/Conversion/Partition/FunctionPartitioner.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::partition;

FailureOr<bool>
FunctionPartitioner::partitionSplitConcat(tensor::ConcatOp concat) {
  RankedTensorType type = concat.getResultType();
  const int64_t dim = concat.getDim();
  Layout want = desiredLayout(concat.getResult());
  if (!type.hasStaticShape() || want.dims[dim].empty() ||
      !want.unreduced.empty() || !resharder.divides(type, want))
    return false;
  // What the op-by-op path sends: each operand moved to the result's
  // layout with `dim` whole (the result is then sliced locally).
  Layout whole = want;
  whole.dims[dim].clear();
  Location loc = concat.getLoc();
  SmallVector<Resharder::RouteSource> sources;
  int64_t offset = 0, budget = 0;
  for (Value operand : concat.getInputs()) {
    auto operandType = cast<RankedTensorType>(operand.getType());
    auto it = layouts.find(operand);
    Layout from = it == layouts.end()
                      ? Layout::replicated(operandType.getRank())
                      : it->second;
    from.unreduced.clear();
    // An argument split unevenly is at hand whole in those dimensions.
    if (auto boundary = boundaryBlocks.find(operand);
        boundary != boundaryBlocks.end())
      from = boundary->second.second;
    if (!operandType.hasStaticShape() || !resharder.divides(operandType, from))
      return false;
    Value local = localIn(operand, from);
    // Saturating: a reshard without a price (Resharder::priced) makes the
    // budget unbounded.
    if (llvm::AddOverflow(
            budget,
            resharder.reshardBytes(loc, local, operandType, from, whole),
            budget))
      budget = std::numeric_limits<int64_t>::max();
    SmallVector<int64_t> at(type.getRank(), 0);
    at[dim] = offset;
    sources.push_back({local, operandType, from, at});
    offset += operandType.getDimSize(dim);
  }
  Value result = resharder.routeBlocks(loc, sources, type, want, budget);
  if (!result)
    return false;
  setLocal(concat.getResult(), result, want);
  return true;
}
