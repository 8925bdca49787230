//===- LinalgUtils.cpp - Questions about linalg ops -----------------------===//

#include "dialects/trellis/IR/LinalgUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

bool mlir::trellis::isPlainContraction(linalg::LinalgOp op,
                                       bool allowExtensions) {
  if (!linalg::isaContractionOpInterface(op))
    return false;
  if (!isa<linalg::GenericOp>(op.getOperation()))
    return true;
  Block &body = *op.getBlock();
  if (body.getNumArguments() != 3)
    return false;
  auto yield = body.getTerminator();
  Operation *add = yield->getNumOperands() == 1
                       ? yield->getOperand(0).getDefiningOp()
                       : nullptr;
  if (!add || !isa<arith::AddFOp, arith::AddIOp>(add) ||
      add->getBlock() != &body)
    return false;
  Value acc = body.getArgument(2);
  Value product = add->getOperand(0) == acc   ? add->getOperand(1)
                  : add->getOperand(1) == acc ? add->getOperand(0)
                                              : Value();
  Operation *mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || !isa<arith::MulFOp, arith::MulIOp>(mul) ||
      mul->getBlock() != &body)
    return false;
  // A factor: a block argument, or (allowExtensions) its extension.
  unsigned ops = 2;
  auto source = [&](Value v) -> Value {
    if (allowExtensions)
      if (Operation *ext = v.getDefiningOp())
        if (isa<arith::ExtFOp, arith::ExtSIOp>(ext) &&
            ext->getBlock() == &body) {
          ++ops;
          return ext->getOperand(0);
        }
    return v;
  };
  Value x = source(mul->getOperand(0)), y = source(mul->getOperand(1));
  Value in0 = body.getArgument(0), in1 = body.getArgument(1);
  bool factors = (x == in0 && y == in1) || (x == in1 && y == in0);
  // Nothing else in the body.
  return factors && llvm::hasNItems(body.without_terminator(), ops);
}
