//===- Executor.cpp - JIT a Trellis program and run it on a mesh ----------===//

#include "lib/Execution/Executor.h"
#include "dialects/spmd/IR/SpmdOps.h"
#include "dialects/spmd/Transforms/Passes.h"
#include "dialects/trellis/IR/TrellisOps.h"
#include "dialects/trellis/Transforms/Passes.h"
#include "lib/Conversion/RuntimeABI.h"
#include "lib/Execution/Error.h"
#include "lib/Pipelines/Pipelines.h"
#include "lib/Runtime/TrellisRuntime.h"

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

namespace {

/// Finds the entry function: `name`, else `main`, else the only public
/// function with a body.
llvm::Expected<func::FuncOp> findEntry(ModuleOp module, StringRef name) {
  if (!name.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isExternal())
      return makeError("no function @" + name.str() +
                       " with a body in the module");
    return func;
  }
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    if (!main.isExternal())
      return main;
  func::FuncOp found;
  int count = 0;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && func.isPublic() &&
        !func->hasAttr(spmd::SpmdDialect::kMeshAttrName)) {
      found = func;
      ++count;
    }
  if (count == 1)
    return found;
  return makeError(count == 0 ? "the module has no public function to run"
                              : "the module has " + std::to_string(count) +
                                    " public functions; choose one with "
                                    "--entry");
}

rt::Spec toSpec(trellis::SpecAttr spec, trellis::MeshOp mesh) {
  rt::Spec out;
  for (trellis::DimShardingAttr dim : spec.getDims()) {
    rt::AxisList axes;
    for (StringAttr axis : dim.getAxes())
      axes.push_back(*mesh.getAxisIndex(axis.getValue()));
    out.push_back(axes);
  }
  return out;
}

/// This machine's physical memory in bytes (0 if unknown).
int64_t physicalMemoryBytes() {
  return std::max<int64_t>(0, static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) *
                                  sysconf(_SC_PAGE_SIZE));
}

llvm::Expected<TensorInfo> toTensorInfo(Type type, std::string name) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return makeError(name + " has type " + text +
                     "; the executor takes statically shaped tensors");
  }
  std::optional<int32_t> dtype =
      trellis::getRuntimeDtype(tensor.getElementType());
  if (!dtype) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << tensor.getElementType();
    return makeError(name + " has element type " + text +
                     ", which the executor does not support");
  }
  // The host holds every argument and result whole: one that cannot fit in
  // this machine's memory fails here, not as an out-of-memory abort.
  int64_t bytes = rt::dtypeSize(*dtype);
  for (int64_t d : tensor.getShape())
    if (llvm::MulOverflow(bytes, d, bytes))
      bytes = std::numeric_limits<int64_t>::max();
  const int64_t memory = physicalMemoryBytes();
  if (memory > 0 && bytes > memory) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return makeError(name + " has type " + text + ": " +
                     (bytes == std::numeric_limits<int64_t>::max()
                          ? std::string("more than 2^63 bytes")
                          : std::to_string(bytes) + " bytes") +
                     ", more than this machine's memory (" +
                     std::to_string(memory) + " bytes)");
  }
  TensorInfo info;
  info.name = std::move(name);
  info.dtype = *dtype;
  info.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return info;
}

/// Explicit sharding: a type that names a mesh.
bool hasShardedType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa_and_nonnull<trellis::ShardingAttr>(tensor.getEncoding());
}

/// Whether `entry` already is one fully-manual shard_map (or a plain
/// function with no mesh to partition over).
bool isManualEntry(func::FuncOp entry) {
  Block &body = entry.getBody().front();
  for (Operation &op : body)
    if (auto map = dyn_cast<spmd::ShardMapOp>(op))
      return map.getMeshOp() &&
             map.getAllManualAxes().size() == map.getMeshOp().getNumAxes() &&
             body.getOperations().size() == 2;
  bool annotated = false;
  entry.walk([&](Operation *op) {
    if (isa_and_nonnull<trellis::TrellisDialect, spmd::SpmdDialect>(
            op->getDialect()) ||
        op->hasAttr(trellis::TrellisDialect::kShardingAttrName) ||
        llvm::any_of(op->getResultTypes(), hasShardedType))
      annotated = true;
  });
  annotated |= llvm::any_of(entry.getArgumentTypes(), hasShardedType) ||
               llvm::any_of(entry.getResultTypes(), hasShardedType);
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    annotated |= static_cast<bool>(
        entry.getArgAttr(i, trellis::TrellisDialect::kShardingAttrName));
  for (unsigned i = 0; i < entry.getNumResults(); ++i)
    annotated |= static_cast<bool>(
        entry.getResultAttr(i, trellis::TrellisDialect::kShardingAttrName));
  return !annotated;
}

