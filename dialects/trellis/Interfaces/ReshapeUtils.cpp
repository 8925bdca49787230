//===- ReshapeUtils.cpp - Questions about tensor reshapes -----------------===//

#include "dialects/trellis/Interfaces/ReshapeUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

bool mlir::trellis::isWellFormedReassociation(
    ArrayRef<ReassociationIndices> groups, int64_t expandedRank) {
  if (groups.empty())
    return true;
  int64_t next = 0;
  for (const ReassociationIndices &group : groups) {
    if (group.empty())
      return false;
    for (int64_t d : group)
      if (d != next++)
        return false;
  }
  return next == expandedRank;
}

bool mlir::trellis::hasWellFormedReassociation(Operation *op) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return isWellFormedReassociation(expand.getReassociationIndices(),
                                     expand.getResultType().getRank());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return isWellFormedReassociation(collapse.getReassociationIndices(),
                                     collapse.getSrcType().getRank());
  return false;
}
