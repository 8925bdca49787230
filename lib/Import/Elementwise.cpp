//===- Elementwise.cpp - StableHLO elementwise ops as arith/math ----------===//
//
// One emitter for both places elementwise StableHLO ops appear: on whole
// tensors (arith and math ops accept tensors; Trellis gives them sharding
// rules and lowers them to loops) and on the scalars of a reducer body
// inside a linalg.generic. Semantics follow the StableHLO specification
// where LLVM's would differ: integer division by zero, shifts by the bit
// width or more, and boolean conversions are defined, never poison.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/ImportDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::trellis;

namespace {

Type withElement(Type like, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(like))
    return shaped.clone(element);
  return element;
}

Value constantFromAttr(OpBuilder &b, Location loc, Type type,
                       TypedAttr scalar) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(shaped, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return constantFromAttr(b, loc, type,
                          b.getIntegerAttr(getElementTypeOrSelf(type), value));
}

/// The emitter for one op: the builder, the op's location and its operands.
struct Emitter {
  OpBuilder &b;
  Location loc;
  Type type; // of the operands (and of the result, but for compare)
  bool isUnsigned = false;

  Type element() const { return getElementTypeOrSelf(type); }
  bool isFloat() const { return isa<FloatType>(element()); }
  unsigned width() const { return element().getIntOrFloatBitWidth(); }
  Value c(double value) const { return constantOf(b, loc, type, value); }
  Value ci(const APInt &value) const {
    return intConstant(b, loc, type, value);
  }
  Value eq(Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value select(Value p, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, p, x, y);
  }

  /// XLA's integer division: x / 0 = -1, MIN / -1 = MIN; x % 0 = x,
  /// MIN % -1 = 0.
  Value divide(Value x, Value y, bool remainder) const {
    Value zero = c(0), minusOne = c(-1);
    if (isUnsigned) { // x / 0 = all ones, x % 0 = x
      Value byZero = eq(y, zero);
      Value safe = select(byZero, c(1), y);
      if (remainder)
        return select(byZero, x, arith::RemUIOp::create(b, loc, x, safe));
      return select(byZero, minusOne, arith::DivUIOp::create(b, loc, x, safe));
    }
    Value min = ci(APInt::getSignedMinValue(width()));
    Value byZero = eq(y, zero);
    Value overflow = arith::AndIOp::create(b, loc, eq(x, min), eq(y, minusOne));
    Value safe =
        select(arith::OrIOp::create(b, loc, byZero, overflow), c(1), y);
    if (remainder) {
      Value r = arith::RemSIOp::create(b, loc, x, safe);
      return select(byZero, x, select(overflow, zero, r));
    }
    Value q = arith::DivSIOp::create(b, loc, x, safe);
    return select(byZero, minusOne, select(overflow, min, q));
  }

  /// Shifts by the bit width or more (amounts are unsigned) give 0, or the
  /// sign for an arithmetic right shift.
  Value shift(StringRef name, Value x, Value amount) const {
    Value bits = c(width());
    Value outOfRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, amount, bits);
    if (name == "shift_right_arithmetic")
      return arith::ShRSIOp::create(b, loc, x,
                                    select(outOfRange, c(width() - 1), amount));
    Value shifted = name == "shift_left"
                        ? arith::ShLIOp::create(b, loc, x, amount).getResult()
                        : arith::ShRUIOp::create(b, loc, x, amount).getResult();
    return select(outOfRange, c(0), shifted);
  }
};

std::optional<arith::CmpFPredicate> floatPredicate(hlo::ComparisonDirection d) {
  using P = arith::CmpFPredicate;
  switch (d) {
  case hlo::ComparisonDirection::EQ:
    return P::OEQ;
  case hlo::ComparisonDirection::NE:
    return P::UNE;
  case hlo::ComparisonDirection::GE:
    return P::OGE;
  case hlo::ComparisonDirection::GT:
    return P::OGT;
  case hlo::ComparisonDirection::LE:
    return P::OLE;
  case hlo::ComparisonDirection::LT:
    return P::OLT;
  }
  return std::nullopt;
}