/// An entry that returns one of its arguments as is (canonicalization
/// forwards a shard_map result that only passes its input through) gets it
/// back through the shard_map, replicated in and out, so that every result
/// comes from the shard_map as the executor expects.
spmd::ShardMapOp routeReturnedArguments(func::FuncOp entry,
                                        spmd::ShardMapOp map) {
  auto ret = cast<func::ReturnOp>(entry.getBody().front().getTerminator());
  SmallVector<unsigned> passed;
  for (auto [j, value] : llvm::enumerate(ret.getOperands()))
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == &entry.getBody().front())
      passed.push_back(j);
  if (passed.empty())
    return map;
  MLIRContext *ctx = entry.getContext();
  SmallVector<Value> inputs(map.getInputs());
  SmallVector<Attribute> inSpecs(map.getInSpecs().begin(),
                                 map.getInSpecs().end());
  SmallVector<Attribute> outSpecs(map.getOutSpecs().begin(),
                                  map.getOutSpecs().end());
  SmallVector<Type> resultTypes(map.getResultTypes());
  for (unsigned j : passed) {
    Value arg = ret.getOperand(j);
    auto type = cast<RankedTensorType>(arg.getType());
    auto replicated = trellis::SpecAttr::get(
        ctx, SmallVector<trellis::DimShardingAttr>(
                 type.getRank(), trellis::DimShardingAttr::get(ctx, {})));
    inputs.push_back(arg);
    inSpecs.push_back(replicated);
    outSpecs.push_back(replicated);
    resultTypes.push_back(type);
  }
  OpBuilder b(map);
  auto routed = spmd::ShardMapOp::create(
      b, map.getLoc(), resultTypes, map.getMeshAttr(), b.getArrayAttr(inSpecs),
      b.getArrayAttr(outSpecs), map.getManualAxesAttr(), map.getCheckVmaAttr(),
      inputs);
  routed.getBody().takeBody(map.getBody());
  Block &body = routed.getBodyBlock();
  Operation *yield = body.getTerminator();
  SmallVector<Value> yielded(yield->getOperands());
  for (unsigned j : passed)
    yielded.push_back(body.addArgument(ret.getOperand(j).getType(),
                                       ret.getOperand(j).getLoc()));
  yield->setOperands(yielded);
  for (auto [result, replacement] :
       llvm::zip(map.getResults(), routed.getResults()))
    result.replaceAllUsesWith(replacement);
  for (auto [k, j] : llvm::enumerate(passed))
    ret.setOperand(j, routed.getResult(map.getNumResults() + k));
  map.erase();
  return routed;
}

void *alignedBuffer(int64_t bytes) {
  size_t size =
      static_cast<size_t>((std::max<int64_t>(bytes, 1) + 63) / 64 * 64);
  void *p = std::aligned_alloc(64, size);
  if (p)
    std::memset(p, 0, size);
  return p;
}

/// A memref descriptor for the C interface: allocated and aligned pointers,
/// offset, sizes, strides.
std::vector<int64_t> descriptorFor(void *data,
                                   const std::vector<int64_t> &shape) {
  std::vector<int64_t> d(3 + 2 * shape.size());
  d[0] = reinterpret_cast<int64_t>(data);
  d[1] = reinterpret_cast<int64_t>(data);
  d[2] = 0;
  int64_t stride = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    d[3 + i] = shape[i];
    d[3 + shape.size() + i] = stride;
    stride *= shape[i];
  }
  return d;
}

} // namespace

Executor::~Executor() {
  for (auto &perDevice : scratch_)
    for (void *buffer : perDevice)
      std::free(buffer);
}

