//===- RunReport.cpp - trellis-run's results and times --------------------===//
//
// The Driver's steps after the runs: results written and printed, the
// layouts shown, results checked against the unpartitioned reference
// (settled in f64 where floats disagree), and the times reported.
//
//===----------------------------------------------------------------------===//

#include "lib/Execution/RunDriver.h"

using namespace mlir;
using namespace mlir::trellis::exec;
namespace cl = llvm::cl;
namespace rt = mlir::trellis::rt;

namespace mlir::trellis::exec::driver {

/// The trace, and the .npy files of --output-dir.
std::optional<int> Driver::writeResults() {
  const std::string &outputDir = opts.outputDir;
  if (!outputDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return finish(fail("cannot create '" + outputDir + "': " + ec.message()));
  if (!opts.traceFile.empty())
    if (llvm::Error error =
            writeChromeTrace(opts.traceFile, exec->mesh(), exec->traces()))
      return finish(fail(llvm::toString(std::move(error))));
  if (!opts.clockReport.empty())
    if (llvm::Error error =
            writeClockReport(opts.clockReport, clocks, replayed,
                             options.session.link, options.session.profile))
      return finish(fail(llvm::toString(std::move(error))));

  if (!outputDir.empty() && opts.saveInputs)
    for (size_t i = 0; i < inputs.size(); ++i) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "arg" + std::to_string(i) + ".npy");
      if (llvm::Error error = writeNpy(path.str().str(), inputs[i]))
        return finish(fail(llvm::toString(std::move(error))));
    }
  if (!outputDir.empty()) {
    for (size_t j = 0; j < outputs.size(); ++j) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "out" + std::to_string(j) + ".npy");
      if (llvm::Error error = writeNpy(path.str().str(), outputs[j]))
        return finish(fail(llvm::toString(std::move(error))));
    }
  }
  return std::nullopt;
}

/// --show-shardings: each input's and output's blocks over the mesh, as
/// the partitioned program lays them out (rank 0 only under MPI).
std::optional<int> Driver::showLayouts() {
  if (!opts.showShardings || mpiRank != 0)
    return std::nullopt;
  const rt::MeshShape &mesh = exec->mesh();
  llvm::outs() << "mesh (";
  for (int a = 0; a < mesh.numAxes(); ++a)
    llvm::outs() << (a ? ", " : "") << "\"" << mesh.axisNames[a]
                 << "\"=" << mesh.axisSizes[a];
  llvm::outs() << "), " << mesh.numDevices() << " devices\n";
  // Every device's blocks, once: per input, per output.
  std::vector<std::vector<Executor::LocalBlock>> ins, outs;
  for (int64_t p = 0; p < mesh.numDevices(); ++p) {
    ins.push_back(exec->localInputs(p));
    outs.push_back(exec->localOutputs(p));
  }
  auto draw = [&](const TensorInfo &info, bool output, int index) {
    std::vector<DeviceBlock> blocks;
    for (int64_t p = 0; p < mesh.numDevices(); ++p) {
      // An input no device argument takes is whole on every device.
      DeviceBlock block{mesh.deviceAt(p),
                        std::vector<int64_t>(info.shape.size(), 0), info.shape};
      const Executor::LocalBlock *local = output ? &outs[p][index] : nullptr;
      if (!output)
        for (const Executor::LocalBlock &l : ins[p])
          if (l.index == index)
            local = &l;
      if (local) {
        block.offset = local->offset;
        block.shape = local->shape;
      }
      blocks.push_back(std::move(block));
    }
    llvm::outs() << info.name << ": " << numpyName(info.dtype)
                 << shapeText(info.shape) << "\n"
                 << drawBlocks(info.shape, blocks);
  };
  for (auto [i, info] : llvm::enumerate(exec->inputs()))
    draw(info, false, i);
  for (auto [j, info] : llvm::enumerate(exec->outputs()))
    draw(info, true, j);
  return std::nullopt;
}

