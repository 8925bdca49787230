//===- CollectivesTest.cpp - Every collective on in-process meshes --------===//
//
// Runs the runtime's C entry points on meshes of 1 to 8 devices, over every
// subset and order of axes, with awkward sizes, and checks each device's
// result against a direct computation from the other devices' inputs.
//
//===----------------------------------------------------------------------===//

#include "lib/Runtime/CollectiveKernels.h"
#include "lib/Runtime/Float16.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"
#include "unittests/Runtime/RunOnMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <thread>

using namespace mlir::trellis::rt;
using trellis_test::makeMesh;
using trellis_test::runOnMesh;
using trellis_test::runOnSession;

namespace {

int64_t addr(const void *p) { return reinterpret_cast<int64_t>(p); }

/// Every ordered selection of the mesh's axes (including none).
std::vector<AxisList> axisChoices(int numAxes) {
  std::vector<AxisList> result = {{}};
  for (int mask = 1; mask < (1 << numAxes); ++mask) {
    AxisList axes;
    for (int a = 0; a < numAxes; ++a)
      if (mask & (1 << a))
        axes.push_back(a);
    do
      result.push_back(axes);
    while (std::next_permutation(axes.begin(), axes.end()));
  }
  return result;
}

float valueAt(int64_t position, int64_t element) {
  return static_cast<float>(position * 100 + element) + 0.25f;
}

class Collectives : public ::testing::TestWithParam<std::vector<int64_t>> {};

TEST_P(Collectives, AllReduce) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t n = mesh.numDevices(), count = 7;
  for (const AxisList &axes : axisChoices(mesh.numAxes())) {
    for (int32_t reduction :
         {TRELLIS_RT_SUM, TRELLIS_RT_MAX, TRELLIS_RT_MIN, TRELLIS_RT_MEAN}) {
      std::vector<std::vector<float>> in(n, std::vector<float>(count)),
          out(n, std::vector<float>(count, -1));
      std::vector<std::vector<int32_t>> inI(n, std::vector<int32_t>(count)),
          outI(n, std::vector<int32_t>(count, -1));
      for (int64_t p = 0; p < n; ++p)
        for (int64_t e = 0; e < count; ++e) {
          in[p][e] = valueAt(p, e) * ((p % 2) ? -1 : 1);
          inI[p][e] = static_cast<int32_t>(p * 10 - e);
        }
      std::string error;
      ASSERT_TRUE(runOnMesh(
          mesh,
          [&](int64_t p) {
            trellis_rt_all_reduce(0, packAxes(axes), TRELLIS_RT_F32, reduction,
                                  addr(in[p].data()), addr(out[p].data()),
                                  count);
            if (reduction != TRELLIS_RT_MEAN)
              trellis_rt_all_reduce(1, packAxes(axes), TRELLIS_RT_I32,
                                    reduction, addr(inI[p].data()),
                                    addr(outI[p].data()), count);
          },
          error))
          << error;
      for (int64_t p = 0; p < n; ++p) {
        std::vector<int64_t> group = mesh.groupMembers(p, axes);
        for (int64_t e = 0; e < count; ++e) {
          double expect = in[group[0]][e];
          int64_t expectI = inI[group[0]][e];
          for (size_t k = 1; k < group.size(); ++k) {
            float v = in[group[k]][e];
            int32_t vi = inI[group[k]][e];
            if (reduction == TRELLIS_RT_MAX) {
              expect = std::max<double>(expect, v);
              expectI = std::max<int64_t>(expectI, vi);
            } else if (reduction == TRELLIS_RT_MIN) {
              expect = std::min<double>(expect, v);
              expectI = std::min<int64_t>(expectI, vi);
            } else {
              expect += v;
              expectI += vi;
            }
          }
          if (reduction == TRELLIS_RT_MEAN)
            expect /= group.size();
          EXPECT_NEAR(out[p][e], expect, 1e-3)
              << "device " << p << " axes " << mesh.formatAxes(axes);
          if (reduction != TRELLIS_RT_MEAN)
            EXPECT_EQ(outI[p][e], expectI);
        }
      }
    }
  }
}

// An all-reduce of more than 128 KiB is split into tasks that each sum a
// range of several L1 blocks and store it into every member's output.
TEST_P(Collectives, LargeAllReduceIsSplitIntoTasks) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t n = mesh.numDevices(), count = 100003;
  AxisList all;
  for (int a = 0; a < mesh.numAxes(); ++a)
    all.push_back(a);
  std::vector<std::vector<float>> in(n, std::vector<float>(count)),
      out(n, std::vector<float>(count, -1));
  for (int64_t p = 0; p < n; ++p)
    for (int64_t e = 0; e < count; ++e)
      in[p][e] = static_cast<float>((p * 31 + e * 7) % 97);
  std::string error;
  ASSERT_TRUE(runOnMesh(
      mesh,
      [&](int64_t p) {
        trellis_rt_all_reduce(0, packAxes(all), TRELLIS_RT_F32, TRELLIS_RT_SUM,
                              addr(in[p].data()), addr(out[p].data()), count);
      },
      error))
      << error;
  for (int64_t e = 0; e < count; ++e) {
    float expect = 0;
    for (int64_t p = 0; p < n; ++p)
      expect += in[p][e];
    for (int64_t p = 0; p < n; ++p)
      ASSERT_EQ(out[p][e], expect) << "device " << p << " element " << e;
  }
}

