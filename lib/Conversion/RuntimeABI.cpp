//===- RuntimeABI.cpp - Emitting calls to the runtime's C ABI -------------===//

#include "lib/Conversion/RuntimeABI.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "lib/Runtime/TrellisRuntime.h"

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

func::FuncOp mlir::trellis::getOrDeclareRuntimeFunc(ModuleOp module,
                                                    StringRef name,
                                                    TypeRange args,
                                                    TypeRange results) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = b.getFunctionType(args, results);
  auto func = func::FuncOp::create(b, module.getLoc(), name, type);
  func.setPrivate();
  return func;
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
