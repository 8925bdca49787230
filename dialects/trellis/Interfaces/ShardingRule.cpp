//===- ShardingRule.cpp - Factor-based sharding rules of ops --------------===//

#include "dialects/trellis/Interfaces/ShardingRule.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::trellis;

#include "dialects/trellis/Interfaces/ShardingRuleInterface.cpp.inc"

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

FailureOr<ShardingRule>
mlir::trellis::parseDeclaredRule(Operation *op, StringRef text,
                                 function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&](const Twine &message) -> FailureOr<ShardingRule> {
    if (emitError)
      emitError() << "sharding rule \"" << text << "\": " << message;
    return failure();
  };
  SmallVector<StringRef> clauses;
  text.split(clauses, ';');
  auto [lhs, rhs] = clauses[0].split("->");
  if (!clauses[0].contains("->"))
    return fail("expected `operands -> results`");
  auto tensorTypes = [](TypeRange types) {
    SmallVector<RankedTensorType> out;
    for (Type type : types)
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        out.push_back(tensor);
    return out;
  };
  SmallVector<RankedTensorType> operandTypes =
      tensorTypes(op->getOperandTypes());
  SmallVector<RankedTensorType> resultTypes = tensorTypes(op->getResultTypes());
  ShardingRule rule;
  llvm::DenseMap<char, int64_t> factorOf;
  llvm::SmallSetVector<char, 8> inResults;
  // Parses one side into `out`, one entry per tensor value of `types`.
  auto parseSide = [&](StringRef side, ArrayRef<RankedTensorType> types,
                       StringRef what, bool results,
                       SmallVector<ValueFactors> &out) -> LogicalResult {
    SmallVector<StringRef> values;
    side.split(values, ',');
    if (types.empty() && values.size() == 1 && values[0].trim().empty())
      values.clear();
    if (values.size() != types.size()) {
      (void)fail(Twine(values.size()) + " " + what + " for " +
                 Twine(types.size()) + " tensor " + what);
      return failure();
    }
    for (auto [value, type] : llvm::zip(values, types)) {
      StringRef dims = value.trim();
      if (static_cast<int64_t>(dims.size()) != type.getRank()) {
        (void)fail("'" + dims + "' names " + Twine(dims.size()) +
                   " dimensions of a tensor of rank " + Twine(type.getRank()));
        return failure();
      }
      ValueFactors factors;
      for (auto [d, letter] : llvm::enumerate(dims)) {
        if (letter == '_') {
          factors.push_back({});
          continue;
        }
        if (!llvm::isLower(letter)) {
          (void)fail(Twine("'") + Twine(letter) +
                     "' is not a factor (a-z) or '_'");
          return failure();
        }
        int64_t size = type.getDimSize(d);
        auto [it, added] = factorOf.try_emplace(letter, rule.numFactors());
        if (added)
          rule.addFactor(size, FactorKind::Reduction);
        else if (rule.factorSizes[it->second] != size) {
          (void)fail(Twine("factor '") + Twine(letter) + "' has size " +
                     Twine(rule.factorSizes[it->second]) + " and " +
                     Twine(size));
          return failure();
        }
        if (results)
          inResults.insert(letter);
        factors.push_back({it->second});
      }
      out.push_back(factors);
    }
    return success();
  };
  SmallVector<ValueFactors> operands, results;
  if (failed(parseSide(lhs, operandTypes, "operands", false, operands)) ||
      failed(parseSide(rhs, resultTypes, "results", true, results)))
    return failure();
  for (char letter : inResults)
    rule.factorKinds[factorOf[letter]] = FactorKind::Parallel;
  for (StringRef clause : ArrayRef(clauses).drop_front()) {
    auto [keyword, rest] = clause.trim().split(' ');
    rest = rest.trim();
    if (keyword == "reduce" &&
        (rest == "sum" || rest == "max" || rest == "min")) {
      rule.declaredReduction = rest.str();
      continue;
    }
    if (keyword == "whole" && !rest.empty()) {
      for (char letter : rest) {
        auto it = factorOf.find(letter);
        if (it == factorOf.end())
          return fail(Twine("'whole' names '") + Twine(letter) +
                      "', which is no factor of the rule");
        rule.factorKinds[it->second] = FactorKind::NeedReplication;
      }
      continue;
    }
    return fail("unknown clause '" + clause.trim() +
                "' (expected `reduce sum|max|min` or `whole <factors>`)");
  }
  // Tensor values in op order; other operands and results hold nothing.
  auto place = [](TypeRange types, ArrayRef<ValueFactors> tensors,
                  SmallVector<ValueFactors> &into) {
    size_t next = 0;
    for (Type type : types)
      into.push_back(isa<RankedTensorType>(type) ? tensors[next++]
                                                 : ValueFactors());
  };
  place(op->getOperandTypes(), operands, rule.operands);
  place(op->getResultTypes(), results, rule.results);
  rule.tiedInit.assign(op->getNumResults(), -1);
  return rule;
}

FailureOr<ShardingRule> mlir::trellis::getShardingRule(Operation *op) {
  if (auto declared = op->getAttrOfType<StringAttr>("trellis.rule"))
    return parseDeclaredRule(op, declared.getValue());
  if (auto iface = dyn_cast<ShardingRuleOpInterface>(op))
    return iface.getShardingRule();
  return failure();
}
