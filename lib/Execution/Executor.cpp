//===- Executor.cpp - JIT a Trellis program and run it on a mesh ----------===//
//
// Running a compiled program: Executor::run on the whole mesh, runLocal
// on one device of it (MPI), and the blocks each device reads and writes.
// Executor::create is in ExecutorCompile.cpp.
//
//===----------------------------------------------------------------------===//

#include "trellis/Execution/Executor.h"
#include "lib/Execution/Error.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::trellis::exec;
namespace rt = mlir::trellis::rt;

namespace {

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

std::vector<rt::DeviceTimes> Executor::deviceTimes() const {
  return session_ ? session_->deviceTimes() : std::vector<rt::DeviceTimes>();
}

std::vector<std::vector<double>> Executor::computeSegments() const {
  return session_ ? session_->computeSegments()
                  : std::vector<std::vector<double>>();
}

void Executor::replayComputeSegments(
    std::vector<std::vector<double>> segments) {
  if (session_)
    session_->replayComputeSegments(std::move(segments));
}