arith::CmpIPredicate intPredicate(hlo::ComparisonDirection d, bool isSigned) {
  using P = arith::CmpIPredicate;
  switch (d) {
  case hlo::ComparisonDirection::EQ:
    return P::eq;
  case hlo::ComparisonDirection::NE:
    return P::ne;
  case hlo::ComparisonDirection::GE:
    return isSigned ? P::sge : P::uge;
  case hlo::ComparisonDirection::GT:
    return isSigned ? P::sgt : P::ugt;
  case hlo::ComparisonDirection::LE:
    return isSigned ? P::sle : P::ule;
  case hlo::ComparisonDirection::LT:
    return isSigned ? P::slt : P::ult;
  }
  llvm_unreachable("unknown comparison direction");
}

FailureOr<Value> emitCompare(const Emitter &e, hlo::CompareOp op, Value x,
                             Value y) {
  hlo::ComparisonType kind =
      op.getCompareType().value_or(hlo::ComparisonType::NOTYPE);
  if (kind == hlo::ComparisonType::NOTYPE)
    kind = e.isFloat() ? hlo::ComparisonType::FLOAT
           : e.element().isInteger(1) || e.isUnsigned
               ? hlo::ComparisonType::UNSIGNED
               : hlo::ComparisonType::SIGNED;
  if (kind == hlo::ComparisonType::TOTALORDER)
    return op.emitError("TOTALORDER comparisons are not supported yet");
  if ((kind == hlo::ComparisonType::FLOAT) != e.isFloat())
    return op.emitError("a ") << hlo::stringifyComparisonType(kind)
                              << " comparison of " << e.element() << " values";
  if (e.isFloat())
    return arith::CmpFOp::create(
               e.b, e.loc, *floatPredicate(op.getComparisonDirection()), x, y)
        .getResult();
  return arith::CmpIOp::create(
             e.b, e.loc,
             intPredicate(op.getComparisonDirection(),
                          kind == hlo::ComparisonType::SIGNED),
             x, y)
      .getResult();
}

} // namespace

Value mlir::trellis::constantOf(OpBuilder &b, Location loc, Type type,
                                double value) {
  Type element = getElementTypeOrSelf(type);
  if (isa<FloatType>(element))
    return constantFromAttr(b, loc, type, b.getFloatAttr(element, value));
  APInt bits(element.getIntOrFloatBitWidth(), static_cast<int64_t>(value),
             /*isSigned=*/true, /*implicitTrunc=*/true);
  return intConstant(b, loc, type, bits);
}

bool mlir::trellis::wasUnsigned(Operation *op, unsigned i, bool result) {
  auto flags = op->getAttrOfType<DenseBoolArrayAttr>(kUnsignedAttr);
  if (!flags)
    return false;
  unsigned at = result ? op->getNumOperands() + i : i;
  return at < flags.size() && flags[at];
}

