//===- matmul_vs_eigen.cpp - trellis-run's matmul vs Eigen's own GEMM -----===//
//
// Compiles a one-device program doing an N^3 f32 matmul through the same
// path trellis-run uses (lowering, JIT, Eigen kernel, host slicing and
// assembly), runs it, and compares its GFLOP/s with Eigen's GEMM called
// directly on the same shape in the same process. Then the same in bf16
// (f32 accumulation, docs/Precision.md), against the same Eigen f32 GEMM:
// the goal for bf16 is 1.5x f32. And in f16 (goal: 0.9x f32).
//
// Usage: trellis-bench-matmul [N=1024] [REPEATS=10]
//
//===----------------------------------------------------------------------===//

#include "trellis/Execution/Executor.h"
#include "trellis/Pipelines/Registration.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::trellis::exec;

static double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// A one-device N^3 matmul of element type `elt` in Trellis IR.
static std::string matmulSource(int64_t n, const std::string &elt) {
  std::string t =
      "tensor<" + std::to_string(n) + "x" + std::to_string(n) + "x" + elt + ">";
  return "func.func @main(%a: " + t + ", %b: " + t + ") -> " + t + " {\n" +
         "  %zero = arith.constant 0.0 : " + elt + "\n" +
         "  %e = tensor.empty() : " + t + "\n" +
         "  %c = linalg.fill ins(%zero : " + elt + ") outs(%e : " + t +
         ") -> " + t + "\n" + "  %r = linalg.matmul ins(%a, %b : " + t + ", " +
         t + ") outs(%c : " + t + ") -> " + t + "\n" + "  return %r : " + t +
         "\n}\n";
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 1024;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 10;

  mlir::trellis::registerAllPasses();
  DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  auto compile = [&](const std::string &elt) -> std::unique_ptr<Executor> {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(matmulSource(n, elt), &context);
    if (!module)
      return nullptr;
    llvm::Expected<std::unique_ptr<Executor>> exec =
        Executor::create(*module, ExecutorOptions());
    if (!exec) {
      std::fprintf(stderr, "error: %s\n",
                   llvm::toString(exec.takeError()).c_str());
      return nullptr;
    }
    return std::move(*exec);
  };
  auto exec = compile("f32"), exec16 = compile("bf16"),
       execHalf = compile("f16");
  if (!exec || !exec16 || !execHalf)
    return 1;
  // Runs `e`, reporting a failure.
  auto run = [](Executor &e, std::vector<HostArray> &in,
                std::vector<HostArray> &out) {
    if (llvm::Error error = e.run(in, out)) {
      std::fprintf(stderr, "error: %s\n",
                   llvm::toString(std::move(error)).c_str());
      return false;
    }
    return true;
  };
  std::vector<HostArray> inputs(2), inputs16(2), inputsHalf(2), outputs,
      outputs16, outputsHalf;
  for (HostArray &a : inputs) {
    a.allocate(TRELLIS_RT_F32, {n, n});
    fillRandom(a, 42);
  }
  // The bf16 inputs are the f32 ones rounded, so that both results compare
  // with one Eigen product of the rounded values; the f16 inputs hold the
  // same values (bf16's 8 bits fit f16's 11, except below f16's normals).
  for (int k = 0; k < 2; ++k) {
    inputs16[k].allocate(TRELLIS_RT_BF16, {n, n});
    inputsHalf[k].allocate(TRELLIS_RT_F16, {n, n});
    for (int64_t i = 0; i < n * n; ++i) {
      inputs16[k].set(i, inputs[k].at(i));
      inputs[k].set(i, inputs16[k].at(i));
      inputsHalf[k].set(i, inputs[k].at(i));
    }
  }
  const double flops = 2.0 * n * n * n;

  std::vector<double> trellis, trellis16, trellisHalf, eigen;
  if (!run(*exec, inputs, outputs)) // warm-up
    return 1;
  if (!run(*exec16, inputs16, outputs16))
    return 1;
  if (!run(*execHalf, inputsHalf, outputsHalf))
    return 1;
  using Matrix =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Matrix> a(
      reinterpret_cast<const float *>(inputs[0].data.data()), n, n);
  Eigen::Map<const Matrix> b(
      reinterpret_cast<const float *>(inputs[1].data.data()), n, n);
  Matrix c(n, n);
  c.noalias() = a * b; // warm-up
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    if (!run(*exec, inputs, outputs))
      return 1;
    trellis.push_back(seconds(start));
    start = std::chrono::steady_clock::now();
    if (!run(*exec16, inputs16, outputs16))
      return 1;
    trellis16.push_back(seconds(start));
    start = std::chrono::steady_clock::now();
    if (!run(*execHalf, inputsHalf, outputsHalf))
      return 1;
    trellisHalf.push_back(seconds(start));
    start = std::chrono::steady_clock::now();
    c.noalias() = a * b;
    eigen.push_back(seconds(start));
  }
  // The results must agree: f32 closely, bf16 within its rounding (half an
  // ulp of each value, 2^-9 relative, plus the f32 sums' differences).
  const float *out = reinterpret_cast<const float *>(outputs[0].data.data());
  double maxDiff = 0, maxRel16 = 0, maxRelHalf = 0;
  for (int64_t i = 0; i < n * n; ++i) {
    maxDiff = std::max<double>(maxDiff, std::abs(out[i] - c.data()[i]));
    double e = c.data()[i];
    if (e != 0) {
      maxRel16 =
          std::max(maxRel16, std::abs(outputs16[0].at(i) - e) / std::abs(e));
      maxRelHalf = std::max(maxRelHalf,
                            std::abs(outputsHalf[0].at(i) - e) / std::abs(e));
    }
  }

  double tg = flops / median(trellis) * 1e-9, eg = flops / median(eigen) * 1e-9;
  double tg16 = flops / median(trellis16) * 1e-9;
  double tgHalf = flops / median(trellisHalf) * 1e-9;
  std::printf(
      "| matmul %lldx%lldx%lld f32, 1 device | trellis-run %.1f GFLOP/s | "
      "Eigen %.1f GFLOP/s | ratio %.2f | max |diff| %.2g |\n",
      (long long)n, (long long)n, (long long)n, tg, eg, tg / eg, maxDiff);
  std::printf("| matmul %lldx%lldx%lld bf16 (f32 accumulation), 1 device | "
              "trellis-run %.1f GFLOP/s | Eigen f32 %.1f GFLOP/s | ratio %.2f "
              "| max rel diff %.2g |\n",
              (long long)n, (long long)n, (long long)n, tg16, eg, tg16 / eg,
              maxRel16);
  std::printf("| matmul %lldx%lldx%lld f16 (f32 accumulation), 1 device | "
              "trellis-run %.1f GFLOP/s | Eigen f32 %.1f GFLOP/s | ratio %.2f "
              "| max rel diff %.2g |\n",
              (long long)n, (long long)n, (long long)n, tgHalf, eg, tgHalf / eg,
              maxRelHalf);
  return 0;
}