/// Erases the functions other than `keep` that nothing uses; returns
/// whether it erased any.
static bool eraseUnusedFunctions(ModuleOp module, func::FuncOp keep) {
  bool erased = false;
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (func != keep && SymbolTable::symbolKnownUseEmpty(func, module)) {
      func.erase();
      erased = true;
    }
  return erased;
}

/// A scalar argument is taken as a 0-d tensor (a 0-d .npy, or generated
/// like any input): the entry gets a tensor<T> argument and extracts it. A
/// scalar result likewise comes back as a 0-d tensor.
static void takeScalarsAsTensors(func::FuncOp entry) {
  Block &entryBlock = entry.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entryBlock);
  for (BlockArgument arg : entryBlock.getArguments()) {
    if (!arg.getType().isIntOrIndexOrFloat())
      continue;
    Type scalarType = arg.getType();
    arg.setType(RankedTensorType::get({}, scalarType));
    if (arg.use_empty())
      continue;
    Value scalar =
        tensor::ExtractOp::create(b, arg.getLoc(), arg, ValueRange());
    arg.replaceAllUsesExcept(scalar, scalar.getDefiningOp());
  }
  SmallVector<Type> resultTypes(entry.getResultTypes());
  for (Block &block : entry.getBody())
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator())) {
      OpBuilder rb(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Type type = operand.get().getType();
        if (!type.isIntOrIndexOrFloat())
          continue;
        auto tensorType = RankedTensorType::get({}, type);
        operand.set(tensor::FromElementsOp::create(rb, ret.getLoc(), tensorType,
                                                   ValueRange{operand.get()}));
        resultTypes[operand.getOperandNumber()] = tensorType;
      }
    }
  entry.setType(FunctionType::get(entry.getContext(),
                                  entryBlock.getArgumentTypes(), resultTypes));
}

/// Finds the entry of `module` and partitions it in place (global-view
/// programs; the reference drops every sharding first). Returns the entry.
static llvm::Expected<func::FuncOp>
partitionEntry(ModuleOp module, const ExecutorOptions &options) {
  llvm::Expected<func::FuncOp> found = findEntry(module, options.entry);
  if (!found)
    return found.takeError();
  func::FuncOp entry = *found;
  // Only the entry and what it calls are partitioned and compiled: an
  // unrelated function the partitioner cannot take must not fail a run.
  while (eraseUnusedFunctions(module, entry))
    ;
  takeScalarsAsTensors(entry);
  PassManager pm(module.getContext());
  if (options.reference)
    pm.addPass(trellis::createTrellisStripShardings());
  if (!isManualEntry(entry) || options.reference) {
    trellis::buildGlobalToManualPipeline(pm);
    pm.addPass(trellis::createTrellisVerifyManual());
  }
  if (failed(pm.run(module)))
    return makeError("partitioning @" + entry.getSymName().str() + " failed");
  if (options.dumpPartitioned)
    module.print(llvm::errs());
  return findEntry(module, options.entry);
}

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
#include "lib/Runtime/TrellisRuntimeABI.def"
  add("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
  add("_mlir_memref_to_llvm_alloc",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_alloc));
  add("_mlir_memref_to_llvm_aligned_alloc",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_aligned_alloc));
  add("_mlir_memref_to_llvm_free",
      reinterpret_cast<void *>(&_mlir_memref_to_llvm_free));
  return symbols;
}

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