TEST_P(Collectives, AllGatherAndReduceScatter) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t n = mesh.numDevices(), outer = 3, inner = 5;
  for (const AxisList &axes : axisChoices(mesh.numAxes())) {
    int64_t g = mesh.groupSize(axes);
    std::vector<std::vector<float>> in(n, std::vector<float>(outer * inner)),
        gathered(n, std::vector<float>(outer * g * inner, -1)),
        scattered(n, std::vector<float>(outer * inner, -1));
    for (int64_t p = 0; p < n; ++p)
      for (int64_t e = 0; e < outer * inner; ++e)
        in[p][e] = valueAt(p, e);
    std::string error;
    ASSERT_TRUE(runOnMesh(
        mesh,
        [&](int64_t p) {
          trellis_rt_all_gather(0, packAxes(axes), TRELLIS_RT_F32,
                                addr(in[p].data()), addr(gathered[p].data()),
                                outer, inner);
          // Reduce-scatter the gathered array back: each rank gets g times its
          // own block of the (identical across the group) gathered arrays.
          trellis_rt_reduce_scatter(1, packAxes(axes), TRELLIS_RT_F32,
                                    TRELLIS_RT_SUM, addr(gathered[p].data()),
                                    addr(scattered[p].data()), outer, inner);
        },
        error))
        << error;
    for (int64_t p = 0; p < n; ++p) {
      std::vector<int64_t> group = mesh.groupMembers(p, axes);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < g; ++k)
          for (int64_t i = 0; i < inner; ++i)
            ASSERT_EQ(gathered[p][(o * g + k) * inner + i],
                      in[group[k]][o * inner + i]);
      for (int64_t e = 0; e < outer * inner; ++e)
        ASSERT_NEAR(scattered[p][e], g * in[p][e], 1e-2);
    }
  }
}

TEST_P(Collectives, AllToAll) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t n = mesh.numDevices();
  for (const AxisList &axes : axisChoices(mesh.numAxes())) {
    int64_t g = mesh.groupSize(axes);
    // Operand [2][g*3][1] split along dim 1; result [2][3][g] concatenated
    // along dim 2: splitOuter 2, splitInner 3, concatOuter 6, concatInner 1.
    const int64_t a = 2, b = 3, c = 6, d = 1;
    std::vector<std::vector<float>> in(n, std::vector<float>(a * g * b)),
        out(n, std::vector<float>(c * g * d, -1));
    for (int64_t p = 0; p < n; ++p)
      for (int64_t e = 0; e < a * g * b; ++e)
        in[p][e] = valueAt(p, e);
    std::string error;
    ASSERT_TRUE(runOnMesh(
        mesh,
        [&](int64_t p) {
          trellis_rt_all_to_all(0, packAxes(axes), TRELLIS_RT_F32,
                                addr(in[p].data()), addr(out[p].data()), a, b,
                                c, d);
        },
        error))
        << error;
    for (int64_t p = 0; p < n; ++p) {
      std::vector<int64_t> group = mesh.groupMembers(p, axes);
      int64_t rank = mesh.rankInGroup(p, axes);
      for (int64_t j = 0; j < g; ++j)
        for (int64_t f = 0; f < a * b; ++f) {
          float sent = in[group[j]][(f / b) * g * b + rank * b + f % b];
          ASSERT_EQ(out[p][(f / d) * g * d + j * d + f % d], sent);
        }
    }
  }
}