Value mlir::trellis::convertElements(OpBuilder &b, Location loc, Value value,
                                     Type to, bool fromUnsigned,
                                     bool toUnsigned) {
  Type type = value.getType();
  Type from = getElementTypeOrSelf(type);
  if (from == to)
    return value;
  Type result = withElement(type, to);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (to.isInteger(1)) {
    Value zero = constantOf(b, loc, type, 0);
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (from.isInteger(1))
    return toFloat ? arith::UIToFPOp::create(b, loc, result, value).getResult()
                   : arith::ExtUIOp::create(b, loc, result, value).getResult();
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (fromFloat && toFloat) {
    if (fromBits == toBits) { // bf16 <-> f16: through f32
      Value wide = arith::ExtFOp::create(
          b, loc, withElement(type, b.getF32Type()), value);
      return arith::TruncFOp::create(b, loc, result, wide);
    }
    return fromBits < toBits
               ? arith::ExtFOp::create(b, loc, result, value).getResult()
               : arith::TruncFOp::create(b, loc, result, value).getResult();
  }
  if (!fromFloat && !toFloat) {
    if (fromBits == toBits)
      return value; // signed <-> unsigned of one width: the same bits
    if (fromBits > toBits)
      return arith::TruncIOp::create(b, loc, result, value);
    return fromUnsigned
               ? arith::ExtUIOp::create(b, loc, result, value).getResult()
               : arith::ExtSIOp::create(b, loc, result, value).getResult();
  }
  if (toFloat)
    return fromUnsigned
               ? arith::UIToFPOp::create(b, loc, result, value).getResult()
               : arith::SIToFPOp::create(b, loc, result, value).getResult();
  // Float to integer saturates, NaN gives 0 (as XLA converts); LLVM's
  // fptosi/fptoui would be poison there. Halves compare in f32, where the
  // limits (powers of two) are exact and f16's range does not end first.
  if (fromBits < 32) {
    type = withElement(type, b.getF32Type());
    value = arith::ExtFOp::create(b, loc, type, value);
  }
  auto limit = [&](double v) { return constantOf(b, loc, type, v); };
  double top =
      toUnsigned ? std::ldexp(1.0, toBits) : std::ldexp(1.0, toBits - 1);
  double bottom = toUnsigned ? 0.0 : -std::ldexp(1.0, toBits - 1);
  Value tooBig = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, value,
                                       limit(top));
  Value tooSmall = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                         value, limit(bottom));
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  Value outside = arith::OrIOp::create(
      b, loc, arith::OrIOp::create(b, loc, tooBig, tooSmall), isNan);
  Value safe = arith::SelectOp::create(b, loc, outside, limit(0), value);
  Value converted =
      toUnsigned ? arith::FPToUIOp::create(b, loc, result, safe).getResult()
                 : arith::FPToSIOp::create(b, loc, result, safe).getResult();
  APInt maxBits = toUnsigned ? APInt::getMaxValue(toBits)
                             : APInt::getSignedMaxValue(toBits);
  APInt minBits =
      toUnsigned ? APInt::getZero(toBits) : APInt::getSignedMinValue(toBits);
  converted = arith::SelectOp::create(
      b, loc, tooBig, intConstant(b, loc, result, maxBits), converted);
  converted = arith::SelectOp::create(
      b, loc, tooSmall, intConstant(b, loc, result, minBits), converted);
  return arith::SelectOp::create(
      b, loc, isNan, intConstant(b, loc, result, APInt(toBits, 0)), converted);
}

bool mlir::trellis::isImportElementwise(Operation *op) {
  return isa<hlo::AbsOp, hlo::CbrtOp, hlo::CeilOp, hlo::CosineOp,
             hlo::ExponentialOp, hlo::ExponentialMinusOneOp, hlo::FloorOp,
             hlo::IsFiniteOp, hlo::LogOp, hlo::LogPlusOneOp, hlo::LogisticOp,
             hlo::NegateOp, hlo::NotOp, hlo::RoundNearestAfzOp,
             hlo::RoundNearestEvenOp, hlo::RsqrtOp, hlo::SignOp, hlo::SineOp,
             hlo::SqrtOp, hlo::TanOp, hlo::TanhOp, hlo::ConvertOp, hlo::AddOp,
             hlo::AndOp, hlo::Atan2Op, hlo::DivideOp, hlo::MaximumOp,
             hlo::MinimumOp, hlo::MultiplyOp, hlo::OrOp, hlo::PowerOp,
             hlo::RemainderOp, hlo::ShiftLeftOp, hlo::ShiftRightArithmeticOp,
             hlo::ShiftRightLogicalOp, hlo::SubtractOp, hlo::XorOp,
             hlo::ClampOp, hlo::SelectOp, hlo::CompareOp, hlo::BitcastConvertOp,
             chlo::ErfOp, chlo::TanOp>(op);
}

