//===- ExecutorCompile.cpp - Partition, lower and JIT a program -----------===//
//
// Executor::create and its steps: find the entry, partition it, describe
// its signature and device program, lower a copy to LLVM and JIT it.
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
#include "llvm/ADT/SetVector.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <sys/resource.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::trellis::exec;
namespace rt = mlir::trellis::rt;

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

/// The memory this process may use, in bytes (0 if unknown): this
/// machine's physical memory, or less under an address-space or data limit
/// (ulimit -v, -d) or a cgroup's memory.max, which would otherwise end a
/// run that passes this check in an out-of-memory abort.
int64_t physicalMemoryBytes() {
  int64_t bytes = std::max<int64_t>(
      0, static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) *
             sysconf(_SC_PAGE_SIZE));
  auto lower = [&](int64_t limit) {
    if (limit > 0 && (bytes == 0 || limit < bytes))
      bytes = limit;
  };
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit limit;
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      lower(static_cast<int64_t>(
          std::min<rlim_t>(limit.rlim_cur, std::numeric_limits<int64_t>::max())));
  }
  if (FILE *f = std::fopen("/sys/fs/cgroup/memory.max", "r")) {
    long long limit = 0;
    if (std::fscanf(f, "%lld", &limit) == 1) // "max" reads as no number
      lower(limit);
    std::fclose(f);
  }
  return bytes;
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
                     ", more than the memory this process may use (" +
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
  if (llvm::any_of(entry.getBody().front(), llvm::IsaPred<spmd::ShardMapOp>))
    return static_cast<bool>(spmd::getWholeFunctionShardMap(entry));
  bool annotated = false;
  // The entry and every function it calls: a sharding constraint in a
  // callee (JAX's jitted helpers) needs the partitioner as much as one in
  // the entry.
  llvm::SetVector<func::FuncOp> reached;
  reached.insert(entry);
  for (size_t i = 0; i < reached.size(); ++i) {
    func::FuncOp func = reached[i];
    func.walk([&](Operation *op) {
      if (isa_and_nonnull<trellis::TrellisDialect, spmd::SpmdDialect>(
              op->getDialect()) ||
          op->hasAttr(trellis::TrellisDialect::kShardingAttrName) ||
          llvm::any_of(op->getResultTypes(), hasShardedType))
        annotated = true;
      if (auto call = dyn_cast<func::CallOp>(op))
        if (auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                op, call.getCalleeAttr()))
          reached.insert(callee);
    });
  }
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

} // namespace

/// Erases the functions other than `keep` that nothing uses; returns
/// whether it erased any.
bool mlir::trellis::exec::eraseUnusedFunctions(ModuleOp module,
                                               func::FuncOp keep) {
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
  // A slice whose static numbers reach outside its tensor verifies (the
  // tensor dialect adds them in wrapping arithmetic) but would read or
  // write other memory when run.
  if (failed(trellis::verifyStaticSliceBounds(module)))
    return makeError("@" + entry.getSymName().str() +
                     " slices outside a tensor (see the error above)");
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
                     " bytes together, more than the memory this "
                     "process may use (" +
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
  // A device function already lowered to runtime calls addresses the
  // groups of its mesh, which a plain function's single device does not
  // have (its collectives read past their group: a crash or a hang).
  // The entry and every function it calls, transitively.
  bool callsRuntime = false;
  SmallVector<func::FuncOp> work = {entry};
  llvm::SmallPtrSet<Operation *, 8> seen = {entry};
  while (!work.empty() && !callsRuntime) {
    func::FuncOp fn = work.pop_back_val();
    callsRuntime = fn->hasAttr("spmd.manual_axes");
    fn.walk([&](func::CallOp call) {
      if (call.getCallee().starts_with("trellis_rt_"))
        callsRuntime = true;
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && seen.insert(callee).second)
        work.push_back(callee);
    });
  }
  if (callsRuntime)
    return makeError("@" + entryName +
                     " is a device function lowered for a mesh (it calls the "
                     "Trellis runtime); trellis-run runs programs before "
                     "lowering: give it the function with the shard_map");
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