// The asynchronous forms: every kind started (inputs overwritten right
// after, as the runtime copies them), a blocking all-reduce run in
// between, then waited for in the other order; each result equals the
// blocking entry's on the same input, on every mesh and axis choice.
TEST_P(Collectives, AsyncStartsEqualBlocking) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t n = mesh.numDevices(), outer = 2, inner = 3;
  for (const AxisList &axes : axisChoices(mesh.numAxes())) {
    const int64_t g = mesh.groupSize(axes), packed = packAxes(axes);
    const int64_t big = outer * g * inner;
    auto fill = [](std::vector<float> &v, int64_t p) {
      for (size_t e = 0; e < v.size(); ++e)
        v[e] = valueAt(p, static_cast<int64_t>(e));
    };
    // Per device: inputs, blocking results, async results (reduce, gather,
    // scatter, all_to_all).
    std::vector<std::vector<float>> in(n), wide(n);
    std::vector<std::vector<std::vector<float>>> want(
        n, std::vector<std::vector<float>>(4)),
        got(n, std::vector<std::vector<float>>(4));
    for (int64_t p = 0; p < n; ++p) {
      in[p].resize(outer * inner);
      wide[p].resize(big);
      fill(in[p], p);
      fill(wide[p], p);
      for (auto *v : {&want[p], &got[p]}) {
        (*v)[0].assign(outer * inner, -1);
        (*v)[1].assign(big, -1);
        (*v)[2].assign(outer * inner, -1);
        (*v)[3].assign(big, -1);
      }
    }
    std::string error;
    ASSERT_TRUE(runOnMesh(
        mesh,
        [&](int64_t p) {
          trellis_rt_all_reduce(0, packed, TRELLIS_RT_F32, TRELLIS_RT_SUM,
                                addr(in[p].data()), addr(want[p][0].data()),
                                outer * inner);
          trellis_rt_all_gather(1, packed, TRELLIS_RT_F32, addr(in[p].data()),
                                addr(want[p][1].data()), outer, inner);
          trellis_rt_reduce_scatter(2, packed, TRELLIS_RT_F32, TRELLIS_RT_SUM,
                                    addr(wide[p].data()),
                                    addr(want[p][2].data()), outer, inner);
          trellis_rt_all_to_all(3, packed, TRELLIS_RT_F32, addr(wide[p].data()),
                                addr(want[p][3].data()), outer, inner,
                                outer * g, inner);
          std::vector<float> a = in[p], b = wide[p];
          int64_t h[4] = {
              trellis_rt_collective_start(
                  0, TRELLIS_RT_ALL_REDUCE, packed, TRELLIS_RT_F32,
                  TRELLIS_RT_SUM, addr(a.data()), outer * inner, 0, 0, 0),
              trellis_rt_collective_start(1, TRELLIS_RT_ALL_GATHER, packed,
                                          TRELLIS_RT_F32, 0, addr(a.data()),
                                          outer, inner, 0, 0),
              trellis_rt_collective_start(2, TRELLIS_RT_REDUCE_SCATTER, packed,
                                          TRELLIS_RT_F32, TRELLIS_RT_SUM,
                                          addr(b.data()), outer, inner, 0, 0),
              trellis_rt_collective_start(3, TRELLIS_RT_ALL_TO_ALL, packed,
                                          TRELLIS_RT_F32, 0, addr(b.data()),
                                          outer, inner, outer * g, inner)};
          // The runtime took copies: the caller may overwrite its buffers.
          std::fill(a.begin(), a.end(), 1e9f);
          std::fill(b.begin(), b.end(), 1e9f);
          float x = valueAt(p, 0), y = 0;
          trellis_rt_all_reduce(4, packed, TRELLIS_RT_F32, TRELLIS_RT_SUM,
                                addr(&x), addr(&y), 1);
          for (int k = 3; k >= 0; --k)
            trellis_rt_collective_wait(h[k], addr(got[p][k].data()));
        },
        error))
        << error;
    for (int64_t p = 0; p < n; ++p)
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(got[p][k], want[p][k]) << "kind " << k << " device " << p;
  }
}

TEST_P(Collectives, PpermuteShiftsAndZeros) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t n = mesh.numDevices(), count = 5;
  for (const AxisList &axes : axisChoices(mesh.numAxes())) {
    int64_t g = mesh.groupSize(axes);
    // A left shift, then a partial permutation where rank 0 gets nothing.
    SiteInfo shift{"spmd.ppermute", "test:shift", {}};
    SiteInfo partial{"spmd.ppermute", "test:partial", {}};
    for (int64_t j = 0; j < g; ++j)
      shift.pairs.push_back({j, (j + g - 1) % g});
    for (int64_t j = 0; j + 1 < g; ++j)
      partial.pairs.push_back({j, j + 1});
    std::vector<std::vector<float>> in(n, std::vector<float>(count)),
        shifted(n, std::vector<float>(count, -1)),
        moved(n, std::vector<float>(count, -1)),
        async(n, std::vector<float>(count, -1)),
        direct(n, std::vector<float>(count, -1)),
        directPartial(n, std::vector<float>(count, -1));
    for (int64_t p = 0; p < n; ++p)
      for (int64_t e = 0; e < count; ++e)
        in[p][e] = valueAt(p, e);
    std::string error;
    ASSERT_TRUE(runOnMesh(
        mesh,
        [&](int64_t p) {
          int64_t packed = packAxes(axes);
          trellis_rt_ppermute(0, packed, TRELLIS_RT_F32, addr(in[p].data()),
                              addr(shifted[p].data()), count);
          trellis_rt_ppermute(1, packed, TRELLIS_RT_F32, addr(in[p].data()),
                              addr(moved[p].data()), count);
          int64_t handle = trellis_rt_ppermute_start(0, packed, TRELLIS_RT_F32,
                                                     addr(in[p].data()), count);
          trellis_rt_ppermute_wait(handle, addr(async[p].data()));
          // Direct (one-copy) starts write straight into their outputs.
          int64_t full = trellis_rt_ppermute_start_direct(
              0, packed, TRELLIS_RT_F32, addr(in[p].data()),
              addr(direct[p].data()), count);
          int64_t part = trellis_rt_ppermute_start_direct(
              1, packed, TRELLIS_RT_F32, addr(in[p].data()),
              addr(directPartial[p].data()), count);
          trellis_rt_ppermute_wait_direct(part, addr(in[p].data()),
                                          addr(directPartial[p].data()),
                                          addr(in[p].data()));
          trellis_rt_ppermute_wait_direct(full, addr(in[p].data()),
                                          addr(direct[p].data()),
                                          addr(in[p].data()));
        },
        error, {shift, partial}))
        << error;
    for (int64_t p = 0; p < n; ++p) {
      std::vector<int64_t> group = mesh.groupMembers(p, axes);
      int64_t rank = mesh.rankInGroup(p, axes);
      int64_t from = group[(rank + 1) % g];
      for (int64_t e = 0; e < count; ++e) {
        ASSERT_EQ(shifted[p][e], in[from][e]);
        ASSERT_EQ(async[p][e], in[from][e]);
        ASSERT_EQ(direct[p][e], in[from][e]);
        ASSERT_EQ(directPartial[p][e],
                  rank == 0 ? 0.0f : in[group[rank - 1]][e]);
        ASSERT_EQ(moved[p][e], rank == 0 ? 0.0f : in[group[rank - 1]][e]);
      }
    }
  }
}