/// The host-side signature: every argument and result a statically shaped
/// tensor the host can hold, all of them together too.
llvm::Error Executor::Builder::describeSignature(func::FuncOp entry) {
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::string name = "arg" + std::to_string(i);
    if (auto attr = entry.getArgAttrOfType<StringAttr>(i, "trellis.name"))
      name = attr.getValue().str();
    llvm::Expected<TensorInfo> info = toTensorInfo(type, "argument " + name);
    if (!info)
      return info.takeError();
    info->name = name;
    exec.inputs_.push_back(*info);
  }
  for (auto [i, type] : llvm::enumerate(entry.getResultTypes())) {
    llvm::Expected<TensorInfo> info =
        toTensorInfo(type, "result #" + std::to_string(i));
    if (!info)
      return info.takeError();
    info->name = "out" + std::to_string(i);
    if (auto attr = entry.getResultAttrOfType<StringAttr>(i, "trellis.name"))
      info->name = attr.getValue().str();
    exec.outputs_.push_back(*info);
  }

  // Together, too: the host holds every argument and result at once.
  int64_t total = 0;
  for (const TensorInfo &info :
       llvm::concat<const TensorInfo>(exec.inputs_, exec.outputs_)) {
    int64_t bytes = rt::dtypeSize(info.dtype);
    for (int64_t d : info.shape)
      bytes *= d; // each fits in memory, checked above
    if (llvm::AddOverflow(total, bytes, total))
      total = std::numeric_limits<int64_t>::max();
  }
  const int64_t memory = physicalMemoryBytes();
  if (memory > 0 && total > memory)
    return makeError("the arguments and results of @" + entryName + " need " +
                     std::to_string(total) +
                     " bytes together, more than this "
                     "machine's memory (" +
                     std::to_string(memory) + " bytes)");
  return llvm::Error::success();
}

/// The entry's one spmd.shard_map, or null for a plain function.
llvm::Expected<spmd::ShardMapOp>
Executor::Builder::findShardMap(func::FuncOp entry) {
  spmd::ShardMapOp map;
  for (Operation &op : entry.getBody().front()) {
    if (auto m = dyn_cast<spmd::ShardMapOp>(op)) {
      if (map)
        return makeError(
            "@" + entryName +
            " has more than one spmd.shard_map; the "
            "executor runs one (run trellis-partition to merge them)");
      map = m;
    }
  }
  return map;
}

/// A fully-manual shard_map: its operands are function arguments sliced
/// per in_specs, the function's results its results assembled per
/// out_specs, on the shard_map's mesh.
llvm::Error Executor::Builder::describeShardMap(func::FuncOp entry,
                                                spmd::ShardMapOp map) {
  Block &body = entry.getBody().front();
  trellis::MeshOp mesh = map.getMeshOp();
  if (map.getAllManualAxes().size() != mesh.getNumAxes())
    return makeError(
        "the spmd.shard_map in @" + entryName +
        " leaves some mesh axes automatic; run trellis-partition first");
  for (Operation &op : body)
    if (&op != map.getOperation() && !isa<func::ReturnOp>(op))
      return makeError(
          "@" + entryName + " computes outside its spmd.shard_map ('" +
          op.getName().getStringRef().str() + "') after partitioning");
  for (auto [k, operand] : llvm::enumerate(map.getInputs())) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (!arg || arg.getOwner() != &body)
      return makeError("operand #" + std::to_string(k) +
                       " of the spmd.shard_map in @" + entryName +
                       " is not a function argument");
    Operand o;
    o.funcArg = arg.getArgNumber();
    o.spec = toSpec(cast<trellis::SpecAttr>(map.getInSpecs()[k]), mesh);
    auto local =
        cast<RankedTensorType>(map.getBodyBlock().getArgument(k).getType());
    o.local.assign(local.getShape().begin(), local.getShape().end());
    o.dtype = exec.inputs_[o.funcArg].dtype;
    exec.operands_.push_back(o);
  }
  Operation *yield = map.getBodyBlock().getTerminator();
  for (Type t : yield->getOperandTypes()) {
    auto local = cast<RankedTensorType>(t);
    exec.deviceResultShapes_.emplace_back(local.getShape().begin(),
                                          local.getShape().end());
    exec.deviceResultTypes_.push_back(
        *trellis::getRuntimeDtype(local.getElementType()));
  }
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [j, value] : llvm::enumerate(ret.getOperands())) {
    auto result = dyn_cast<OpResult>(value);
    if (!result || result.getOwner() != map.getOperation())
      return makeError("result #" + std::to_string(j) + " of @" + entryName +
                       " does not come from its spmd.shard_map");
    Result r;
    r.deviceResult = result.getResultNumber();
    r.spec = toSpec(cast<trellis::SpecAttr>(map.getOutSpecs()[r.deviceResult]),
                    mesh);
    r.local = exec.deviceResultShapes_[r.deviceResult];
    r.dtype = exec.deviceResultTypes_[r.deviceResult];
    exec.results_.push_back(r);
  }
  for (Attribute name : mesh.getAxisNames())
    exec.mesh_.axisNames.push_back(cast<StringAttr>(name).getValue().str());
  exec.mesh_.axisSizes.assign(mesh.getAxisSizes().begin(),
                              mesh.getAxisSizes().end());
  if (mesh.getDeviceIds())
    exec.mesh_.deviceIds.assign(mesh.getDeviceIds()->begin(),
                                mesh.getDeviceIds()->end());
  return llvm::Error::success();
}