/// Prints the results (--print, or without --output-dir).
void Driver::printResults() {
  if (opts.dryRun) {
    llvm::outs() << "dry run: " << outputs.size()
                 << " result(s) not computed\n";
    return;
  }
  if (!opts.printResults && !opts.outputDir.empty())
    return;
  for (size_t j = 0; j < outputs.size(); ++j) {
    llvm::outs() << "out" << j;
    // A named result (trellis.name, e.g. from JAX's jax.result_info).
    const std::string &name = exec->outputs()[j].name;
    if (name != "out" + std::to_string(j))
      llvm::outs() << " (" << name << ")";
    llvm::outs() << ": " << numpyName(outputs[j].dtype)
                 << shapeText(outputs[j].shape) << "\n"
                 << formatArray(outputs[j]) << "\n";
  }
}

/// --reference: runs the oracle and compares each result with it.
std::optional<int> Driver::checkAgainstReference() {
  if (!opts.reference)
    return std::nullopt;
  // The oracle: the program with every sharding dropped (one device) or,
  // for manual code, the same mesh; either way lowered and run the
  // simplest way, so it shares as little as possible with the run it
  // checks: blocking reference collectives, plain-loop matmul kernels
  // instead of Eigen and oneDNN (the loop lowering's scalar loops took
  // minutes at a few GFLOP), no in-place updates, libm math, no link model
  // or compute slots.
  ExecutorOptions refOptions = options;
  refOptions.reference = true;
  refOptions.dumpPartitioned = false;
  refOptions.dumpLLVMDialect = false;
  refOptions.session.trace = false;
  refOptions.session.link = {};
  refOptions.session.computeSlots = 0;
  refOptions.session.virtualClock = false;
  refOptions.session.profile = {};
  refOptions.session.dryRun = false;
  refOptions.session.referenceCollectives = true;
  refOptions.asyncPpermute = false;
  refOptions.overlap = false;
  refOptions.kernels = true;
  refOptions.session.referenceKernels = true;
  refOptions.approximateMath = false;
  refOptions.copyBeforeWrite = true;
  // The program as written: a --passes rewrite (collective matmul, ...)
  // is part of what is checked.
  refOptions.passes.clear();
  llvm::Expected<std::unique_ptr<Executor>> createdRef =
      Executor::create(*module, refOptions);
  if (!createdRef)
    return finish(fail("reference: " + llvm::toString(createdRef.takeError())));
  std::unique_ptr<Executor> ref = std::move(*createdRef);
  std::vector<HostArray> expected;
  if (llvm::Error error = ref->run(inputs, expected))
    return finish(fail("reference: " + llvm::toString(std::move(error))));
  llvm::outs() << "oracle: "
               << (ref->mesh().numDevices() == 1
                       ? "the unpartitioned program on 1 device"
                       : "the program with its shardings dropped, on the " +
                             std::to_string(ref->mesh().numDevices()) +
                             " devices its shard_maps need (partitioned "
                             "the same way)")
               << ", without --passes or --overlap, lowered simply (reference "
                  "collectives, plain-loop matmul kernels, no in-place "
                  "updates, libm math)\n";
  // A float result that differs is re-evaluated in f64 (F64Referee.h):
  // the run may be as close to the exact value as its type allows.
  std::vector<HostArray> exact;
  std::string exactError;
  for (size_t j = 0; j < outputs.size() && exact.empty() && exactError.empty();
       ++j) {
    ResultTolerance t = resultTolerance(j, expected[j]);
    if (outputs[j].isFloat() &&
        !compareArrays(expected[j], outputs[j], t.rtol, t.atol).equal)
      if (llvm::Error error = evaluateInF64(refOptions, exact))
        exactError = llvm::toString(std::move(error));
  }
  bool allMatch = true;
  for (size_t j = 0; j < outputs.size(); ++j)
    allMatch &= compareResult(j, expected[j], ref->mesh().numDevices(),
                              exact.empty() ? nullptr : &exact[j],
                              exactError);
  if (!allMatch)
    return finish(1);
  return std::nullopt;
}