TEST_P(Collectives, AxisIndex) {
  MeshShape mesh = makeMesh(GetParam());
  std::vector<std::vector<int64_t>> got(mesh.numDevices());
  std::vector<AxisList> choices = axisChoices(mesh.numAxes());
  std::string error;
  ASSERT_TRUE(runOnMesh(
      mesh,
      [&](int64_t p) {
        for (const AxisList &axes : choices)
          got[p].push_back(trellis_rt_axis_index(packAxes(axes)));
      },
      error))
      << error;
  for (int64_t p = 0; p < mesh.numDevices(); ++p)
    for (size_t c = 0; c < choices.size(); ++c)
      EXPECT_EQ(got[p][c], mesh.rankInGroup(p, choices[c]));
}

INSTANTIATE_TEST_SUITE_P(
    Meshes, Collectives,
    ::testing::Values(std::vector<int64_t>{1}, std::vector<int64_t>{2},
                      std::vector<int64_t>{4}, std::vector<int64_t>{8},
                      std::vector<int64_t>{2, 2}, std::vector<int64_t>{2, 4},
                      std::vector<int64_t>{4, 2},
                      std::vector<int64_t>{2, 2, 2}));

TEST(CollectiveErrors, MismatchedSitesAreReported) {
  MeshShape mesh = makeMesh({4});
  std::vector<SiteInfo> sites = {{"spmd.psum", "a.mlir:1:1", {}},
                                 {"spmd.pmax", "a.mlir:2:1", {}}};
  std::vector<float> buffers(4 * 8);
  std::string error;
  // Computed outside the device body: a failed collective does not return,
  // so a temporary alive across it would leak (LeakSanitizer).
  const int64_t axes = packAxes({0});
  EXPECT_FALSE(runOnMesh(
      mesh,
      [&](int64_t p) {
        trellis_rt_all_reduce(p == 2 ? 1 : 0, axes, TRELLIS_RT_F32,
                              TRELLIS_RT_SUM, addr(&buffers[p * 8]),
                              addr(&buffers[p * 8 + 4]), 4);
      },
      error, sites));
  EXPECT_EQ(error, "collective mismatch in the group over (\"a\") of devices "
                   "0, 1, 2, 3: devices 0, 1, 3 reached spmd.psum at "
                   "a.mlir:1:1, but device 2 reached spmd.pmax at a.mlir:2:1");
}

