//===- RuntimeABI.h - Emitting calls to the runtime's C ABI -----*- C++ -*-===//
//
// Helpers shared by the conversions that emit calls into
// lib/Runtime/TrellisRuntime.h: declaring the functions, element type codes
// and buffer addresses.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_CONVERSION_RUNTIMEABI_H
#define TRELLIS_LIB_CONVERSION_RUNTIMEABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::trellis {

/// The TRELLIS_RT_* code of `elementType`, or std::nullopt.
std::optional<int32_t> getRuntimeDtype(mlir::Type elementType);

/// Declares (once) `func.func private @name(args) -> results` in `module`.
mlir::func::FuncOp getOrDeclareRuntimeFunc(mlir::ModuleOp module,
                                           llvm::StringRef name,
                                           mlir::TypeRange args,
                                           mlir::TypeRange results);

/// An i64 constant.
mlir::Value i64Const(mlir::OpBuilder &b, mlir::Location loc, int64_t value);
/// An i32 constant.
mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int32_t value);

/// The address of element 0 of `memref` (aligned pointer plus offset) as an
/// i64, and its strides as i64 values (static or extracted).
mlir::Value
bufferAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memref,
              llvm::SmallVectorImpl<mlir::Value> *strides = nullptr);

} // namespace mlir::trellis

#endif // TRELLIS_LIB_CONVERSION_RUNTIMEABI_H
