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
// Usage: trellis-bench-collectives [DEVICES=8]
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/CommCost.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
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

/// Seconds per collective, from `iterations` back-to-back calls per device.
double timeCollective(const MeshShape &mesh, bool gather, int64_t bytes,
                      int iterations) {
  int64_t n = mesh.numDevices();
  int64_t count = bytes / 4;
  std::vector<std::vector<float>> in(n, std::vector<float>(count, 1.0f));
  std::vector<std::vector<float>> out(
      n, std::vector<float>(gather ? count * n : count));
  Session session(mesh,
                  {{gather ? "spmd.all_gather" : "spmd.psum", "bench", {}}},
                  SessionOptions());
  std::vector<Call> calls(n);
  std::vector<void **> args(n);
  for (int64_t p = 0; p < n; ++p) {
    calls[p].body = [&, p] {
      for (int it = 0; it < iterations; ++it) {
        if (gather)
          trellis_rt_all_gather(0, packAxes({0}), TRELLIS_RT_F32,
                                reinterpret_cast<int64_t>(in[p].data()),
                                reinterpret_cast<int64_t>(out[p].data()), 1,
                                count);
        else
          trellis_rt_all_reduce(
              0, packAxes({0}), TRELLIS_RT_F32, TRELLIS_RT_SUM,
              reinterpret_cast<int64_t>(in[p].data()),
              reinterpret_cast<int64_t>(out[p].data()), count);
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
  MeshShape mesh;
  mesh.axisNames = {"i"};
  mesh.axisSizes = {devices};
  int cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("| collective (%lld devices, %d cores) | bytes/device | time | "
              "moved bandwidth | memcpy bandwidth (same bytes) | ratio | "
              "NCCL bus bandwidth |\n",
              (long long)devices, cores);
  std::printf("|---|---|---|---|---|---|---|\n");
  for (int64_t mib : {1, 16, 64}) {
    int64_t bytes = mib << 20;
    int iterations = mib >= 64 ? 4 : (mib >= 16 ? 8 : 50);
    double n = static_cast<double>(devices);
    double ar = timeCollective(mesh, false, bytes, iterations);
    double arMoved = bytes * n; // n outputs of B bytes
    double arCopy =
        timeMemcpy(static_cast<int64_t>(arMoved), cores, iterations);
    double ag = timeCollective(mesh, true, bytes, iterations);
    double agMoved = bytes * n * n; // n outputs of nB bytes
    double agCopy = timeMemcpy(static_cast<int64_t>(agMoved), cores,
                               std::max(1, iterations / 4));
    std::printf("| psum | %lld MiB | %.2f ms | %.2f GB/s | %.2f GB/s | %.2f | "
                "%.2f GB/s |\n",
                (long long)mib, ar * 1e3, arMoved / ar * 1e-9,
                arMoved / arCopy * 1e-9, arCopy / ar,
                double(allReduceBytes(bytes, devices)) / ar * 1e-9);
    std::printf("| all_gather | %lld MiB | %.2f ms | %.2f GB/s | %.2f GB/s | "
                "%.2f | %.2f GB/s |\n",
                (long long)mib, ag * 1e3, agMoved / ag * 1e-9,
                agMoved / agCopy * 1e-9, agCopy / ag,
                double(ringShareBytes(bytes * devices, devices)) / ag * 1e-9);
    std::fflush(stdout);
  }
  return 0;
}
