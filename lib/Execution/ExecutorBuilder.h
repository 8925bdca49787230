//===- ExecutorBuilder.h - The steps of Executor::create -------*- C++ -*-===//
//
// Private to the executor: the steps of Executor::create, describing the
// partitioned program (ExecutorCompile.cpp) and lowering and JIT-compiling
// it (ExecutorLower.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_EXECUTORBUILDER_H
#define TRELLIS_LIB_EXECUTION_EXECUTORBUILDER_H

#include "dialects/spmd/IR/SpmdOps.h"
#include "trellis/Execution/Executor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::trellis::exec {

/// The steps of Executor::create after partitioning, filling in `exec`.
struct Executor::Builder {
  Executor &exec;
  const ExecutorOptions &options;
  std::string entryName;

  llvm::Error describeSignature(func::FuncOp entry);
  llvm::Expected<spmd::ShardMapOp> findShardMap(func::FuncOp entry);
  llvm::Error describeShardMap(func::FuncOp entry, spmd::ShardMapOp map);
  llvm::Error describePlainFunction(func::FuncOp entry);
  llvm::Expected<OwningOpRef<ModuleOp>> lower(ModuleOp partitioned,
                                              bool manual);
  void collectSites(ModuleOp lowered);
  llvm::Error jit(ModuleOp lowered, const std::string &deviceName);
};

/// Erases the functions other than `keep` that nothing uses; returns
/// whether it erased any.
bool eraseUnusedFunctions(ModuleOp module, func::FuncOp keep);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_EXECUTORBUILDER_H