namespace {

using ElementwiseSwitch = llvm::TypeSwitch<Operation *, FailureOr<Value>>;

/// One elementwise op being emitted: its operands (`x` and `y` are the
/// first two), what their element type is, and the cases of the op kinds,
/// grouped by family, that emitElementwise chains into one switch.
struct ElementwiseEmitter {
  Emitter e;
  Operation *op;
  ValueRange operands;
  Type resultType;
  Value x, y;
  bool isFloat, isBool;

  FailureOr<Value> unsupported(StringRef why) const {
    return op->emitError() << "'" << op->getName() << "' " << why;
  }
  FailureOr<Value> floatOnly() const {
    return unsupported("takes floating-point operands");
  }
  FailureOr<Value> intOnly() const {
    return unsupported("takes integer or boolean operands");
  }
  /// Ops whose integer and float forms are one op each.
  template <typename F, typename I> Value pick() const {
    if (isFloat)
      return F::create(e.b, e.loc, x, y);
    return I::create(e.b, e.loc, x, y);
  }
  /// Unary math functions of floats.
  template <typename M> FailureOr<Value> math() const {
    if (!isFloat)
      return floatOnly();
    return M::create(e.b, e.loc, x).getResult();
  }

  void arithmeticCases(ElementwiseSwitch &cases) const;
  void bitwiseCases(ElementwiseSwitch &cases) const;
  void signCases(ElementwiseSwitch &cases) const;
  void mathCases(ElementwiseSwitch &cases) const;
  void conversionCases(ElementwiseSwitch &cases) const;
};

/// add, subtract, multiply, divide, remainder, maximum, minimum, power,
/// atan2.
void ElementwiseEmitter::arithmeticCases(ElementwiseSwitch &cases) const {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  cases
      .Case([&](hlo::AddOp) -> FailureOr<Value> {
        if (isBool)
          return arith::OrIOp::create(b, loc, x, y).getResult();
        return pick<arith::AddFOp, arith::AddIOp>();
      })
      .Case([&](hlo::SubtractOp) -> FailureOr<Value> {
        if (isBool)
          return intOnly();
        return pick<arith::SubFOp, arith::SubIOp>();
      })
      .Case([&](hlo::MultiplyOp) -> FailureOr<Value> {
        if (isBool)
          return arith::AndIOp::create(b, loc, x, y).getResult();
        return pick<arith::MulFOp, arith::MulIOp>();
      })
      .Case([&](hlo::DivideOp) -> FailureOr<Value> {
        if (isFloat)
          return arith::DivFOp::create(b, loc, x, y).getResult();
        if (isBool)
          return unsupported("of booleans is not supported");
        return e.divide(x, y, /*remainder=*/false);
      })
      .Case([&](hlo::RemainderOp) -> FailureOr<Value> {
        if (isFloat)
          return arith::RemFOp::create(b, loc, x, y).getResult();
        if (isBool)
          return unsupported("of booleans is not supported");
        return e.divide(x, y, /*remainder=*/true);
      })
      .Case([&](hlo::MaximumOp) -> FailureOr<Value> {
        if (isBool)
          return arith::OrIOp::create(b, loc, x, y).getResult();
        if (e.isUnsigned)
          return arith::MaxUIOp::create(b, loc, x, y).getResult();
        return pick<arith::MaximumFOp, arith::MaxSIOp>();
      })
      .Case([&](hlo::MinimumOp) -> FailureOr<Value> {
        if (isBool)
          return arith::AndIOp::create(b, loc, x, y).getResult();
        if (e.isUnsigned)
          return arith::MinUIOp::create(b, loc, x, y).getResult();
        return pick<arith::MinimumFOp, arith::MinSIOp>();
      })
      .Case([&](hlo::PowerOp) -> FailureOr<Value> {
        if (!isFloat)
          return unsupported("of integers is not supported yet");
        return math::PowFOp::create(b, loc, x, y).getResult();
      })
      .Case([&](hlo::Atan2Op) -> FailureOr<Value> {
        if (!isFloat)
          return floatOnly();
        return math::Atan2Op::create(b, loc, x, y).getResult();
      });
}

/// and, or, xor, not and the shifts.
void ElementwiseEmitter::bitwiseCases(ElementwiseSwitch &cases) const {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  cases
      .Case([&](hlo::AndOp) -> FailureOr<Value> {
        if (isFloat)
          return intOnly();
        return arith::AndIOp::create(b, loc, x, y).getResult();
      })
      .Case([&](hlo::OrOp) -> FailureOr<Value> {
        if (isFloat)
          return intOnly();
        return arith::OrIOp::create(b, loc, x, y).getResult();
      })
      .Case([&](hlo::XorOp) -> FailureOr<Value> {
        if (isFloat)
          return intOnly();
        return arith::XOrIOp::create(b, loc, x, y).getResult();
      })
      .Case([&](hlo::NotOp) -> FailureOr<Value> {
        if (isFloat)
          return intOnly();
        return arith::XOrIOp::create(b, loc, x,
                                     e.ci(APInt::getAllOnes(e.width())))
            .getResult();
      })
      .Case<hlo::ShiftLeftOp, hlo::ShiftRightArithmeticOp,
            hlo::ShiftRightLogicalOp>([&](Operation *) -> FailureOr<Value> {
        if (isFloat || isBool)
          return unsupported("takes integer operands");
        return e.shift(op->getName().stripDialect(), x, y);
      });
}

/// negate, abs and sign.
void ElementwiseEmitter::signCases(ElementwiseSwitch &cases) const {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  cases
      .Case([&](hlo::NegateOp) -> FailureOr<Value> {
        if (isFloat)
          return arith::NegFOp::create(b, loc, x).getResult();
        if (isBool)
          return unsupported("of booleans is not supported");
        return arith::SubIOp::create(b, loc, e.c(0), x).getResult();
      })
      .Case([&](hlo::AbsOp) -> FailureOr<Value> {
        if (isFloat)
          return math::AbsFOp::create(b, loc, x).getResult();
        if (isBool)
          return unsupported("of booleans is not supported");
        if (e.isUnsigned)
          return x;
        return math::AbsIOp::create(b, loc, x).getResult();
      })
      .Case([&](hlo::SignOp) -> FailureOr<Value> {
        if (isBool)
          return unsupported("of booleans is not supported");
        Value zero = e.c(0);
        if (e.isUnsigned)
          return e.select(e.eq(x, zero), zero, e.c(1));
        Value positive, negative;
        if (isFloat) {
          positive =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
          negative =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
        } else {
          positive =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
          negative =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
        }
        // Zeros (of either sign) and NaN are their own sign.
        return e.select(positive, e.c(1), e.select(negative, e.c(-1), x));
      });
}

/// Unary functions of floats: one math op each, and logistic, is_finite.
void ElementwiseEmitter::mathCases(ElementwiseSwitch &cases) const {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  cases.Case([&](hlo::ExponentialOp) { return math<math::ExpOp>(); })
      .Case([&](hlo::ExponentialMinusOneOp) { return math<math::ExpM1Op>(); })
      .Case([&](hlo::LogOp) { return math<math::LogOp>(); })
      .Case([&](hlo::LogPlusOneOp) { return math<math::Log1pOp>(); })
      .Case([&](hlo::TanhOp) { return math<math::TanhOp>(); })
      .Case([&](hlo::SqrtOp) { return math<math::SqrtOp>(); })
      .Case([&](hlo::RsqrtOp) { return math<math::RsqrtOp>(); })
      .Case([&](hlo::CbrtOp) { return math<math::CbrtOp>(); })
      .Case([&](hlo::SineOp) { return math<math::SinOp>(); })
      .Case([&](hlo::CosineOp) { return math<math::CosOp>(); })
      .Case<hlo::TanOp, chlo::TanOp>(
          [&](Operation *) { return math<math::TanOp>(); })
      .Case([&](hlo::FloorOp) { return math<math::FloorOp>(); })
      .Case([&](hlo::CeilOp) { return math<math::CeilOp>(); })
      .Case([&](hlo::RoundNearestEvenOp) { return math<math::RoundEvenOp>(); })
      .Case([&](hlo::RoundNearestAfzOp) { return math<math::RoundOp>(); })
      .Case([&](chlo::ErfOp) { return math<math::ErfOp>(); })
      .Case([&](hlo::LogisticOp) -> FailureOr<Value> {
        if (!isFloat)
          return floatOnly();
        Value expNeg =
            math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
        Value denominator = arith::AddFOp::create(b, loc, e.c(1), expNeg);
        return arith::DivFOp::create(b, loc, e.c(1), denominator).getResult();
      })
      .Case([&](hlo::IsFiniteOp) -> FailureOr<Value> {
        if (!isFloat)
          return floatOnly();
        Value magnitude = math::AbsFOp::create(b, loc, x);
        Value inf = e.c(std::numeric_limits<double>::infinity());
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                     magnitude, inf)
            .getResult();
      });
}

