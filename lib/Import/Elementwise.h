//===- Elementwise.h - StableHLO elementwise ops as arith/math --*- C++ -*-===//

#ifndef TRELLIS_LIB_IMPORT_ELEMENTWISE_H
#define TRELLIS_LIB_IMPORT_ELEMENTWISE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir::trellis {

/// Whether `op` is an elementwise StableHLO or CHLO op that
/// emitElementwise converts.
bool isImportElementwise(Operation *op);

/// Emits `op`'s computation on `operands` with arith and math ops. The
/// operands are either all scalars (inside a reducer) or all tensors of
/// `op`'s result shape (scalar predicates and clamp bounds broadcast first);
/// `resultType` is the matching scalar or tensor type. Emits a located error
/// and returns failure for what it does not model.
FailureOr<Value> emitElementwise(OpBuilder &b, Operation *op,
                                 ValueRange operands, Type resultType);

/// `value` (scalar or tensor) converted to element type `to` with
/// StableHLO `convert` semantics (booleans are zero / non-zero). Integers
/// are signless; `fromUnsigned` / `toUnsigned` say which were unsigned in
/// the source program.
Value convertElements(OpBuilder &b, Location loc, Value value, Type to,
                      bool fromUnsigned = false, bool toUnsigned = false);

/// Attribute the importer puts on a StableHLO op before it makes every
/// unsigned integer type signless: one bool per operand, then one per
/// result, true where the type was unsigned.
inline constexpr StringLiteral kUnsignedAttr = "trellis.import.unsigned";

/// Whether operand `i` of `op` (or, with `result`, result `i`) had an
/// unsigned element type.
bool wasUnsigned(Operation *op, unsigned i, bool result = false);

/// A constant of `type` (a scalar type, or a tensor type for a splat) equal
/// to `value`.
Value constantOf(OpBuilder &b, Location loc, Type type, double value);

} // namespace mlir::trellis

#endif // TRELLIS_LIB_IMPORT_ELEMENTWISE_H
