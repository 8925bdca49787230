//===- ReferenceCollectivesTest.cpp - The oracle's collectives ------------===//
//
// The reference communicator (the oracle of trellis-run --reference) and the
// in-process one must agree bit for bit on every collective: both reduce in
// rank order in the same accumulator type. Each is also checked on values
// worked out by hand, so that agreeing on a wrong answer is caught.
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/MeshMath.h"
#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"
#include "unittests/Runtime/RunOnMesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir::trellis::rt;
using trellis_test::makeMesh;
using trellis_test::runOnMesh;

namespace {

int64_t address(const void *p) { return reinterpret_cast<int64_t>(p); }

/// Runs `call(p, in, out)` on every device with the given communicator and
/// returns every device's output bytes.
std::vector<std::vector<char>>
runCollective(const MeshShape &mesh, bool reference,
              const std::vector<std::vector<char>> &inputs, size_t outBytes,
              std::function<void(int64_t, const char *, char *)> call,
              std::vector<SiteInfo> sites = {}) {
  std::vector<std::vector<char>> outputs(mesh.numDevices(),
                                         std::vector<char>(outBytes, 0x55));
  SessionOptions options;
  options.referenceCollectives = reference;
  std::string error;
  EXPECT_TRUE(runOnMesh(
      mesh, [&](int64_t p) { call(p, inputs[p].data(), outputs[p].data()); },
      error, std::move(sites), options))
      << error;
  return outputs;
}

std::vector<std::vector<char>> randomInputs(int64_t devices, size_t bytes,
                                            int32_t dtype, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<char>> inputs(devices, std::vector<char>(bytes));
  for (auto &in : inputs) {
    if (dtype == TRELLIS_RT_F32) {
      std::normal_distribution<float> dist;
      for (size_t i = 0; i < bytes / 4; ++i) {
        float v = dist(rng);
        std::memcpy(in.data() + 4 * i, &v, 4);
      }
    } else {
      for (char &c : in)
        c = static_cast<char>(rng());
    }
  }
  // Element 3 is zero on every device: every reduction of it is an exact
  // zero, which each format encodes on its own.
  const size_t elem = dtypeSize(dtype);
  if (bytes >= 4 * elem)
    for (auto &in : inputs)
      std::memset(in.data() + 3 * elem, 0, elem);
  // Special values where the type has them.
  if (dtype == TRELLIS_RT_F32 && bytes >= 12) {
    float nan = NAN, inf = INFINITY, negZero = -0.0f;
    std::memcpy(inputs.back().data(), &nan, 4);
    std::memcpy(inputs.front().data() + 4, &inf, 4);
    std::memcpy(inputs.front().data() + 8, &negZero, 4);
  }
  return inputs;
}

/// Bitwise equality, except that any NaN equals any NaN (payloads may
/// differ: the kernel propagates an operand's, the reference a fresh one).
bool sameValues(int32_t dtype, const std::vector<char> &a,
                const std::vector<char> &b) {
  if (a.size() != b.size())
    return false;
  // Each float type's size, exponent mask and mantissa mask.
  uint64_t elem = 0, expMask = 0, manMask = 0;
  switch (dtype) {
  case TRELLIS_RT_F64:
    elem = 8, expMask = 0x7ff0000000000000ull, manMask = 0x000fffffffffffffull;
    break;
  case TRELLIS_RT_F32:
    elem = 4, expMask = 0x7f800000u, manMask = 0x007fffffu;
    break;
  case TRELLIS_RT_BF16:
    elem = 2, expMask = 0x7f80u, manMask = 0x007fu;
    break;
  case TRELLIS_RT_F16:
    elem = 2, expMask = 0x7c00u, manMask = 0x03ffu;
    break;
  default:
    return a == b;
  }
  for (size_t i = 0; i < a.size(); i += elem) {
    uint64_t x = 0, y = 0;
    std::memcpy(&x, a.data() + i, elem);
    std::memcpy(&y, b.data() + i, elem);
    auto isNan = [&](uint64_t v) {
      return (v & expMask) == expMask && (v & manMask) != 0;
    };
    if (x != y && !(isNan(x) && isNan(y)))
      return false;
  }
  return true;
}

class ReferenceCollectives
    : public ::testing::TestWithParam<std::vector<int64_t>> {};

TEST_P(ReferenceCollectives, AgreeWithInProcess) {
  MeshShape mesh = makeMesh(GetParam());
  const int64_t devices = mesh.numDevices();
  // Collectives over the first axis, and over all axes.
  AxisList all;
  for (int a = 0; a < mesh.numAxes(); ++a)
    all.push_back(a);
  std::vector<SiteInfo> sites = {{"spmd.psum", "t.mlir:1:1", {}}};
  for (AxisList axes : {AxisList{0}, all}) {
    const int64_t n = mesh.groupMembers(0, axes).size();
    const int64_t packed = packAxes(axes);
    // ppermute: a shift by one within the group, and one rank left out.
    sites.resize(1);
    SiteInfo shift{"spmd.ppermute", "t.mlir:2:2", {}};
    for (int64_t r = 0; r + 1 < n; ++r)
      shift.pairs.push_back({r, (r + 1) % n});
    sites.push_back(shift);
    for (int32_t dtype :
         {TRELLIS_RT_F32, TRELLIS_RT_F64, TRELLIS_RT_BF16, TRELLIS_RT_F16,
          TRELLIS_RT_I32, TRELLIS_RT_I64, TRELLIS_RT_I16, TRELLIS_RT_I8}) {
      const int64_t elem = dtypeSize(dtype);
      const int64_t outer = 3, inner = 5, count = outer * n * inner;
      auto inputs = randomInputs(devices, count * elem, dtype, 7 + dtype);
      auto both = [&](size_t outBytes,
                      std::function<void(int64_t, const char *, char *)> call,
                      const char *what) {
        auto fast = runCollective(mesh, false, inputs, outBytes, call, sites);
        auto simple = runCollective(mesh, true, inputs, outBytes, call, sites);
        for (int64_t p = 0; p < devices; ++p)
          EXPECT_TRUE(sameValues(dtype, fast[p], simple[p]))
              << what << " dtype " << dtype << " device " << p << " over "
              << axes.size() << " axes";
      };
      for (int32_t reduction :
           {TRELLIS_RT_SUM, TRELLIS_RT_MAX, TRELLIS_RT_MIN, TRELLIS_RT_MEAN}) {
        const bool isFloat =
            dtype == TRELLIS_RT_F32 || dtype == TRELLIS_RT_F64 ||
            dtype == TRELLIS_RT_BF16 || dtype == TRELLIS_RT_F16;
        if (reduction == TRELLIS_RT_MEAN && !isFloat)
          continue;
        both(
            count * elem,
            [&](int64_t, const char *in, char *out) {
              trellis_rt_all_reduce(0, packed, dtype, reduction, address(in),
                                    address(out), count);
            },
            "all_reduce");
        both(
            outer * inner * elem,
            [&](int64_t, const char *in, char *out) {
              trellis_rt_reduce_scatter(0, packed, dtype, reduction,
                                        address(in), address(out), outer,
                                        inner);
            },
            "reduce_scatter");
      }
      both(
          count * n * elem,
          [&](int64_t, const char *in, char *out) {
            trellis_rt_all_gather(0, packed, dtype, address(in), address(out),
                                  outer, n * inner);
          },
          "all_gather");
      // [3, n, 5] split along the middle, concatenated as [5, n, 3].
      both(
          count * elem,
          [&](int64_t, const char *in, char *out) {
            trellis_rt_all_to_all(0, packed, dtype, address(in), address(out),
                                  outer, inner, inner, outer);
          },
          "all_to_all");
      both(
          count * elem,
          [&](int64_t, const char *in, char *out) {
            trellis_rt_ppermute(1, packed, dtype, address(in), address(out),
                                count);
          },
          "ppermute");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, ReferenceCollectives,
                         ::testing::Values(std::vector<int64_t>{1},
                                           std::vector<int64_t>{2},
                                           std::vector<int64_t>{8},
                                           std::vector<int64_t>{2, 4},
                                           std::vector<int64_t>{2, 2, 2}));

// Hand-computed values on 4 devices, one float each (x_p = p + 1), so that
// both communicators agreeing on a wrong answer is caught.
TEST(ReferenceCollectivesByHand, FourDevices) {
  MeshShape mesh = makeMesh({4});
  std::vector<std::vector<char>> inputs(4, std::vector<char>(8));
  for (int64_t p = 0; p < 4; ++p) {
    float v[2] = {static_cast<float>(p + 1), static_cast<float>(10 * p)};
    std::memcpy(inputs[p].data(), v, 8);
  }
  std::vector<SiteInfo> sites = {{"spmd.ppermute", "h.mlir:1:1", {{0, 2}}}};
  auto floats = [](const std::vector<char> &bytes) {
    std::vector<float> v(bytes.size() / 4);
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  };
  for (bool reference : {false, true}) {
    auto sum = runCollective(
        mesh, reference, inputs, 8,
        [](int64_t, const char *in, char *out) {
          trellis_rt_all_reduce(0, packAxes({0}), TRELLIS_RT_F32,
                                TRELLIS_RT_SUM, address(in), address(out), 2);
        },
        sites);
    EXPECT_EQ(floats(sum[3]), (std::vector<float>{10, 60}));
    auto gathered = runCollective(
        mesh, reference, inputs, 32,
        [](int64_t, const char *in, char *out) {
          trellis_rt_all_gather(0, packAxes({0}), TRELLIS_RT_F32, address(in),
                                address(out), 2, 1);
        },
        sites);
    EXPECT_EQ(floats(gathered[1]),
              (std::vector<float>{1, 2, 3, 4, 0, 10, 20, 30}));
    auto permuted = runCollective(
        mesh, reference, inputs, 8,
        [](int64_t, const char *in, char *out) {
          trellis_rt_ppermute(0, packAxes({0}), TRELLIS_RT_F32, address(in),
                              address(out), 2);
        },
        sites);
    EXPECT_EQ(floats(permuted[2]), (std::vector<float>{1, 0}));
    EXPECT_EQ(floats(permuted[0]), (std::vector<float>{0, 0}));
  }
}

// Devices (0,0) and (1,1) of a 2x2 mesh reduce over "a" first, the other
// two over "b": each waits for a neighbour that waits for the next one.
// Both communicators report the deadlock instead of hanging, and the
// reference one names every device's wait.
TEST(ReferenceCollectivesByHand, DeadlockIsReported) {
  MeshShape mesh = makeMesh({2, 2});
  std::vector<SiteInfo> sites = {{"spmd.psum", "d.mlir:1:1", {}},
                                 {"spmd.psum", "d.mlir:2:1", {}}};
  for (bool reference : {false, true}) {
    SessionOptions options;
    options.referenceCollectives = reference;
    std::string error;
    bool ok = runOnMesh(
        mesh,
        [&](int64_t p) {
          float in = 1, out = 0;
          bool diagonal = p == 0 || p == 3;
          int first = diagonal ? 0 : 1;
          // Packed before the calls: a deadlocked collective does not
          // return, and a temporary alive across it would leak.
          int64_t firstAxes = packAxes({first});
          int64_t secondAxes = packAxes({1 - first});
          trellis_rt_all_reduce(first, firstAxes, TRELLIS_RT_F32,
                                TRELLIS_RT_SUM, address(&in), address(&out), 1);
          trellis_rt_all_reduce(1 - first, secondAxes, TRELLIS_RT_F32,
                                TRELLIS_RT_SUM, address(&in), address(&out), 1);
        },
        error, sites, options);
    EXPECT_FALSE(ok);
    EXPECT_NE(error.find("deadlock"), std::string::npos) << error;
    if (reference)
      for (const char *wait : {"device 0 waits in spmd.psum at d.mlir:1:1 (the "
                               "group over (\"a\"))",
                               "device 1 waits in spmd.psum at d.mlir:2:1 (the "
                               "group over (\"b\"))"})
        EXPECT_NE(error.find(wait), std::string::npos) << error;
  }
}

} // namespace