/// A plain function: one device runs it whole.
llvm::Error Executor::Builder::describePlainFunction(func::FuncOp entry) {
  bool hasSpmd = false;
  entry.walk([&](Operation *op) {
    if (isa_and_nonnull<spmd::SpmdDialect, trellis::TrellisDialect>(
            op->getDialect()))
      hasSpmd = true;
  });
  if (hasSpmd)
    return makeError("@" + entryName +
                     " still uses trellis/spmd ops outside a shard_map after "
                     "partitioning");
  // Shardings left on its signature (partitioning can fold everything
  // away, e.g. a function that returns an argument in the layout it came
  // in) mean nothing here.
  for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i)
    entry.removeArgAttr(i, trellis::TrellisDialect::kShardingAttrName);
  for (unsigned i = 0, e = entry.getNumResults(); i < e; ++i)
    entry.removeResultAttr(
        i, StringAttr::get(entry.getContext(),
                           trellis::TrellisDialect::kShardingAttrName));
  exec.mesh_.axisNames = {"device"};
  exec.mesh_.axisSizes = {1};
  for (auto [i, info] : llvm::enumerate(exec.inputs_)) {
    Operand o;
    o.funcArg = static_cast<int>(i);
    o.local = info.shape;
    o.dtype = info.dtype;
    exec.operands_.push_back(o);
  }
  for (auto [j, info] : llvm::enumerate(exec.outputs_)) {
    Result r;
    r.deviceResult = static_cast<int>(j);
    r.local = info.shape;
    r.dtype = info.dtype;
    exec.results_.push_back(r);
    exec.deviceResultShapes_.push_back(info.shape);
    exec.deviceResultTypes_.push_back(info.dtype);
  }
  return llvm::Error::success();
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
  trellis::LowerToLLVMOptions lowering;
  lowering.asyncPpermute = options.asyncPpermute;
  lowering.forwardPpermute = options.forwardPpermute;
  lowering.kernels = options.kernels;
  lowering.approximateMath = options.approximateMath;
  lowering.copyBeforeWrite = options.copyBeforeWrite;
  trellis::buildLowerToLLVMPipeline(pm, lowering);
  if (failed(pm.run(*module)))
    return makeError("lowering @" + entryName + " to LLVM failed");
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

llvm::Expected<std::unique_ptr<Executor>>
Executor::create(ModuleOp source, const ExecutorOptions &options) {
  std::unique_ptr<Executor> exec(new Executor());
  exec->options_ = options;

  // Global-view programs are partitioned first (a copy of them); the
  // reference runs the program with every sharding dropped.
  OwningOpRef<ModuleOp> partitioned(source.clone());
  llvm::Expected<func::FuncOp> entry = partitionEntry(*partitioned, options);
  if (!entry)
    return entry.takeError();
  Builder builder{*exec, options, entry->getSymName().str()};
  exec->entry_ = builder.entryName;
  if (llvm::Error error = builder.describeSignature(*entry))
    return std::move(error);

  // The entry is either one fully-manual shard_map or a plain function.
  llvm::Expected<spmd::ShardMapOp> map = builder.findShardMap(*entry);
  if (!map)
    return map.takeError();
  const bool manual = static_cast<bool>(*map);
  std::string deviceName = builder.entryName;
  if (manual) {
    spmd::ShardMapOp routed = routeReturnedArguments(*entry, *map);
    if (llvm::Error error = builder.describeShardMap(*entry, routed))
      return std::move(error);
    deviceName += "_device";
  } else if (llvm::Error error = builder.describePlainFunction(*entry)) {
    return std::move(error);
  }

  llvm::Expected<OwningOpRef<ModuleOp>> lowered =
      builder.lower(*partitioned, manual);
  if (!lowered)
    return lowered.takeError();
  builder.collectSites(**lowered);
  if (llvm::Error error = builder.jit(**lowered, deviceName))
    return std::move(error);
  return std::move(exec);
}

