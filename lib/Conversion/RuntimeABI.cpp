//===- RuntimeABI.cpp - Emitting calls to the runtime's C ABI -------------===//

#include "trellis/Conversion/RuntimeABI.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

std::optional<int32_t> mlir::trellis::getRuntimeDtype(Type type) {
  if (type.isF32())
    return TRELLIS_RT_F32;
  if (type.isF64())
    return TRELLIS_RT_F64;
  if (type.isBF16())
    return TRELLIS_RT_BF16;
  if (type.isF16())
    return TRELLIS_RT_F16;
  if (type.isSignlessInteger(32) || type.isSignedInteger(32))
    return TRELLIS_RT_I32;
  if (type.isSignlessInteger(64) || type.isSignedInteger(64) || type.isIndex())
    return TRELLIS_RT_I64;
  if (type.isSignlessInteger(16))
    return TRELLIS_RT_I16;
  if (type.isSignlessInteger(8))
    return TRELLIS_RT_I8;
  if (type.isSignlessInteger(1))
    return TRELLIS_RT_I1;
  return std::nullopt;
}

StringRef mlir::trellis::getRuntimeFuncName(RuntimeFunc fn) {
  switch (fn) {
#define TRELLIS_RT_FUNC(RESULT, NAME, PARAMS)                                  \
  case RuntimeFunc::NAME:                                                      \
    return "trellis_rt_" #NAME;
#include "trellis/Runtime/TrellisRuntimeABI.def"
  }
  llvm_unreachable("unknown runtime function");
}

FunctionType mlir::trellis::getRuntimeFuncType(MLIRContext *context,
                                               RuntimeFunc fn) {
  Type i32 = IntegerType::get(context, 32);
  Type i64 = IntegerType::get(context, 64);
  (void)i32;
  switch (fn) {
#define TRELLIS_RT_RESULTS_void                                                \
  {}
#define TRELLIS_RT_RESULTS_i32                                                 \
  { i32 }
#define TRELLIS_RT_RESULTS_i64                                                 \
  { i64 }
#define TRELLIS_RT_UNPAREN(...) __VA_ARGS__
#define ARG_I32(name) i32
#define ARG_I64(name) i64
#define TRELLIS_RT_FUNC(RESULT, NAME, PARAMS)                                  \
  case RuntimeFunc::NAME:                                                      \
    return FunctionType::get(context,                                          \
                             SmallVector<Type>{TRELLIS_RT_UNPAREN PARAMS},     \
                             SmallVector<Type> TRELLIS_RT_RESULTS_##RESULT);
#include "trellis/Runtime/TrellisRuntimeABI.def"
#undef TRELLIS_RT_RESULTS_void
#undef TRELLIS_RT_RESULTS_i32
#undef TRELLIS_RT_RESULTS_i64
#undef TRELLIS_RT_UNPAREN
  }
  llvm_unreachable("unknown runtime function");
}

LogicalResult mlir::trellis::verifyRuntimeDeclarations(ModuleOp module) {
  if (Attribute stamp = module->getAttr(kRuntimeABIVersionAttrName)) {
    auto version = dyn_cast<IntegerAttr>(stamp);
    if (!version || version.getInt() != TRELLIS_RT_ABI_VERSION) {
      InFlightDiagnostic diag =
          module.emitOpError("holds calls lowered for Trellis runtime ABI ");
      if (version)
        diag << version.getInt();
      else
        diag << stamp;
      return diag << " (" << kRuntimeABIVersionAttrName
                  << "), but this build lowers for version "
                  << TRELLIS_RT_ABI_VERSION;
    }
  }
  for (int i = 0; i < kNumRuntimeFuncs; ++i) {
    auto fn = static_cast<RuntimeFunc>(i);
    Operation *symbol = module.lookupSymbol(getRuntimeFuncName(fn));
    if (!symbol)
      continue;
    FunctionType type = getRuntimeFuncType(module.getContext(), fn);
    auto func = dyn_cast<func::FuncOp>(symbol);
    if (!func || !func.isDeclaration() || func.getFunctionType() != type)
      return symbol->emitOpError("is named @")
             << getRuntimeFuncName(fn)
             << ", a function of the Trellis runtime; only a declaration "
                "of type "
             << type << " may use the name";
  }
  return success();
}

func::CallOp mlir::trellis::callRuntime(OpBuilder &b, Location loc,
                                        ModuleOp module, RuntimeFunc fn,
                                        ValueRange args) {
  StringRef name = getRuntimeFuncName(fn);
  FunctionType type = getRuntimeFuncType(module.getContext(), fn);
  if (TypeRange(args) != type.getInputs())
    llvm::report_fatal_error(llvm::Twine("trellis: a call of ") + name +
                             " does not match its signature in "
                             "TrellisRuntimeABI.def");
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee) {
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    callee = func::FuncOp::create(top, module.getLoc(), name, type);
    callee.setPrivate();
  } else if (callee.getFunctionType() != type) {
    llvm::report_fatal_error(llvm::Twine("trellis: @") + name +
                             " is declared with another signature; "
                             "verifyRuntimeDeclarations was not called");
  }
  if (!module->hasAttr(kRuntimeABIVersionAttrName))
    module->setAttr(kRuntimeABIVersionAttrName,
                    b.getI32IntegerAttr(TRELLIS_RT_ABI_VERSION));
  return func::CallOp::create(b, loc, callee, args);
}

Value mlir::trellis::i64Const(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Value mlir::trellis::i32Const(OpBuilder &b, Location loc, int32_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value mlir::trellis::bufferAddress(OpBuilder &b, Location loc, Value memref,
                                   SmallVectorImpl<Value> *strides) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  // index has no bit width (asking crashed): 8 bytes, as in the runtime.
  int64_t elemBytes = elementBytes(type.getElementType());
  Value offset = metadata.getOffset();
  Value bytes = arith::MulIOp::create(
      b, loc, offset, arith::ConstantIndexOp::create(b, loc, elemBytes));
  Value address = arith::AddIOp::create(b, loc, base, bytes);
  if (strides)
    for (Value stride : metadata.getStrides())
      strides->push_back(
          arith::IndexCastOp::create(b, loc, b.getI64Type(), stride));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
}