// A future carried through a loop can reach a wait of the other kind (the
// verifier cannot see through block arguments): the runtime tells the
// handles apart and stops the run.
TEST(CollectiveErrors, AsyncHandleKindsAreChecked) {
  MeshShape mesh = makeMesh({2});
  std::vector<float> buffers(2 * 8);
  const int64_t axes = packAxes({0});
  // Runs `body` on both devices: the run must fail with `message`.
  auto expectFailure = [&](const std::function<void(int64_t)> &body,
                           const std::string &message) {
    std::string error;
    EXPECT_FALSE(runOnMesh(mesh, body, error));
    EXPECT_NE(error.find(message), std::string::npos) << error;
  };
  auto startSum = [&](int64_t p) {
    return trellis_rt_collective_start(0, TRELLIS_RT_ALL_REDUCE, axes,
                                       TRELLIS_RT_F32, TRELLIS_RT_SUM,
                                       addr(&buffers[p * 8]), 4, 0, 0, 0);
  };
  expectFailure(
      [&](int64_t p) {
        trellis_rt_ppermute_wait(startSum(p), addr(&buffers[p * 8 + 4]));
      },
      "trellis_rt_ppermute_wait on the handle");
  expectFailure(
      [&](int64_t p) {
        int64_t h = trellis_rt_ppermute_start(0, axes, TRELLIS_RT_F32,
                                              addr(&buffers[p * 8]), 4);
        trellis_rt_collective_wait(h, addr(&buffers[p * 8 + 4]));
      },
      "is not the handle of a started collective");
  // A handle waited for twice, after a larger gather has reused its slot:
  // the generation in the handle tells them apart (without it the second
  // wait ran the gather into the 4-float buffer).
  expectFailure(
      [&](int64_t p) {
        int64_t h = startSum(p);
        trellis_rt_collective_wait(h, addr(&buffers[p * 8 + 4]));
        int64_t g = trellis_rt_collective_start(
            1, TRELLIS_RT_ALL_GATHER, axes, TRELLIS_RT_F32, 0,
            addr(&buffers[p * 8]), 1, 4, 0, 0);
        EXPECT_NE(g, h);
        trellis_rt_collective_wait(h, addr(&buffers[p * 8 + 4]));
      },
      "is not the handle of a started collective");
  // An unknown kind.
  expectFailure(
      [&](int64_t p) {
        trellis_rt_collective_start(0, 7, axes, TRELLIS_RT_F32, 0,
                                    addr(&buffers[p * 8]), 4, 0, 0, 0);
      },
      "trellis_rt_collective_start of unknown kind 7");
}

/// A device body: a psum over the first axis for which device 0 passes 8
/// floats and the others 4 (`buffers`: 16 floats per device).
std::function<void(int64_t)>
psumOfDisagreeingSizes(std::vector<float> &buffers) {
  return [&buffers, axes = packAxes({0})](int64_t p) {
    trellis_rt_all_reduce(0, axes, TRELLIS_RT_F32, TRELLIS_RT_SUM,
                          addr(&buffers[p * 16]), addr(&buffers[p * 16 + 8]),
                          p == 0 ? 8 : 4);
  };
}

TEST(CollectiveErrors, ShapeDisagreementIsReported) {
  MeshShape mesh = makeMesh({2});
  std::vector<SiteInfo> sites = {{"spmd.psum", "b.mlir:3:4", {}}};
  std::vector<float> buffers(2 * 16);
  std::string error;
  EXPECT_FALSE(runOnMesh(mesh, psumOfDisagreeingSizes(buffers), error, sites));
  EXPECT_EQ(error, "devices disagree on the shape of spmd.psum at b.mlir:3:4 "
                   "in the group over (\"a\") of devices 0, 1: device 0 passes "
                   "32 bytes of f32, device 1 passes 16 bytes of f32");
}

TEST(CollectiveErrors, UnsupportedReduction) {
  MeshShape mesh = makeMesh({2});
  std::vector<SiteInfo> sites = {{"spmd.pmean", "c.mlir:1:1", {}}};
  std::vector<int32_t> buffers(8);
  std::string error;
  const int64_t axes = packAxes({0});
  EXPECT_FALSE(runOnMesh(
      mesh,
      [&](int64_t p) {
        trellis_rt_all_reduce(0, axes, TRELLIS_RT_I32, TRELLIS_RT_MEAN,
                              addr(&buffers[p * 4]), addr(&buffers[p * 4 + 2]),
                              2);
      },
      error, sites));
  EXPECT_EQ(error, "spmd.pmean at c.mlir:1:1: this reduction is not supported "
                   "for i32");
}

/// Sums `a` and `b` (one element each) with the runtime's reduction kernel.
template <typename T> T kernelSum(int32_t dtype, T a, T b) {
  T out{};
  reduceBlocks(dtype, TRELLIS_RT_SUM, {&a, &b}, 0, 1, &out);
  return out;
}