/// convert, bitcast_convert, clamp, select and compare.
void ElementwiseEmitter::conversionCases(ElementwiseSwitch &cases) const {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  cases
      .Case([&](hlo::ConvertOp) -> FailureOr<Value> {
        return convertElements(b, loc, x, getElementTypeOrSelf(resultType),
                               e.isUnsigned, wasUnsigned(op, 0, true));
      })
      .Case([&](hlo::BitcastConvertOp) -> FailureOr<Value> {
        Type to = getElementTypeOrSelf(resultType);
        if (to.getIntOrFloatBitWidth() != e.width() ||
            e.element().isInteger(1) || to.isInteger(1))
          return unsupported("between element types of different widths is "
                             "not supported");
        return arith::BitcastOp::create(b, loc, resultType, x).getResult();
      })
      .Case([&](hlo::ClampOp) -> FailureOr<Value> {
        // operands: min, operand, max.
        Emitter ev{b, loc, operands[1].getType()};
        if (ev.element().isInteger(1))
          return unsupported("of booleans is not supported");
        if (e.isUnsigned) {
          Value low = arith::MaxUIOp::create(b, loc, operands[1], x);
          return arith::MinUIOp::create(b, loc, low, operands[2]).getResult();
        }
        if (ev.isFloat()) {
          Value low = arith::MaximumFOp::create(b, loc, operands[1], x);
          return arith::MinimumFOp::create(b, loc, low, operands[2])
              .getResult();
        }
        Value low = arith::MaxSIOp::create(b, loc, operands[1], x);
        return arith::MinSIOp::create(b, loc, low, operands[2]).getResult();
      })
      .Case([&](hlo::SelectOp) -> FailureOr<Value> {
        return e.select(operands[0], operands[1], operands[2]);
      })
      .Case([&](hlo::CompareOp compare) {
        return emitCompare(e, compare, x, y);
      });
}

} // namespace

FailureOr<Value> mlir::trellis::emitElementwise(OpBuilder &b, Operation *op,
                                                ValueRange operands,
                                                Type resultType) {
  // select's first operand is the predicate; its type is the branches'.
  Value typed = isa<hlo::SelectOp>(op) ? operands[1] : operands[0];
  Emitter e{b, op->getLoc(), typed.getType(),
            wasUnsigned(op, isa<hlo::SelectOp, hlo::ClampOp>(op) ? 1 : 0)};
  ElementwiseEmitter emitter{
      e,           op,
      operands,    resultType,
      operands[0], operands.size() > 1 ? operands[1] : Value(),
      e.isFloat(), e.element().isInteger(1)};
  ElementwiseSwitch cases(op);
  emitter.arithmeticCases(cases);
  emitter.bitwiseCases(cases);
  emitter.signCases(cases);
  emitter.mathCases(cases);
  emitter.conversionCases(cases);
  return cases.Default([&](Operation *) {
    return emitter.unsupported("is not an elementwise op the importer knows");
  });
}
