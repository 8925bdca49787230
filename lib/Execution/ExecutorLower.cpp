//===- ExecutorLower.cpp - Lower a partitioned program and JIT it ---------===//
//
// Executor::create's last steps: a copy of the partitioned module checked
// and lowered to the LLVM dialect, its collective sites recorded, and the
// result JIT-compiled against the runtime's entry points.
//
//===----------------------------------------------------------------------===//

#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/trellis/IR/ShardingUtils.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "dialects/trellis/Interfaces/SliceUtils.h"
#include "lib/Execution/Error.h"
#include "lib/Execution/ExecutorBuilder.h"
#include "lib/Runtime/CompilerBuiltins.h"
#include "trellis/Conversion/RuntimeABI.h"
#include "trellis/Execution/Executor.h"
#include "trellis/Pipelines/Pipelines.h"
#include "trellis/Runtime/TrellisRuntime.h"
#include "trellis/Transforms/Spmd/Passes.h"
#include "trellis/Transforms/Trellis/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <limits>

#include <unistd.h>

using namespace mlir;
using namespace mlir::trellis::exec;
namespace rt = mlir::trellis::rt;

extern "C" void memrefCopy(int64_t, void *, void *);

/// The runtime's entry points and the memref helpers the lowered code
/// calls, as the JIT resolves them.
static llvm::orc::SymbolMap
runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](const char *name, void *address) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  };
#define TRELLIS_RT_FUNC(RESULT, NAME, PARAMS)                                  \
  add("trellis_rt_" #NAME, reinterpret_cast<void *>(&trellis_rt_##NAME));
#include "trellis/Runtime/TrellisRuntimeABI.def"
  add("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
  add("_mlir_memref_to_llvm_alloc",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_alloc));
  add("_mlir_memref_to_llvm_aligned_alloc",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_aligned_alloc));
  add("_mlir_memref_to_llvm_free",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_free));
  // Soft-float conversions LLVM calls where the host has no bf16
  // instructions; the process may not link a libgcc that has them.
  add("__truncsfbf2", reinterpret_cast<void *>(&trellis_builtin_truncsfbf2));
  add("__truncdfbf2", reinterpret_cast<void *>(&trellis_builtin_truncdfbf2));
  return symbols;
}

/// Lowers a copy of the partitioned module to the LLVM dialect; `manual`:
/// the entry is a shard_map, whose body becomes the device function.
llvm::Expected<OwningOpRef<ModuleOp>>
Executor::Builder::lower(ModuleOp partitioned, bool manual) {
  OwningOpRef<ModuleOp> module(partitioned.clone());
  MLIRContext *ctx = module->getContext();
  // Manual code is checked first (seed 001): an output that may vary over
  // an axis its out_spec omits would silently keep one device's block.
  // shard_maps with check_vma = false (the partitioner's among them) opt
  // out, as in JAX.
  // Only the entry and what it calls are compiled (and checked).
  eraseUnusedFunctions(*module, module->lookupSymbol<func::FuncOp>(entryName));
  if (manual) {
    PassManager check(ctx);
    check.addPass(spmd::createSpmdCheckVariance());
    if (failed(check.run(*module)))
      return makeError(
          "@" + entryName +
          " fails the device-variance check (set check_vma = false on "
          "the shard_map to run it anyway)");
  }
  PassManager pm(ctx);
  if (!options.passes.empty()) {
    std::string message;
    llvm::raw_string_ostream os(message);
    if (failed(parsePassPipeline(options.passes, pm, os)))
      return makeError("invalid --passes pipeline '" + options.passes +
                       "': " + message);
  }
  if (manual) {
    spmd::SpmdOutlineDeviceFuncOptions outline;
    outline.entry = entryName;
    outline.eraseHost = true;
    pm.addPass(spmd::createSpmdOutlineDeviceFunc(outline));
  } else {
    auto copy = module->lookupSymbol<func::FuncOp>(entryName);
    copy->setAttr("llvm.emit_c_interface", UnitAttr::get(ctx));
    for (unsigned i = 0; i < copy.getNumArguments(); ++i)
      copy.setArgAttr(i, "bufferization.writable", BoolAttr::get(ctx, false));
    eraseUnusedFunctions(*module, copy);
  }
  auto failedToLower = [&] {
    return makeError("lowering @" + entryName + " to LLVM failed");
  };
  if (failed(pm.run(*module)))
    return failedToLower();
  if (options.overlap) {
    // The overlap passes report each rewrite as a remark, kept for
    // trellis-run's summary (only theirs: this handler sees no other pass).
    PassManager overlap(ctx);
    trellis::buildOverlapPipeline(overlap, /*remarks=*/true);
    ScopedDiagnosticHandler remarks(ctx, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Remark)
        return failure();
      Location where = diag.getLocation();
      if (auto file = where->findInstanceOf<FileLineColLoc>())
        where = file;
      exec.overlapRemarks_.push_back(trellis::formatShortLocation(where) +
                                     ": " + diag.str());
      return success();
    });
    if (failed(overlap.run(*module)))
      return failedToLower();
  }
  trellis::LowerToLLVMOptions lowering;
  lowering.asyncPpermute = options.asyncPpermute;
  lowering.kernels = options.kernels;
  lowering.approximateMath = options.approximateMath;
  lowering.copyBeforeWrite = options.copyBeforeWrite;
  PassManager lower(ctx);
  trellis::buildLowerToLLVMPipeline(lower, lowering);
  if (failed(lower.run(*module)))
    return failedToLower();
  // The lowered module calls the runtime by the ABI it was lowered for;
  // the runtime linked into this process must implement that one.
  if (auto version = (*module)->getAttrOfType<IntegerAttr>(
          trellis::kRuntimeABIVersionAttrName);
      version && version.getInt() != trellis_rt_abi_version())
    return makeError("@" + entryName + " was lowered for Trellis runtime ABI " +
                     std::to_string(version.getInt()) +
                     ", but this runtime implements " +
                     std::to_string(trellis_rt_abi_version()));
  if (options.dumpLLVMDialect)
    module->print(llvm::errs());
  return std::move(module);
}