// Integer sums wrap around like arith.addi (psum and psum_scatter add
// with this kernel).
TEST(ReduceKernels, IntegerSumsWrapAround) {
  EXPECT_EQ(kernelSum<int32_t>(TRELLIS_RT_I32,
                               std::numeric_limits<int32_t>::max(), 1),
            std::numeric_limits<int32_t>::min());
  EXPECT_EQ(kernelSum<int64_t>(TRELLIS_RT_I64,
                               std::numeric_limits<int64_t>::min(), -1),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(kernelSum<int16_t>(TRELLIS_RT_I16, 32767, 2), -32767);
  EXPECT_EQ(kernelSum<int8_t>(TRELLIS_RT_I8, -128, -1), 127);
  EXPECT_EQ(kernelSum<float>(TRELLIS_RT_F32, 1.5f, 2.25f), 3.75f);
}

/// Reduces `values` (one element per device) with the runtime's kernel.
template <typename T>
T kernelReduce(int32_t dtype, int32_t reduction, std::vector<T> values) {
  std::vector<const void *> inputs;
  for (const T &v : values)
    inputs.push_back(&v);
  T out{};
  reduceBlocks(dtype, reduction, inputs, 0, 1, &out);
  return out;
}

// pmax/pmin follow arith.maximumf/minimumf: a NaN wins wherever it is, and
// -0.0 < +0.0 whichever device holds which (the kernel was `a < b ? b : a`
// seeded from device 0: a NaN after device 0 was lost).
TEST(ReduceKernels, MaxMinPropagateNaNFromAnyDevice) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (int32_t reduction : {TRELLIS_RT_MAX, TRELLIS_RT_MIN}) {
    for (size_t at = 0; at < 4; ++at) {
      std::vector<float> v = {0.f, 1.f, -inf, 2.f};
      v[at] = nan;
      EXPECT_TRUE(std::isnan(kernelReduce<float>(TRELLIS_RT_F32, reduction, v)))
          << "reduction " << reduction << ", NaN on device " << at;
      std::vector<double> d(v.begin(), v.end());
      EXPECT_TRUE(
          std::isnan(kernelReduce<double>(TRELLIS_RT_F64, reduction, d)));
    }
  }
  // bf16 NaN (0x7fc0) on the last device.
  uint16_t bf16 = kernelReduce<uint16_t>(TRELLIS_RT_BF16, TRELLIS_RT_MAX,
                                         {0x3f80, 0x4000, 0x7fc0});
  EXPECT_EQ(bf16 & 0x7f80, 0x7f80);
  EXPECT_NE(bf16 & 0x007f, 0);
  for (std::vector<float> zeros :
       {std::vector<float>{-0.f, 0.f}, std::vector<float>{0.f, -0.f}}) {
    EXPECT_FALSE(std::signbit(
        kernelReduce<float>(TRELLIS_RT_F32, TRELLIS_RT_MAX, zeros)));
    EXPECT_TRUE(std::signbit(
        kernelReduce<float>(TRELLIS_RT_F32, TRELLIS_RT_MIN, zeros)));
  }
  EXPECT_EQ(kernelReduce<float>(TRELLIS_RT_F32, TRELLIS_RT_MAX, {1.f, inf}),
            inf);
  EXPECT_EQ(kernelReduce<int32_t>(TRELLIS_RT_I32, TRELLIS_RT_MIN, {3, -7, 5}),
            -7);
}

// reduceBlocksInto stores each strip of the result into every output
// (the in-process all-reduce's broadcast): over several strips and a
// partial one, from an offset, with one output aliasing an input.
TEST(ReduceKernels, BlocksStoredIntoEveryOutput) {
  const int64_t offset = 3, count = 5000, n = 3;
  std::vector<std::vector<float>> in(n, std::vector<float>(offset + count));
  for (int64_t k = 0; k < n; ++k)
    for (int64_t e = 0; e < offset + count; ++e)
      in[k][e] = static_cast<float>((e * 7 + k * 13) % 101) - 50.f;
  std::vector<float> expect(count);
  for (int64_t e = 0; e < count; ++e)
    expect[e] = (in[0][offset + e] + in[1][offset + e] + in[2][offset + e]) / 3;
  std::vector<const void *> inputs = {in[0].data(), in[1].data(), in[2].data()};
  std::vector<float> a(offset + count, -1), b(offset + count, -1);
  // The third output is input 1 itself (results go to the same offset).
  reduceBlocksInto(TRELLIS_RT_F32, TRELLIS_RT_MEAN, inputs, offset, count,
                   {a.data(), b.data(), in[1].data()});
  for (int64_t e = 0; e < count; ++e) {
    ASSERT_FLOAT_EQ(a[offset + e], expect[e]) << "element " << e;
    ASSERT_FLOAT_EQ(b[offset + e], expect[e]) << "element " << e;
    ASSERT_FLOAT_EQ(in[1][offset + e], expect[e]) << "element " << e;
  }
  for (int64_t e = 0; e < offset; ++e)
    ASSERT_EQ(a[e], -1.f) << "element " << e << " before the offset";
  // bf16 (accumulated in f32) into two outputs.
  std::vector<uint16_t> x(count), y(count), o1(count), o2(count);
  for (int64_t e = 0; e < count; ++e) {
    x[e] = floatToBf16(static_cast<float>(e % 17));
    y[e] = floatToBf16(0.5f);
  }
  reduceBlocksInto(TRELLIS_RT_BF16, TRELLIS_RT_SUM, {x.data(), y.data()}, 0,
                   count, {o1.data(), o2.data()});
  for (int64_t e = 0; e < count; ++e) {
    ASSERT_EQ(bf16ToFloat(o1[e]), static_cast<float>(e % 17) + 0.5f);
    ASSERT_EQ(o1[e], o2[e]);
  }
}

