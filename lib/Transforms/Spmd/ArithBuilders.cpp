//===- ArithBuilders.cpp - Small arith builders shared by passes ----------===//

#include "lib/Transforms/Spmd/ArithBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

Value mlir::spmd::buildAdd(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(getElementTypeOrSelf(x.getType())))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}
