//===- matmul_vs_eigen.cpp - trellis-run's matmul vs Eigen's own GEMM -----===//
//
// Compiles a one-device program doing an N^3 f32 matmul through the same
// path trellis-run uses (lowering, JIT, Eigen kernel, host slicing and
// assembly), runs it, and compares its GFLOP/s with Eigen's GEMM called
// directly on the same shape in the same process.
//
// Usage: trellis-bench-matmul [N=1024] [REPEATS=10]
//
//===----------------------------------------------------------------------===//

#include "lib/Execution/Executor.h"
#include "lib/Pipelines/Registration.h"
#include "lib/Runtime/TrellisRuntime.h"

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

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 1024;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
  std::string t =
      "tensor<" + std::to_string(n) + "x" + std::to_string(n) + "xf32>";
  std::string source = "func.func @main(%a: " + t + ", %b: " + t + ") -> " + t +
                       " {\n"
                       "  %zero = arith.constant 0.0 : f32\n"
                       "  %e = tensor.empty() : " +
                       t +
                       "\n"
                       "  %c = linalg.fill ins(%zero : f32) outs(%e : " +
                       t + ") -> " + t +
                       "\n"
                       "  %r = linalg.matmul ins(%a, %b : " +
                       t + ", " + t + ") outs(%c : " + t + ") -> " + t +
                       "\n"
                       "  return %r : " +
                       t + "\n}\n";

  mlir::trellis::registerAllPasses();
  DialectRegistry registry;
  mlir::trellis::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    return 1;
  std::string error;
  auto exec = Executor::create(*module, ExecutorOptions(), error);
  if (!exec) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  std::vector<HostArray> inputs(2), outputs;
  for (HostArray &a : inputs) {
    a.allocate(TRELLIS_RT_F32, {n, n});
    fillRandom(a, 42);
  }
  const double flops = 2.0 * n * n * n;

  std::vector<double> trellis, eigen;
  if (!exec->run(inputs, outputs, error)) // warm-up
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
    if (!exec->run(inputs, outputs, error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 1;
    }
    trellis.push_back(seconds(start));
    start = std::chrono::steady_clock::now();
    c.noalias() = a * b;
    eigen.push_back(seconds(start));
  }
  // The two results must agree.
  const float *out = reinterpret_cast<const float *>(outputs[0].data.data());
  double maxDiff = 0;
  for (int64_t i = 0; i < n * n; ++i)
    maxDiff = std::max<double>(maxDiff, std::abs(out[i] - c.data()[i]));

  double tg = flops / median(trellis) * 1e-9, eg = flops / median(eigen) * 1e-9;
  std::printf(
      "| matmul %lldx%lldx%lld f32, 1 device | trellis-run %.1f GFLOP/s | "
      "Eigen %.1f GFLOP/s | ratio %.2f | max |diff| %.2g |\n",
      (long long)n, (long long)n, (long long)n, tg, eg, tg / eg, maxDiff);
  return 0;
}