/// If the block at `offset` of shape `block` is one contiguous run of a
/// row-major array of `shape`, its first element's index; otherwise -1. That
/// holds when the block spans one element in each leading dimension, then
/// any extent in one dimension, then whole dimensions.
static int64_t contiguousOffset(const std::vector<int64_t> &shape,
                                const std::vector<int64_t> &offset,
                                const std::vector<int64_t> &block) {
  size_t k = 0;
  while (k < shape.size() && block[k] == 1)
    ++k;
  for (size_t d = k + 1; d < shape.size(); ++d)
    if (block[d] != shape[d])
      return -1;
  int64_t index = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    index = index * shape[d] + offset[d];
  return index;
}

/// The arguments of one run: per device, the memref descriptors of the
/// device function's arguments and results, and the blocks copied in and
/// out around it.
struct Executor::RunArgs {
  RunArgs(int64_t devices, size_t numArgs, size_t numDeviceResults)
      : descriptors(devices, std::vector<std::vector<int64_t>>(numArgs)),
        descPtrs(devices, std::vector<void *>(numArgs)),
        packed(devices, std::vector<void *>(numArgs)), args(devices),
        copyOut(devices, std::vector<bool>(numDeviceResults, true)),
        placeIn(devices), soleUse(numDeviceResults, -1),
        uses(numDeviceResults, 0) {}

  /// Points args[p] at device p's descriptors.
  void pack(int64_t p) {
    for (size_t a = 0; a < descriptors[p].size(); ++a) {
      descPtrs[p][a] = descriptors[p][a].data();
      packed[p][a] = &descPtrs[p][a];
    }
    args[p] = packed[p].data();
  }

  std::vector<std::vector<std::vector<int64_t>>> descriptors;
  std::vector<std::vector<void *>> descPtrs;
  std::vector<std::vector<void *>> packed;
  std::vector<void **> args;
  /// (device, result slot) pairs whose block must be copied out afterwards.
  std::vector<std::vector<bool>> copyOut;
  /// Per device, the (operand, block offset) pairs to copy into its scratch
  /// buffers before it starts; each device thread copies its own.
  std::vector<std::vector<std::pair<size_t, std::vector<int64_t>>>> placeIn;
  /// Which function result, if exactly one, each device result feeds.
  std::vector<int> soleUse, uses;
};

llvm::Error Executor::checkInputs(const std::vector<HostArray> &inputs) const {
  if (inputs.size() != inputs_.size())
    return makeError("@" + entry_ + " takes " + std::to_string(inputs_.size()) +
                     " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].dtype != inputs_[i].dtype ||
        inputs[i].shape != inputs_[i].shape)
      return makeError("input " + inputs_[i].name + " must be " +
                       numpyName(inputs_[i].dtype) +
                       npyShapeText(inputs_[i].shape) + ", got " +
                       numpyName(inputs[i].dtype) +
                       npyShapeText(inputs[i].shape));
  return llvm::Error::success();
}

void *Executor::scratchFor(int64_t p, size_t slot, int64_t bytes) {
  if (!scratch_[p][slot])
    scratch_[p][slot] = alignedBuffer(bytes);
  return scratch_[p][slot];
}

llvm::Error Executor::bindOperands(int64_t p,
                                   const std::vector<HostArray> &inputs,
                                   bool placed, RunArgs &call) {
  for (size_t k = 0; k < operands_.size(); ++k) {
    const Operand &o = operands_[k];
    const HostArray &global = inputs[o.funcArg];
    std::vector<int64_t> offset = rt::blockOffset(mesh_, p, o.local, o.spec);
    int64_t at = contiguousOffset(global.shape, offset, o.local);
    void *data;
    if (at >= 0) {
      // A view into the global input: device functions never write their
      // arguments (bufferization.writable = false).
      data =
          const_cast<char *>(global.data.data()) + at * global.elementBytes();
    } else {
      data = scratchFor(p, k, rt::product(o.local) * global.elementBytes());
      if (!data)
        return makeError("out of memory allocating device buffers");
      if (!placed)
        call.placeIn[p].push_back({k, std::move(offset)});
    }
    call.descriptors[p][k] = descriptorFor(data, o.local);
  }
  return llvm::Error::success();
}

