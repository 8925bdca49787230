//===- ImportSignless.cpp - Unsigned integers to signless ones ------------===//
//
// Trellis IR and its runtime have signless integers only. Unsigned
// arguments keep their bits as signless integers of the same width; the
// import ops that read them carry which operands were unsigned
// (kUnsignedAttr). Unsigned results of the entry are widened to the signed
// type twice as wide, which holds every value, with a warning.
//
//===----------------------------------------------------------------------===//

#include "lib/Import/Elementwise.h"
#include "lib/Import/Importer.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::trellis;
using namespace mlir::trellis::import;

static bool isUnsignedElement(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.isUnsigned();
}

static Type signlessOf(Type type) {
  auto integer = cast<IntegerType>(getElementTypeOrSelf(type));
  Type element = IntegerType::get(type.getContext(), integer.getWidth());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// The signed integer type twice as wide as unsigned `type` (tensor or
/// scalar), which holds all its values; null for 64 bits and wider.
static Type widenedSigned(Type type) {
  auto integer = cast<IntegerType>(getElementTypeOrSelf(type));
  if (integer.getWidth() >= 64)
    return nullptr;
  Type element = IntegerType::get(type.getContext(), integer.getWidth() * 2);
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

LogicalResult Importer::makeSignless() {
  // Unsigned arguments hold the caller's bits as signless integers of the
  // same width (the ops that read them know they are unsigned). Unsigned
  // results are widened to the signed type twice as wide, which holds every
  // value: the runtime has no unsigned types, and a uint8 200 must not be
  // shown as int8 -56.
  for (auto func : module.getOps<func::FuncOp>()) {
    SmallVector<unsigned> widen;
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (isUnsignedElement(type))
        widen.push_back(i);
    // Private functions' results stay inside the program: signless.
    if (widen.empty() || func.isPrivate())
      continue;
    if (!SymbolTable::symbolKnownUseEmpty(func, module))
      return func.emitError("unsigned results of a public function that "
                            "other functions call are not supported yet");
    SmallVector<Type> results(func.getResultTypes());
    for (unsigned i : widen) {
      Type wide = widenedSigned(results[i]);
      if (!wide)
        return func.emitError("result #")
               << i << " is " << results[i]
               << ": unsigned 64-bit results are not supported yet (no "
                  "signed type holds their values)";
      func.emitWarning("result #")
          << i << " (" << results[i] << ") is returned as " << wide
          << ", which holds its values: Trellis has no unsigned types";
      results[i] = wide;
    }
    func.walk([&](func::ReturnOp ret) {
      OpBuilder rb(ret);
      for (unsigned i : widen)
        ret.setOperand(i, hlo::ConvertOp::create(rb, ret.getLoc(), results[i],
                                                 ret.getOperand(i))
                              .getResult());
    });
    func.setFunctionType(
        FunctionType::get(func.getContext(), func.getArgumentTypes(), results));
  }
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isExternal())
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isUnsignedElement(type))
          return func.emitError("unsigned arguments of a function without a "
                                "body are not supported yet: ")
                 << type;
  MLIRContext *ctx = module.getContext();
  module.walk([&](Operation *op) {
    if (!isImportDialect(op))
      return;
    SmallVector<bool> flags;
    for (Type type :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      flags.push_back(isUnsignedElement(type));
    if (llvm::is_contained(flags, true))
      op->setAttr(kUnsignedAttr, DenseBoolArrayAttr::get(ctx, flags));
  });
  module.walk([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      auto signless = [](Type type) {
        return isUnsignedElement(type) ? signlessOf(type) : type;
      };
      func.setFunctionType(FunctionType::get(
          op->getContext(),
          llvm::map_to_vector(func.getArgumentTypes(), signless),
          llvm::map_to_vector(func.getResultTypes(), signless)));
    }
    for (Value result : op->getResults())
      if (isUnsignedElement(result.getType()))
        result.setType(signlessOf(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isUnsignedElement(arg.getType()))
            arg.setType(signlessOf(arg.getType()));
    if (auto constant = dyn_cast<hlo::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (dense && isUnsignedElement(dense.getType()))
        constant.setValueAttr(
            dense.bitcast(getElementTypeOrSelf(signlessOf(dense.getType()))));
    }
  });
  return success();
}
