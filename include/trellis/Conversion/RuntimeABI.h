//===- RuntimeABI.h - Emitting calls to the runtime's C ABI -----*- C++ -*-===//
//
// Helpers shared by the conversions that emit calls into
// include/trellis/Runtime/TrellisRuntime.h: declaring the functions, element
// type codes and buffer addresses.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_CONVERSION_RUNTIMEABI_H
#define TRELLIS_CONVERSION_RUNTIMEABI_H

#include "dialects/trellis/IR/TrellisDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::trellis {

/// The TRELLIS_RT_* code of `elementType`, or std::nullopt.
std::optional<int32_t> getRuntimeDtype(mlir::Type elementType);

/// The runtime's entry points, one per entry of
/// include/trellis/Runtime/TrellisRuntimeABI.def.
enum class RuntimeFunc {
#define TRELLIS_RT_FUNC(RESULT, NAME, PARAMS) NAME,
#include "trellis/Runtime/TrellisRuntimeABI.def"
};

inline constexpr int kNumRuntimeFuncs = 0
#define TRELLIS_RT_FUNC(RESULT, NAME, PARAMS) +1
#include "trellis/Runtime/TrellisRuntimeABI.def"
    ;

/// Fails, at the offending symbol, when `module` defines a symbol of a
/// runtime function's name other than its exact declaration.
mlir::LogicalResult verifyRuntimeDeclarations(mlir::ModuleOp module);

/// `trellis_rt_<name>` of `fn`.
llvm::StringRef getRuntimeFuncName(RuntimeFunc fn);

/// The signature TrellisRuntimeABI.def gives `fn`.
mlir::FunctionType getRuntimeFuncType(mlir::MLIRContext *context,
                                      RuntimeFunc fn);

/// The module attribute holding the TRELLIS_RT_ABI_VERSION a lowered module
/// calls the runtime by; trellis-run refuses a module built for another.
inline constexpr llvm::StringLiteral kRuntimeABIVersionAttrName =
    TrellisDialect::kRuntimeABIVersionAttrName;

/// Calls `fn` with `args`, declaring it (once) in `module` with its
/// signature from TrellisRuntimeABI.def and stamping the module with the ABI
/// version. Arguments of other types than the signature's are a bug of the
/// lowering (a fatal error, never the input's fault); a pass calls
/// verifyRuntimeDeclarations first, so the program cannot clash either.
mlir::func::CallOp callRuntime(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::ModuleOp module, RuntimeFunc fn,
                               mlir::ValueRange args);

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

#endif // TRELLIS_CONVERSION_RUNTIMEABI_H