/// The collective sites the lowering recorded (for the runtime's errors).
void Executor::Builder::collectSites(ModuleOp lowered) {
  auto sites =
      lowered->getAttrOfType<ArrayAttr>(spmd::SpmdDialect::kSitesAttrName);
  if (!sites)
    return;
  for (Attribute attr : sites) {
    auto dict = cast<DictionaryAttr>(attr);
    rt::SiteInfo site;
    if (auto op = dict.getAs<StringAttr>("op"))
      site.opName = op.getValue().str();
    if (auto loc = dict.getAs<StringAttr>("loc"))
      site.location = loc.getValue().str();
    if (auto pairs = dict.getAs<DenseI64ArrayAttr>("pairs"))
      for (int64_t i = 0; i + 1 < pairs.size(); i += 2)
        site.pairs.emplace_back(pairs[i], pairs[i + 1]);
    exec.sites_.push_back(site);
  }
}

/// JIT-compiles the lowered module for this host, finds the device
/// function and opens the session that runs it.
llvm::Error Executor::Builder::jit(ModuleOp lowered,
                                   const std::string &deviceName) {
  static bool targetInitialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetInitialized;
  MLIRContext *ctx = lowered.getContext();
  registerBuiltinDialectTranslation(*ctx);
  registerLLVMDialectTranslation(*ctx);

  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return makeError("cannot detect the host target: " +
                     llvm::toString(machineBuilder.takeError()));
  machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return makeError("cannot create a target machine: " +
                     llvm::toString(machine.takeError()));
  auto transformer = makeOptimizingTransformer(options.optLevel,
                                               /*sizeLevel=*/0, machine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine =
      ExecutionEngine::create(lowered, engineOptions, std::move(*machine));
  if (!engine)
    return makeError("JIT compilation failed: " +
                     llvm::toString(engine.takeError()));
  exec.engine_ = std::move(*engine);
  exec.engine_->registerSymbols(runtimeSymbols);
  exec.engine_->initialize();
  auto fn = exec.engine_->lookupPacked("_mlir_ciface_" + deviceName);
  if (!fn)
    return makeError("cannot find the compiled device function: " +
                     llvm::toString(fn.takeError()));
  exec.entryFn_ = *fn;
  exec.session_ =
      std::make_unique<rt::Session>(exec.mesh_, exec.sites_, options.session);
  return llvm::Error::success();
}
