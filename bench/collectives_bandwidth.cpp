//===- collectives_bandwidth.cpp - psum/all_gather bandwidth vs memcpy ----===//
//
// Runs psum (all-reduce) and all_gather on 8 in-process devices through the
// runtime's C entry points and compares them with memcpy moving the same
// bytes on the same machine, in the same process.
//
// On shared memory the least data a collective can move is what it must
// write: an all-reduce writes n buffers of B bytes (after reading n), an
// all-gather writes n outputs of n * B bytes (after reading them). The
// "moved" bandwidth is that many bytes over the collective's time; memcpy
// copies the same total with one thread per core. The NCCL-style bus
// bandwidth (B / t * 2(n-1)/n for all-reduce, nB / t * (n-1)/n for
// all-gather: CommCost.h's bytes sent over the time) is printed for
// reference.
//
// A second table times bf16 against f32 collectives of the same element
// count (issue 23's goal: bf16 at most 0.6 of the f32 time).
//
// Usage: trellis-bench-collectives [DEVICES=8] [--quick]
// (--quick: only the 1 MiB rows and the latency table, in seconds).
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/Float16.h"
#include "trellis/Runtime/CommCost.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace mlir::trellis::rt;

namespace {

struct Call {
  std::function<void()> body;
};
void entry(void **args) { reinterpret_cast<Call *>(args)->body(); }

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Seconds per collective of `count` elements of `dtype` (f32 or bf16,
/// every element 1.0), from `iterations` back-to-back calls per device.
double timeCollective(const MeshShape &mesh, bool gather, int32_t dtype,
                      int64_t count, int iterations) {
  int64_t n = mesh.numDevices();
  const bool bf16 = dtype == TRELLIS_RT_BF16;
  const size_t size = bf16 ? 2 : 4;
  const float value = 1.0f;
  const uint16_t bf16One = floatToBf16(value);
  const void *one = bf16 ? static_cast<const void *>(&bf16One) : &value;
  std::vector<std::vector<char>> in(n, std::vector<char>(count * size)),
      out(n, std::vector<char>((gather ? count * n : count) * size));
  for (auto &buffer : in)
    for (size_t e = 0; e < buffer.size(); e += size)
      std::memcpy(buffer.data() + e, one, size);
  Session session(mesh,
                  {{gather ? "spmd.all_gather" : "spmd.psum", "bench", {}}},
                  SessionOptions());
  std::vector<Call> calls(n);
  std::vector<void **> args(n);
  for (int64_t p = 0; p < n; ++p) {
    calls[p].body = [&, p] {
      for (int it = 0; it < iterations; ++it) {
        if (gather)
          trellis_rt_all_gather(
              0, packAxes({0}), dtype, reinterpret_cast<int64_t>(in[p].data()),
              reinterpret_cast<int64_t>(out[p].data()), 1, count);
        else
          trellis_rt_all_reduce(0, packAxes({0}), dtype, TRELLIS_RT_SUM,
                                reinterpret_cast<int64_t>(in[p].data()),
                                reinterpret_cast<int64_t>(out[p].data()),
                                count);
      }
    };
    args[p] = reinterpret_cast<void **>(&calls[p]);
  }
  std::string error;
  session.run(entry, args, error); // warm-up (page faults)
  double start = now();
  if (!session.run(entry, args, error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    std::exit(1);
  }
  // Every device sums n ones (or gathers ones): check one element.
  float first;
  if (bf16)
    first = bf16ToFloat(*reinterpret_cast<const uint16_t *>(out[0].data()));
  else
    std::memcpy(&first, out[0].data(), 4);
  if (first != (gather ? 1.0f : static_cast<float>(n))) {
    std::fprintf(stderr, "error: wrong result %g\n", first);
    std::exit(1);
  }
  return (now() - start) / iterations;
}

/// Seconds to memcpy `total` bytes split over `threads` threads.
double timeMemcpy(int64_t total, int threads, int iterations) {
  std::vector<std::vector<char>> src(threads,
                                     std::vector<char>(total / threads, 1)),
      dst(threads, std::vector<char>(total / threads, 0));
  auto run = [&] {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (int it = 0; it < iterations; ++it)
          std::memcpy(dst[t].data(), src[t].data(), src[t].size());
      });
    for (auto &th : pool)
      th.join();
  };
  run();
  double start = now();
  run();
  return (now() - start) / iterations;
}

} // namespace

