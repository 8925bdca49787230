//===- mpi_collectives.cpp - Trellis's MPI backend vs raw MPI -------------===//
//
// Run under mpirun (one rank per device):
//   mpirun -np 2 build/bench/trellis-bench-mpi [iterations]
// For psum, all_gather and all_to_all at 1 MiB and 64 MiB per rank, times
// the same collective on the same buffers three ways, interleaved: the MPI
// call made directly (MPI_Allreduce, MPI_Allgather, MPI_Alltoall), and
// Trellis's MpiCommunicator (what compiled code reaches through the
// runtime's C ABI) with and without the per-collective group check. Prints
// one Markdown row per case from rank 0: the median time over iterations
// (each iteration's time is the slowest rank's) and the ratio of raw MPI's
// time to Trellis's (1.0 = as fast as raw MPI).
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/MpiCommunicator.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

using namespace mlir::trellis::rt;

static double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

namespace {

/// One collective timed three ways.
struct Case {
  const char *name;
  std::function<void()> raw;
  CollectiveDesc desc;
};

/// psum, all_gather and all_to_all of `count` f32 per rank over all `n`
/// ranks (mesh axes `axes`), from `in` into `out`.
std::vector<Case> makeCases(int64_t count, int n, int64_t axes,
                            std::vector<float> &in, std::vector<float> &out) {
  std::vector<Case> cases;
  CollectiveDesc base;
  base.site = 0;
  base.axes = axes;
  base.dtype = TRELLIS_RT_F32;

  CollectiveDesc psum = base;
  psum.kind = CollectiveKind::AllReduce;
  psum.reduction = TRELLIS_RT_SUM;
  psum.geometry[0] = count;
  cases.push_back({"psum",
                   [&in, &out, count] {
                     MPI_Allreduce(in.data(), out.data(),
                                   static_cast<int>(count), MPI_FLOAT, MPI_SUM,
                                   MPI_COMM_WORLD);
                   },
                   psum});

  CollectiveDesc gather = base;
  gather.kind = CollectiveKind::AllGather;
  gather.geometry[0] = 1; // gathered along the leading dimension
  gather.geometry[1] = count;
  cases.push_back({"all_gather",
                   [&in, &out, count] {
                     MPI_Allgather(in.data(), static_cast<int>(count),
                                   MPI_FLOAT, out.data(),
                                   static_cast<int>(count), MPI_FLOAT,
                                   MPI_COMM_WORLD);
                   },
                   gather});

  CollectiveDesc toAll = base;
  toAll.kind = CollectiveKind::AllToAll;
  // Split and concatenate along the leading dimension.
  toAll.geometry[0] = 1;
  toAll.geometry[1] = count / n;
  toAll.geometry[2] = 1;
  toAll.geometry[3] = count / n;
  cases.push_back({"all_to_all",
                   [&in, &out, count, n] {
                     MPI_Alltoall(in.data(), static_cast<int>(count / n),
                                  MPI_FLOAT, out.data(),
                                  static_cast<int>(count / n), MPI_FLOAT,
                                  MPI_COMM_WORLD);
                   },
                   toAll});
  return cases;
}

/// The slowest rank's time of `fn`, after a barrier.
double timeOnce(const std::function<void()> &fn) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  fn();
  return slowest(MPI_Wtime() - start);
}

/// Times `c` raw and through both communicators, interleaved, and prints
/// its row on rank 0.
void runCase(const Case &c, int64_t bytes, int iterations, int rank,
             Communicator &checked, Communicator &unchecked,
             DeviceContext &device, std::vector<float> &in,
             std::vector<float> &out) {
  std::vector<double> raw, trellis, bare;
  auto through = [&](Communicator &comm) {
    return [&] {
      if (!comm.execute(device, c.desc, in.data(), out.data()))
        MPI_Abort(MPI_COMM_WORLD, 1);
    };
  };
  for (int it = 0; it < iterations + 2; ++it) {
    double r = timeOnce(c.raw);
    double t = timeOnce(through(checked));
    double u = timeOnce(through(unchecked));
    if (it >= 2) { // two warm-up iterations
      raw.push_back(r);
      trellis.push_back(t);
      bare.push_back(u);
    }
  }
  if (rank != 0)
    return;
  double r = median(raw) * 1e3, t = median(trellis) * 1e3,
         u = median(bare) * 1e3;
  std::printf("| %s | %lld MiB | %.3f | %.3f | %.3f | %.2f | %.2f |\n", c.name,
              static_cast<long long>(bytes >> 20), r, t, u, r / t, r / u);
}

} // namespace

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 20;

  MeshShape mesh;
  mesh.axisNames = {"i"};
  mesh.axisSizes = {n};
  std::vector<SiteInfo> sites(1);
  sites[0].opName = "bench";
  sites[0].location = "bench";
  MpiOptions checked, unchecked;
  unchecked.checkCollectives = false;
  auto commChecked = createMpiCommunicator(mesh, sites, checked);
  auto commUnchecked = createMpiCommunicator(mesh, sites, unchecked);
  DeviceContext device;
  device.position = mesh.positionOf(rank);
  device.deviceId = rank;
  device.mesh = &mesh;
  device.sites = &sites;

  if (rank == 0) {
    std::printf("%d ranks, %d iterations, f32; times are medians (ms) of the "
                "slowest rank\n\n",
                n, iterations);
    std::printf("| collective | bytes per rank | raw MPI | Trellis | "
                "Trellis unchecked | raw / Trellis | raw / unchecked |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
  }
  const int64_t axes = packAxes({0});
  for (int64_t bytes : {int64_t(1) << 20, int64_t(64) << 20}) {
    const int64_t count = bytes / 4;
    std::vector<float> in(count), out(count * n);
    for (int64_t i = 0; i < count; ++i)
      in[i] = static_cast<float>((i + rank) % 97);
    for (const Case &c : makeCases(count, n, axes, in, out))
      runCase(c, bytes, iterations, rank, *commChecked, *commUnchecked, device,
              in, out);
  }
  commChecked.reset();
  commUnchecked.reset();
  MPI_Finalize();
  return 0;
}