// Every integer and float dtype under sum, max and min, over counts that
// end inside a strip or on its edge, against a plain loop.
template <typename T> void checkAgainstLoop(int32_t dtype) {
  const int64_t n = 5;
  for (int64_t count : {1, 63, 64, 127, 128, 129, 1000}) {
    std::vector<std::vector<T>> in(n, std::vector<T>(count));
    for (int64_t k = 0; k < n; ++k)
      for (int64_t e = 0; e < count; ++e)
        in[k][e] = static_cast<T>((e * 31 + k * 17) % 97 - 48);
    std::vector<const void *> inputs;
    for (auto &v : in)
      inputs.push_back(v.data());
    for (int32_t reduction : {TRELLIS_RT_SUM, TRELLIS_RT_MAX, TRELLIS_RT_MIN}) {
      std::vector<T> a(count), b(count);
      reduceBlocksInto(dtype, reduction, inputs, 0, count,
                       {a.data(), b.data()});
      for (int64_t e = 0; e < count; ++e) {
        T want = in[0][e];
        for (int64_t k = 1; k < n; ++k)
          want = reduction == TRELLIS_RT_SUM   ? static_cast<T>(want + in[k][e])
                 : reduction == TRELLIS_RT_MAX ? std::max(want, in[k][e])
                                               : std::min(want, in[k][e]);
        ASSERT_EQ(a[e], want) << "count " << count << " element " << e
                              << " reduction " << reduction;
        ASSERT_EQ(b[e], want);
      }
    }
  }
}

TEST(ReduceKernels, EveryDtypeAgainstALoop) {
  checkAgainstLoop<float>(TRELLIS_RT_F32);
  checkAgainstLoop<double>(TRELLIS_RT_F64);
  checkAgainstLoop<int32_t>(TRELLIS_RT_I32);
  checkAgainstLoop<int64_t>(TRELLIS_RT_I64);
  checkAgainstLoop<int16_t>(TRELLIS_RT_I16);
  checkAgainstLoop<int8_t>(TRELLIS_RT_I8);
}

// f16 reductions accumulate in f32 and round once to nearest even, as
// arith.truncf does; every value below is exact in numpy's float16.
TEST(ReduceKernels, HalfPrecision) {
  auto sum = [](std::vector<uint16_t> v) {
    return kernelReduce<uint16_t>(TRELLIS_RT_F16, TRELLIS_RT_SUM, v);
  };
  EXPECT_EQ(sum({0x3c00, 0x4000}), 0x4200); // 1 + 2 = 3
  EXPECT_EQ(sum({0x3c00, 0x1000}), 0x3c00); // 1 + 2^-11: a tie, to even
  EXPECT_EQ(sum({0x3c01, 0x1000}), 0x3c02); // (1 + 2^-10) + 2^-11: to even
  EXPECT_EQ(sum({0x7bff, 0x4c00}), 0x7c00); // 65504 + 16 = 65520: inf
  EXPECT_EQ(sum({0x7bff, 0x4bff}), 0x7bff); // 65504 + 15.99: 65504
  EXPECT_EQ(sum({0x0001, 0x0001}), 0x0002); // subnormals: 2^-24 + 2^-24
  EXPECT_EQ(sum({0x03ff, 0x0001}), 0x0400); // up to the smallest normal
  EXPECT_EQ(sum({0x8000, 0x8000}), 0x8000); // -0 + -0 = -0
  EXPECT_EQ(sum({0xc000, 0x4000}), 0x0000); // -2 + 2 = +0
  EXPECT_EQ(sum({0x7c00, 0xfc00}) & 0x7e00, 0x7e00); // inf - inf: NaN
  EXPECT_EQ(
      kernelReduce<uint16_t>(TRELLIS_RT_F16, TRELLIS_RT_MEAN, {0x3c00, 0x4000}),
      0x3e00); // mean(1, 2) = 1.5
  uint16_t max = kernelReduce<uint16_t>(TRELLIS_RT_F16, TRELLIS_RT_MAX,
                                        {0x3c00, 0x4000, 0x7e00});
  EXPECT_EQ(max & 0x7c00, 0x7c00);
  EXPECT_NE(max & 0x03ff, 0);
  EXPECT_EQ(
      kernelReduce<uint16_t>(TRELLIS_RT_F16, TRELLIS_RT_MIN, {0x0000, 0x8000}),
      0x8000); // -0 < +0
}

TEST(SessionThreads, EachPositionKeepsItsThreadAcrossRuns) {
  // A device that runs on the same thread every run keeps its malloc arena
  // (warm memory); see Session::DeviceThreads.
  MeshShape mesh = makeMesh({4});
  Session session(mesh, {}, SessionOptions());
  std::vector<std::thread::id> first(4), second(4);
  std::vector<std::thread::id> *record = &first;
  auto body = [&record](int64_t p) {
    (*record)[p] = std::this_thread::get_id();
  };
  std::string error;
  ASSERT_TRUE(runOnSession(session, body, error)) << error;
  record = &second;
  ASSERT_TRUE(runOnSession(session, body, error)) << error;
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_EQ(first[p], second[p]) << "position " << p;
    EXPECT_NE(first[p], std::this_thread::get_id());
    for (int64_t q = 0; q < p; ++q)
      EXPECT_NE(first[p], first[q]);
  }
}