llvm::Error Executor::bindResults(int64_t p, std::vector<HostArray> &outputs,
                                  RunArgs &call) {
  const size_t numOperands = operands_.size();
  for (size_t r = 0; r < deviceResultShapes_.size(); ++r) {
    size_t slot = numOperands + r;
    void *data = nullptr;
    if (call.uses[r] == 1) {
      const Result &res = results_[call.soleUse[r]];
      HostArray &out = outputs[call.soleUse[r]];
      if (rt::ownsOutputBlock(mesh_, p, res.spec)) {
        int64_t at = contiguousOffset(
            out.shape, rt::blockOffset(mesh_, p, res.local, res.spec),
            res.local);
        if (at >= 0) {
          data = out.data.data() + at * out.elementBytes();
          call.copyOut[p][r] = false;
        }
      }
    }
    if (!data) {
      data = scratchFor(p, slot,
                        rt::product(deviceResultShapes_[r]) *
                            rt::dtypeSize(deviceResultTypes_[r]));
      if (!data)
        return makeError("out of memory allocating device buffers");
    }
    call.descriptors[p][slot] = descriptorFor(data, deviceResultShapes_[r]);
  }
  return llvm::Error::success();
}

rt::Session::DeviceHooks
Executor::copyHooks(const std::vector<HostArray> &inputs,
                    std::vector<HostArray> &outputs, const RunArgs &call) {
  // Non-contiguous blocks are copied in and out on the device threads, in
  // parallel (a 1x8 mesh's column blocks are 80 MB in and 16 MB out for the
  // bench FFN; one thread copying them was a few ms of every run).
  rt::Session::DeviceHooks hooks;
  hooks.before = [this, &inputs, &call](int64_t p) {
    for (const auto &[k, offset] : call.placeIn[p]) {
      const Operand &o = operands_[k];
      const HostArray &global = inputs[o.funcArg];
      rt::copyBlock(global.shape, offset, o.local, global.elementBytes(),
                    global.data.data(), scratch_[p][k], /*toBlock=*/true);
    }
  };
  hooks.after = [this, &outputs, &call](int64_t p) {
    const size_t numOperands = operands_.size();
    for (size_t j = 0; j < results_.size(); ++j) {
      const Result &r = results_[j];
      if (!rt::ownsOutputBlock(mesh_, p, r.spec) ||
          !call.copyOut[p][r.deviceResult])
        continue;
      HostArray &out = outputs[j];
      rt::copyBlock(out.shape, rt::blockOffset(mesh_, p, r.local, r.spec),
                    r.local, out.elementBytes(),
                    scratch_[p][numOperands + r.deviceResult], out.data.data(),
                    /*toBlock=*/false);
    }
  };
  return hooks;
}

llvm::Error Executor::run(const std::vector<HostArray> &inputs,
                          std::vector<HostArray> &outputs,
                          bool inputsUnchanged) {
  if (llvm::Error error = checkInputs(inputs))
    return error;

  // Outputs: reuse the caller's arrays when they already fit.
  outputs.resize(results_.size());
  for (size_t j = 0; j < results_.size(); ++j)
    if (outputs[j].dtype != outputs_[j].dtype ||
        outputs[j].shape != outputs_[j].shape ||
        static_cast<int64_t>(outputs[j].data.size()) !=
            outputs[j].numElements() * outputs[j].elementBytes())
      outputs[j].allocate(outputs_[j].dtype, outputs_[j].shape);

  const int64_t devices = mesh_.numDevices();
  const size_t numArgs = operands_.size() + deviceResultShapes_.size();
  std::vector<const char *> inputData;
  for (const HostArray &input : inputs)
    inputData.push_back(input.data.data());
  const bool placed = inputsUnchanged && placedInputs_ == inputData;
  placedInputs_.clear(); // until this run has placed them
  if (scratch_.empty())
    scratch_.assign(devices, std::vector<void *>(numArgs, nullptr));

  RunArgs call(devices, numArgs, deviceResultShapes_.size());
  for (size_t j = 0; j < results_.size(); ++j) {
    ++call.uses[results_[j].deviceResult];
    call.soleUse[results_[j].deviceResult] = static_cast<int>(j);
  }
  for (int64_t p = 0; p < devices; ++p) {
    if (llvm::Error error = bindOperands(p, inputs, placed, call))
      return error;
    if (llvm::Error error = bindResults(p, outputs, call))
      return error;
    call.pack(p);
  }

  rt::Session::DeviceHooks hooks = copyHooks(inputs, outputs, call);
  placedInputs_ = inputData;
  std::string error;
  if (!session_->run(entryFn_, call.args, error, hooks))
    return makeError(error);
  return llvm::Error::success();
}