int main(int argc, char **argv) {
  int64_t devices = argc > 1 ? std::atoll(argv[1]) : 8;
  const bool quick = argc > 2 && std::string(argv[2]) == "--quick";
  MeshShape mesh;
  mesh.axisNames = {"i"};
  mesh.axisSizes = {devices};
  int cores = std::max(1u, std::thread::hardware_concurrency());
  // Each figure is the median of kRuns runs, collective and memcpy timed
  // alternately so that both see the same machine; the ratio's spread
  // over the runs is printed beside it.
  constexpr int kRuns = 5;
  std::printf("| collective (%lld devices, %d cores) | bytes/device | time | "
              "moved bandwidth | memcpy bandwidth (same bytes) | ratio "
              "(median of %d) | ratio spread | NCCL bus bandwidth |\n",
              (long long)devices, cores, kRuns);
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int64_t mib : {1, 16, 64}) {
    if (quick && mib > 1)
      break;
    int64_t bytes = mib << 20;
    int iterations = mib >= 64 ? 4 : (mib >= 16 ? 8 : 200);
    double n = static_cast<double>(devices);
    for (bool gather : {false, true}) {
      // n outputs of B bytes (all-reduce) or of nB bytes (all-gather).
      double moved = gather ? bytes * n * n : bytes * n;
      int copyIterations = gather ? std::max(1, iterations / 4) : iterations;
      std::vector<double> times, copies, ratios;
      for (int run = 0; run < kRuns; ++run) {
        times.push_back(timeCollective(mesh, gather, TRELLIS_RT_F32, bytes / 4,
                                       iterations));
        copies.push_back(
            timeMemcpy(static_cast<int64_t>(moved), cores, copyIterations));
        ratios.push_back(copies.back() / times.back());
      }
      for (auto *v : {&times, &copies, &ratios})
        std::sort(v->begin(), v->end());
      double t = times[kRuns / 2], copy = copies[kRuns / 2];
      double busBytes = gather
                            ? double(ringShareBytes(bytes * devices, devices))
                            : double(allReduceBytes(bytes, devices));
      std::printf("| %s | %lld MiB | %.2f ms | %.2f GB/s | %.2f GB/s | %.2f | "
                  "%.2f-%.2f | %.2f GB/s |\n",
                  gather ? "all_gather" : "psum", (long long)mib, t * 1e3,
                  moved / t * 1e-9, moved / copy * 1e-9, ratios[kRuns / 2],
                  ratios.front(), ratios.back(), busBytes / t * 1e-9);
      std::fflush(stdout);
    }
  }
  // Small collectives cost their synchronisation: the rendezvous of the
  // group and the wake-ups of devices that slept waiting for it.
  std::printf("\n| collective (%lld devices, %d cores) | bytes/device | time "
              "(latency, median of %d) | spread |\n|---|---|---|---|\n",
              (long long)devices, cores, kRuns);
  for (bool gather : {false, true}) {
    std::vector<double> times;
    for (int run = 0; run < kRuns; ++run)
      times.push_back(timeCollective(mesh, gather, TRELLIS_RT_F32, 1024, 2000));
    std::sort(times.begin(), times.end());
    std::printf("| %s | 4 KiB | %.1f us | %.1f-%.1f us |\n",
                gather ? "all_gather" : "psum", times[kRuns / 2] * 1e6,
                times.front() * 1e6, times.back() * 1e6);
    std::fflush(stdout);
  }
  if (quick)
    return 0;
  // Issue 23: a bf16 collective of the same element count moves half the
  // bytes; the goal is at most 0.6 of the f32 time.
  std::printf("\n| collective (%lld devices) | elements/device | f32 | bf16 | "
              "bf16/f32 time |\n|---|---|---|---|---|\n",
              (long long)devices);
  for (int64_t mib : {1, 64}) {
    int64_t count = (mib << 20) / 4; // as many elements as mib MiB of f32
    int iterations = mib >= 64 ? 4 : 50;
    for (bool gather : {false, true}) {
      double f32 =
          timeCollective(mesh, gather, TRELLIS_RT_F32, count, iterations);
      double bf16 =
          timeCollective(mesh, gather, TRELLIS_RT_BF16, count, iterations);
      std::printf("| %s | %lld (%lld MiB in f32) | %.2f ms | %.2f ms | %.2f "
                  "|\n",
                  gather ? "all_gather" : "psum", (long long)count,
                  (long long)mib, f32 * 1e3, bf16 * 1e3, bf16 / f32);
      std::fflush(stdout);
    }
  }
  return 0;
}
