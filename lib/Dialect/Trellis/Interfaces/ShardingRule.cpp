//===- ShardingRule.cpp - Factor-based sharding rules of ops --------------===//

#include "trellis/Dialect/Trellis/Interfaces/ShardingRule.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::trellis;

#include "trellis/Dialect/Trellis/Interfaces/ShardingRuleInterface.cpp.inc"

static std::string factorName(int64_t f) {
  if (f < 18)
    return std::string(1, static_cast<char>('i' + f));
  return "f" + std::to_string(f);
}

int64_t ShardingRule::majorFactor(const DimFactors &factors) const {
  for (int64_t f : factors)
    if (factorSizes[f] != 1)
      return f;
  return -1;
}

std::string ShardingRule::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto printValues = [&](ArrayRef<ValueFactors> values) {
    os << '(';
    llvm::interleaveComma(values, os, [&](const ValueFactors &value) {
      os << '[';
      llvm::interleaveComma(value, os, [&](const DimFactors &dim) {
        if (dim.empty()) {
          os << '_';
        } else if (dim.size() == 1) {
          os << factorName(dim[0]);
        } else {
          os << '(';
          llvm::interleaveComma(dim, os,
                                [&](int64_t f) { os << factorName(f); });
          os << ')';
        }
      });
      os << ']';
    });
    os << ')';
  };
  printValues(operands);
  os << " -> ";
  printValues(results);
  os << " {";
  llvm::interleaveComma(llvm::seq<int64_t>(0, numFactors()), os,
                        [&](int64_t f) {
                          os << factorName(f) << '=';
                          if (ShapedType::isDynamic(factorSizes[f]))
                            os << '?';
                          else
                            os << factorSizes[f];
                        });
  os << '}';
  auto printKind = [&](FactorKind kind, StringRef label) {
    SmallVector<int64_t> list;
    for (int64_t f = 0; f < numFactors(); ++f)
      if (factorKinds[f] == kind)
        list.push_back(f);
    if (list.empty())
      return;
    os << ' ' << label << "={";
    llvm::interleaveComma(list, os, [&](int64_t f) { os << factorName(f); });
    os << '}';
  };
  printKind(FactorKind::Reduction, "reduction");
  printKind(FactorKind::NeedReplication, "need_replication");
  // `window={#0.1=2*i+[0,2]}`: operand 0's dimension 1 reads 2 * i + 0..2.
  if (!windows.empty()) {
    os << " window={";
    llvm::interleaveComma(windows, os, [&](const WindowDim &w) {
      os << '#' << w.operand << '.' << w.dim << '=' << w.stride << '*'
         << factorName(w.factor) << "+[" << w.minOffset << ',' << w.maxOffset
         << ']';
    });
    os << '}';
  }
  return text;
}

Operation *mlir::trellis::cloneOnLocal(OpBuilder &builder, Operation *op,
                                       ValueRange operands,
                                       TypeRange resultTypes,
                                       IRMapping &mapping) {
  Operation *clone = builder.clone(*op, mapping);
  for (auto [i, local] : llvm::enumerate(operands))
    clone->setOperand(i, local);
  for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
    result.setType(type);
  return clone;
}

Value mlir::trellis::windowSource(Value operand, int64_t dim, int64_t &low) {
  low = 0;
  auto pad = operand.getDefiningOp<tensor::PadOp>();
  if (!pad || !pad.getConstantPaddingValue() || !pad.getStaticLow().size() ||
      llvm::any_of(
          llvm::concat<const int64_t>(pad.getStaticLow(), pad.getStaticHigh()),
          ShapedType::isDynamic))
    return operand;
  low = pad.getStaticLow()[dim];
  return pad.getSource();
}

FailureOr<ShardingRule> mlir::trellis::getShardingRule(Operation *op) {
  if (auto iface = dyn_cast<ShardingRuleOpInterface>(op))
    return iface.getShardingRule();
  return failure();
}