std::vector<Executor::LocalBlock>
Executor::localInputs(int64_t position) const {
  std::vector<LocalBlock> blocks;
  for (const Operand &o : operands_) {
    LocalBlock b;
    b.index = o.funcArg;
    b.shape = o.local;
    b.offset = rt::blockOffset(mesh_, position, o.local, o.spec);
    b.dtype = o.dtype;
    blocks.push_back(std::move(b));
  }
  return blocks;
}

std::vector<Executor::LocalBlock>
Executor::localOutputs(int64_t position) const {
  std::vector<LocalBlock> blocks;
  for (const Result &r : results_) {
    LocalBlock b;
    b.index = r.deviceResult;
    b.shape = r.local;
    b.offset = rt::blockOffset(mesh_, position, r.local, r.spec);
    b.dtype = r.dtype;
    b.owned = rt::ownsOutputBlock(mesh_, position, r.spec);
    blocks.push_back(std::move(b));
  }
  return blocks;
}

std::vector<Executor::LocalBlock> Executor::deviceResults() const {
  std::vector<LocalBlock> blocks;
  for (size_t r = 0; r < deviceResultShapes_.size(); ++r) {
    LocalBlock b;
    b.index = static_cast<int>(r);
    b.shape = deviceResultShapes_[r];
    b.offset.assign(b.shape.size(), 0);
    b.dtype = deviceResultTypes_[r];
    blocks.push_back(std::move(b));
  }
  return blocks;
}

void Executor::runOnly(int64_t position, rt::Communicator *comm) {
  session_->runOnly(position, comm);
}

llvm::Error Executor::runLocal(int64_t position, std::vector<HostArray> &blocks,
                               std::vector<HostArray> &results) {
  const int64_t devices = mesh_.numDevices();
  const size_t numOperands = operands_.size();
  if (blocks.size() != numOperands)
    return makeError("internal error: " + std::to_string(blocks.size()) +
                     " input blocks for " + std::to_string(numOperands) +
                     " arguments");
  results.resize(deviceResultShapes_.size());
  // A fresh HostArray already has a 0-d shape: allocate it all the same.
  for (size_t r = 0; r < results.size(); ++r)
    if (results[r].data.empty() || results[r].shape != deviceResultShapes_[r] ||
        results[r].dtype != deviceResultTypes_[r])
      results[r].allocate(deviceResultTypes_[r], deviceResultShapes_[r]);
  std::vector<std::vector<int64_t>> descriptors;
  for (size_t k = 0; k < numOperands; ++k)
    descriptors.push_back(
        descriptorFor(blocks[k].data.data(), operands_[k].local));
  for (size_t r = 0; r < results.size(); ++r)
    descriptors.push_back(
        descriptorFor(results[r].data.data(), deviceResultShapes_[r]));
  std::vector<void *> descPtrs, packed;
  for (auto &d : descriptors)
    descPtrs.push_back(d.data());
  for (auto &p : descPtrs)
    packed.push_back(&p);
  std::vector<void **> args(devices, nullptr);
  args[position] = packed.data();
  std::string error;
  if (!session_->run(entryFn_, args, error))
    return makeError(error);
  return llvm::Error::success();
}

std::vector<std::vector<rt::TraceEvent>> Executor::traces() const {
  return session_ ? session_->traces()
                  : std::vector<std::vector<rt::TraceEvent>>();
}