Driver::ResultTolerance Driver::resultTolerance(size_t j,
                                                const HostArray &expected) {
  ResultTolerance t;
  for (int64_t i = 0, n = expected.numElements(); i < n; ++i)
    if (std::isfinite(expected.at(i)))
      t.scale = std::max(t.scale, std::fabs(expected.at(i)));
  Tolerance tolerance = defaultTolerance(outputs[j].dtype);
  if (opts.relTol.getNumOccurrences())
    tolerance.rtol = opts.relTol;
  if (opts.absTol.getNumOccurrences())
    tolerance.atolScale = opts.absTol;
  t.given = opts.relTol.getNumOccurrences() || opts.absTol.getNumOccurrences();
  t.rtol = tolerance.rtol;
  t.atolScale = tolerance.atolScale;
  t.atol = tolerance.atolScale * t.scale;
  return t;
}

llvm::Error Driver::evaluateInF64(const ExecutorOptions &refOptions,
                                  std::vector<HostArray> &exact) {
  llvm::Expected<OwningOpRef<ModuleOp>> wide = widenFloatsToF64(*module);
  if (!wide)
    return wide.takeError();
  llvm::Expected<std::unique_ptr<Executor>> created =
      Executor::create(**wide, refOptions);
  if (!created)
    return created.takeError();
  std::vector<HostArray> wideInputs;
  for (const HostArray &input : inputs)
    wideInputs.push_back(widenArray(input));
  return (*created)->run(wideInputs, exact);
}

/// Compares result `j` with the oracle's and prints how they differ; a
/// float result that differs is settled by `exact` (the f64 re-evaluation;
/// null when there is none, with `exactError` saying why when it failed).
bool Driver::compareResult(size_t j, const HostArray &expected,
                           int64_t refDevices, const HostArray *exact,
                           const std::string &exactError) {
  ResultTolerance t = resultTolerance(j, expected);
  Comparison c = compareArrays(expected, outputs[j], t.rtol, t.atol);
  bool settled = false;
  std::string ruling;
  if (!c.equal && outputs[j].isFloat() && c.mismatches > 0) {
    if (exact) {
      Verdict v = referee(expected, outputs[j], *exact, t.rtol, t.atol);
      settled = v.settled();
      ruling = llvm::formatv(
          "; re-evaluated in f64, of the {0} differing elements the run is "
          "within tolerance of the f64 value at {1}, and within twice the "
          "oracle's own largest distance from it ({2}) at {3} more (the "
          "oracle is within tolerance at {4})",
          v.disputed, v.actualClose, llvm::format("%.3g", v.oracleError),
          v.actualAsGood, v.expectedClose);
      if (settled)
        ruling += ": rounding the computation magnifies, not a mismatch";
      else
        ruling += llvm::formatv(
            "; first wrong at [{0}]: f64 {1}, got {2}",
            elementIndexText(outputs[j].shape, v.firstWrong),
            llvm::format("%.9g", exact->at(v.firstWrong)),
            llvm::format("%.9g", outputs[j].at(v.firstWrong)));
    } else if (!exactError.empty()) {
      ruling = "; could not re-evaluate in f64: " + exactError;
    }
  }
  bool ok = c.equal || settled;
  llvm::outs() << "reference: out" << j << " (" << numpyName(outputs[j].dtype)
               << shapeText(outputs[j].shape) << ", "
               << exec->mesh().numDevices() << " devices vs " << refDevices
               << "): " << (ok ? "" : "MISMATCH: ")
               << c.describe(expected, outputs[j]);
  if (outputs[j].isFloat())
    llvm::outs() << llvm::format("; tolerance rtol %g, atol %g x %g (%s)",
                                 t.rtol, t.atolScale, t.scale,
                                 t.given ? "--rtol/--atol"
                                         : "default for the type");
  llvm::outs() << ruling << "\n";
  return ok;
}

/// With --clock=virtual: what the clocks measured; with --repeat: the
/// median and fastest run (wall clock).
void Driver::reportTimes() {
  if (opts.quiet)
    return;
  if (virtualClock())
    printClockSummary(llvm::errs(), clocks, replayed, options.session.link,
                      options.session.profile);
  if (opts.repeat <= 1)
    return;
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  llvm::errs() << llvm::format(
      "trellis-run: %d runs on %lld devices: median %.3f ms, min %.3f ms\n",
      static_cast<int>(times.size()),
      static_cast<long long>(exec->mesh().numDevices()),
      sorted[sorted.size() / 2], sorted.front());
}

} // namespace mlir::trellis::exec::driver
