//===- F64Referee.h - Settle float mismatches in f64 ------------*- C++ -*-===//
//
// When trellis-run --reference finds a float result that differs from the
// oracle's, the difference may be rounding that the computation magnifies
// (sin of a large sum): both sides are then as close to the exact value as
// their type allows, and neither is wrong. The referee re-evaluates the
// program with every float widened to f64 and says, for the elements that
// differ, which side is within the tolerance of the f64 value.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_F64REFEREE_H
#define TRELLIS_LIB_EXECUTION_F64REFEREE_H

#include "trellis/Execution/HostArray.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::trellis::exec {

/// A copy of `module` with every f16, bf16 and f32 type (and constant)
/// widened to f64, casts between floats that became identities removed;
/// an error when the widened program does not verify (e.g. it bitcasts
/// floats).
llvm::Expected<OwningOpRef<ModuleOp>> widenFloatsToF64(ModuleOp module);

/// `array` as f64 when it holds floats (unchanged otherwise).
HostArray widenArray(const HostArray &array);

/// How the elements where `actual` and `expected` differ (beyond `rtol`
/// and `atol`) compare with `exact`, the f64 re-evaluation. An element of
/// `actual` counts as right when it is within the tolerance of the exact
/// value, or no further from it than twice the oracle's largest distance
/// from it anywhere in the array (`expected` is computed in the same types,
/// in another order): the rounding this computation magnifies, as the
/// oracle itself shows it.
struct Verdict {
  int64_t disputed = 0;      ///< elements that differ
  int64_t actualClose = 0;   ///< of those, `actual` within tolerance of exact
  int64_t actualAsGood = 0;  ///< ... else within 2x the oracle's worst error
  double oracleError = 0;    ///< the oracle's largest distance from exact
  int64_t expectedClose = 0; ///< ... `expected` within tolerance of exact
  /// The first disputed element where `actual` is neither (-1: none).
  int64_t firstWrong = -1;
  bool settled() const { return actualClose + actualAsGood == disputed; }
};
Verdict referee(const HostArray &expected, const HostArray &actual,
                const HostArray &exact, double rtol, double atol);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_F64REFEREE_H
