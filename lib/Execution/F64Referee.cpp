//===- F64Referee.cpp - Settle float mismatches in f64 --------------------===//

#include "lib/Execution/F64Referee.h"
#include "lib/Execution/Error.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::trellis::exec;

namespace {

bool isNarrowFloat(Type type) {
  return isa<Float16Type, BFloat16Type, Float32Type>(type);
}

} // namespace

llvm::Expected<OwningOpRef<ModuleOp>>
mlir::trellis::exec::widenFloatsToF64(ModuleOp module) {
  OwningOpRef<ModuleOp> wide(module.clone());
  MLIRContext *ctx = module.getContext();
  Type f64 = Float64Type::get(ctx);

  AttrTypeReplacer replacer;
  replacer.addReplacement([&](FloatType type) -> std::optional<Type> {
    if (isNarrowFloat(type))
      return f64;
    return std::nullopt;
  });
  // Constants keep their values (the replacer alone would reinterpret
  // their stored bits).
  replacer.addReplacement(
      [&](FloatAttr attr) -> std::optional<std::pair<Attribute, WalkResult>> {
        if (!isNarrowFloat(attr.getType()))
          return std::nullopt;
        return std::make_pair(
            Attribute(FloatAttr::get(f64, attr.getValueAsDouble())),
            WalkResult::skip());
      });
  replacer.addReplacement(
      [&](DenseFPElementsAttr attr)
          -> std::optional<std::pair<Attribute, WalkResult>> {
        if (!isNarrowFloat(attr.getElementType()))
          return std::nullopt;
        auto type = cast<ShapedType>(attr.getType()).clone(f64);
        Attribute widened;
        if (attr.isSplat()) {
          APFloat v = attr.getSplatValue<APFloat>();
          bool lost;
          v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
          widened = DenseElementsAttr::get(
              type, ArrayRef<Attribute>{FloatAttr::get(f64, v)});
        } else {
          SmallVector<double> values;
          for (APFloat v : attr.getValues<APFloat>()) {
            bool lost;
            v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                      &lost);
            values.push_back(v.convertToDouble());
          }
          widened = DenseElementsAttr::get(type, ArrayRef<double>(values));
        }
        return std::make_pair(widened, WalkResult::skip());
      });
  // Constants held as resources are bytes the replacer would reinterpret.
  bool resource = false;
  replacer.addReplacement(
      [&](DenseResourceElementsAttr attr)
          -> std::optional<std::pair<Attribute, WalkResult>> {
        if (isNarrowFloat(attr.getElementType()))
          resource = true;
        return std::make_pair(Attribute(attr), WalkResult::skip());
      });
  replacer.recursivelyReplaceElementsIn(*wide, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);

  if (resource)
    return makeError("the program holds float constants as resources, "
                     "which the f64 re-evaluation does not widen");

  // Casts between float types that are now both f64 are identities.
  SmallVector<Operation *> casts;
  wide->walk([&](Operation *op) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      casts.push_back(op);
  });
  for (Operation *op : casts) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }

  // Diagnostics of the widened copy are not the user's: say why in one line.
  std::string message;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (message.empty()) {
        llvm::raw_string_ostream os(message);
        os << diag;
      }
      return success();
    });
    if (failed(verify(*wide)))
      return makeError("the program widened to f64 does not verify (" +
                       message + ")");
  }
  return std::move(wide);
}

HostArray mlir::trellis::exec::widenArray(const HostArray &array) {
  if (!array.isFloat() || array.dtype == TRELLIS_RT_F64)
    return array;
  HostArray wide;
  wide.allocate(TRELLIS_RT_F64, array.shape);
  for (int64_t i = 0, n = array.numElements(); i < n; ++i)
    wide.set(i, array.at(i));
  return wide;
}

Verdict mlir::trellis::exec::referee(const HostArray &expected,
                                     const HostArray &actual,
                                     const HostArray &exact, double rtol,
                                     double atol) {
  Verdict verdict;
  auto close = [&](double value, double reference) {
    if (std::isnan(value) || std::isnan(reference))
      return std::isnan(value) && std::isnan(reference);
    if (std::isinf(value) || std::isinf(reference))
      return value == reference;
    return std::fabs(value - reference) <= atol + rtol * std::fabs(reference);
  };
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i) {
    double error = std::fabs(expected.at(i) - exact.at(i));
    if (std::isfinite(error))
      verdict.oracleError = std::max(verdict.oracleError, error);
  }
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i) {
    double e = expected.at(i), a = actual.at(i), x = exact.at(i);
    if (close(a, e))
      continue;
    ++verdict.disputed;
    if (close(e, x))
      ++verdict.expectedClose;
    if (close(a, x))
      ++verdict.actualClose;
    else if (std::isfinite(a) && std::fabs(a - x) <= 2 * verdict.oracleError)
      ++verdict.actualAsGood;
    else if (verdict.firstWrong < 0)
      verdict.firstWrong = i;
  }
  return verdict;
}