TEST(SessionThreads, HooksRunOnTheDeviceThreadAroundTheEntry) {
  // Executor::run places inputs and copies outputs out in these hooks, so
  // they must run on the device's thread, before and after its entry.
  MeshShape mesh = makeMesh({4});
  Session session(mesh, {}, SessionOptions());
  std::vector<std::vector<std::string>> events(4);
  std::vector<std::thread::id> threads(4);
  Session::DeviceHooks hooks;
  hooks.before = [&](int64_t p) {
    events[p].push_back("before");
    threads[p] = std::this_thread::get_id();
  };
  hooks.after = [&](int64_t p) {
    events[p].push_back("after");
    EXPECT_EQ(threads[p], std::this_thread::get_id());
  };
  auto body = [&](int64_t p) {
    events[p].push_back("entry");
    EXPECT_EQ(threads[p], std::this_thread::get_id());
  };
  std::string error;
  ASSERT_TRUE(runOnSession(session, body, error, hooks)) << error;
  for (int64_t p = 0; p < 4; ++p) {
    EXPECT_EQ(events[p], (std::vector<std::string>{"before", "entry", "after"}))
        << "position " << p;
    EXPECT_NE(threads[p], std::this_thread::get_id());
  }
}

TEST(SessionThreads, NoAfterHookForAFailedDevice) {
  // A device whose entry aborts (here: a collective the others disagree
  // with) has no outputs to copy; the run reports the error.
  MeshShape mesh = makeMesh({2});
  std::vector<SiteInfo> sites = {{"spmd.psum", "d.mlir:1:1", {}}};
  Session session(mesh, sites, SessionOptions());
  std::vector<float> buffers(2 * 16);
  std::vector<int> before(2, 0), after(2, 0);
  Session::DeviceHooks hooks;
  hooks.before = [&](int64_t p) { ++before[p]; };
  hooks.after = [&](int64_t p) { ++after[p]; };
  std::string error;
  EXPECT_FALSE(
      runOnSession(session, psumOfDisagreeingSizes(buffers), error, hooks));
  EXPECT_NE(error.find("devices disagree"), std::string::npos) << error;
  EXPECT_EQ(before, (std::vector<int>{1, 1}));
  EXPECT_EQ(after, (std::vector<int>{0, 0}));
}

} // namespace

// A device whose run stops on an error never reaches the deallocations of
// its code: the session frees the heap buffers it left (in the sanitizer
// build LeakSanitizer fails this test if it does not, and AddressSanitizer
// if a buffer is freed twice).
TEST(CollectiveErrors, StoppedDeviceBuffersAreFreed) {
  MeshShape mesh = makeMesh({2});
  std::vector<SiteInfo> sites = {{"spmd.pmean", "c.mlir:1:1", {}}};
  std::vector<int32_t> buffers(8);
  std::vector<size_t> live(2);
  const int64_t axes = packAxes({0});
  std::string error;
  EXPECT_FALSE(runOnMesh(
      mesh,
      [&](int64_t p) {
        void *kept = _mlir_memref_to_llvm_alloc(64);
        void *freed = _mlir_memref_to_llvm_aligned_alloc(64, 100);
        _mlir_memref_to_llvm_free(freed);
        live[p] = currentDevice()->buffers.size();
        trellis_rt_all_reduce(0, axes, TRELLIS_RT_I32, TRELLIS_RT_MEAN,
                              addr(&buffers[p * 4]), addr(&buffers[p * 4 + 2]),
                              2);
        _mlir_memref_to_llvm_free(kept); // not reached
      },
      error, sites));
  EXPECT_EQ(live, (std::vector<size_t>{1, 1}));
}

// A buffer still allocated when a device's run returns was handed to
// someone else: the session forgets it and does not free it.
TEST(CollectiveErrors, ReturnedDeviceBuffersAreLeftAlone) {
  MeshShape mesh = makeMesh({2});
  std::vector<int *> handedOut(2, nullptr);
  std::string error;
  EXPECT_TRUE(runOnMesh(
      mesh,
      [&](int64_t p) {
        handedOut[p] = static_cast<int *>(_mlir_memref_to_llvm_alloc(4));
        *handedOut[p] = static_cast<int>(p);
      },
      error))
      << error;
  for (int64_t p = 0; p < 2; ++p) {
    EXPECT_EQ(*handedOut[p], p); // still ours to read (ASan: not freed)
    _mlir_memref_to_llvm_free(handedOut[p]);
  }
}
