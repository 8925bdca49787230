//===- InterconnectTest.cpp - The modelled links and the transfer engine --===//
//
// The arrival times the in-process communicator plans for asynchronous
// ppermutes (latency per hop, bandwidth per directed link, one transfer at
// a time per link, ring routes), and a run through a Session in which every
// receiver gets its data no earlier than the modelled arrival.
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"
#include "unittests/Runtime/RunOnMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>

using namespace mlir::trellis::rt;
using trellis_test::runOnMesh;
using trellis_test::runOnSession;

namespace {

MeshShape ring(int64_t n) {
  MeshShape mesh;
  mesh.axisNames = {"i"};
  mesh.axisSizes = {n};
  return mesh;
}

SiteInfo shiftSite(int64_t n, int step) {
  SiteInfo site{"spmd.ppermute", "test", {}};
  for (int64_t j = 0; j < n; ++j)
    site.pairs.push_back({j, ((j + step) % n + n) % n});
  return site;
}

CollectiveDesc permuteDesc(int64_t site, int64_t count) {
  CollectiveDesc desc;
  desc.site = site;
  desc.kind = CollectiveKind::Ppermute;
  desc.axes = packAxes({0});
  desc.dtype = TRELLIS_RT_F32;
  desc.geometry[0] = count;
  desc.bytes = count * 4;
  return desc;
}

// 1000 f32 = 4000 bytes at 1 GB/s (1000 bytes/us) take 4 us on the wire.
constexpr double kWireUs = 4.0;
constexpr double kLatencyUs = 100.0;

TEST(Interconnect, LatencyAndBandwidthOnIdleLink) {
  MeshShape mesh = ring(4);
  std::vector<SiteInfo> sites = {shiftSite(4, -1), shiftSite(4, 2)};
  LinkModel link{kLatencyUs, 1.0};
  auto comm = createInProcessCommunicator(mesh, sites, link);
  std::vector<float> data(1000, 1.0f);
  DeviceContext device;
  device.position = 0;
  TransferTiming t;
  ASSERT_GE(comm->startPermute(device, permuteDesc(0, 1000), data.data(),
                               nullptr, &t),
            0);
  EXPECT_EQ(t.targetDevice, 3);
  EXPECT_EQ(t.hops, 1);
  EXPECT_NEAR(t.arriveUs - t.sendUs, kWireUs + kLatencyUs, 1e-6);
  // Two hops around the ring: the latency twice, the wire time once
  // (cut-through).
  TransferTiming far;
  ASSERT_GE(comm->startPermute(device, permuteDesc(1, 1000), data.data(),
                               nullptr, &far),
            0);
  EXPECT_EQ(far.targetDevice, 2);
  EXPECT_EQ(far.hops, 2);
  EXPECT_NEAR(far.arriveUs - far.sendUs, kWireUs + 2 * kLatencyUs, 1e-6);
}

TEST(Interconnect, OneTransferAtATimePerLink) {
  MeshShape mesh = ring(4);
  std::vector<SiteInfo> sites = {shiftSite(4, -1)};
  // A slow link: 1000 f32 take 4000 us, far longer than the test's calls.
  LinkModel link{kLatencyUs, 0.001};
  auto comm = createInProcessCommunicator(mesh, sites, link);
  std::vector<float> data(1000, 1.0f);
  DeviceContext device;
  device.position = 1;
  TransferTiming first, second;
  double before = nowUs();
  comm->startPermute(device, permuteDesc(0, 1000), data.data(), nullptr,
                     &first);
  comm->startPermute(device, permuteDesc(0, 1000), data.data(), nullptr,
                     &second);
  // The claim needs the second start to come while the first is still on
  // the wire; on a loaded host this thread can be descheduled for longer
  // (seen once under ctest -j2), and then the second rightly leaves later.
  if (nowUs() - before > 2000.0)
    GTEST_SKIP() << "the two starts were more than 2 ms apart";
  // The second waits for the link: it leaves when the first is off the
  // wire.
  EXPECT_NEAR(second.arriveUs - first.arriveUs, 4000.0, 1.0);
}

TEST(Interconnect, OppositeDirectionsUseSeparateLinks) {
  // On a ring of 2 both neighbours are the same device; a left and a right
  // shift still travel on different links (the two ways around the ring).
  MeshShape mesh = ring(2);
  std::vector<SiteInfo> sites = {shiftSite(2, -1), shiftSite(2, 1)};
  LinkModel link{0.0, 0.001};
  auto comm = createInProcessCommunicator(mesh, sites, link);
  std::vector<float> data(1000, 1.0f);
  DeviceContext device;
  device.position = 0;
  TransferTiming left, right;
  comm->startPermute(device, permuteDesc(0, 1000), data.data(), nullptr, &left);
  comm->startPermute(device, permuteDesc(1, 1000), data.data(), nullptr,
                     &right);
  EXPECT_NEAR(left.arriveUs - left.sendUs, 4000.0, 1.0);
  EXPECT_NEAR(right.arriveUs - right.sendUs, 4000.0, 1.0);
}

int64_t addr(const void *p) { return reinterpret_cast<int64_t>(p); }

/// The payloads in flight in one device's trace.
std::vector<TraceEvent> transfersIn(const std::vector<TraceEvent> &trace) {
  std::vector<TraceEvent> transfers;
  for (const TraceEvent &event : trace)
    if (event.category == "transfer")
      transfers.push_back(event);
  return transfers;
}

TEST(Interconnect, EngineDeliversAfterTheModelledTime) {
  MeshShape mesh = ring(4);
  SessionOptions options;
  options.trace = true;
  options.link = LinkModel{2000.0, 0.0}; // 2 ms per hop
  Session session(mesh, {shiftSite(4, -1)}, options);
  std::vector<std::vector<float>> in(4, std::vector<float>(8)),
      out(4, std::vector<float>(8, -1));
  std::vector<double> startedUs(4), receivedUs(4);
  for (int64_t p = 0; p < 4; ++p)
    for (int e = 0; e < 8; ++e)
      in[p][e] = static_cast<float>(10 * p + e);
  std::string error;
  ASSERT_TRUE(runOnSession(
      session,
      [&](int64_t p) {
        startedUs[p] = nowUs();
        int64_t handle = trellis_rt_ppermute_start(
            0, packAxes({0}), TRELLIS_RT_F32, addr(in[p].data()), 8);
        trellis_rt_ppermute_wait(handle, addr(out[p].data()));
        receivedUs[p] = nowUs();
      },
      error))
      << error;
  for (int64_t p = 0; p < 4; ++p) {
    for (int e = 0; e < 8; ++e)
      EXPECT_EQ(out[p][e], in[(p + 1) % 4][e]);
    // Device p receives from p + 1, which started no earlier than p + 1's
    // body began: the data cannot arrive before one latency after that.
    EXPECT_GE(receivedUs[p] - startedUs[(p + 1) % 4], 2000.0);
  }
  // Each sender's trace shows its payload in flight for the modelled time.
  std::vector<std::vector<TraceEvent>> traces = session.traces();
  for (int64_t d = 0; d < 4; ++d) {
    std::vector<TraceEvent> sent = transfersIn(traces[d]);
    for (const TraceEvent &event : sent) {
      EXPECT_EQ(event.peer, (d + 3) % 4);
      EXPECT_NEAR(event.durUs, 2000.0, 1e-6);
      EXPECT_EQ(event.bytes, 32);
    }
    EXPECT_EQ(sent.size(), 1u);
  }
}

/// One direct (one-copy) asynchronous ppermute of `count` f32 at site 0
/// over axis 0, started and waited for at once.
void permuteDirect(const float *in, float *out, int64_t count) {
  int64_t handle = trellis_rt_ppermute_start_direct(
      0, packAxes({0}), TRELLIS_RT_F32, addr(in), addr(out), count);
  trellis_rt_ppermute_wait_direct(handle, addr(in), addr(out), addr(in));
}

/// Rotates every device's block around a ring of `n` for `steps` rounds of
/// direct ppermutes, the shape of the collective matmul loop: each round's
/// output buffer is the next round's input. Returns false with `error` set
/// when the run fails.
bool rotateDirect(int64_t n, int steps, SessionOptions options,
                  std::vector<std::vector<float>> &result, std::string &error) {
  const int count = 1000;
  std::vector<std::vector<float>> a(n, std::vector<float>(count)),
      b(n, std::vector<float>(count, -1));
  for (int64_t p = 0; p < n; ++p)
    for (int e = 0; e < count; ++e)
      a[p][e] = static_cast<float>(1000 * p + e);
  auto body = [&](int64_t p) {
    float *in = a[p].data(), *out = b[p].data();
    for (int s = 0; s < steps; ++s) {
      permuteDirect(in, out, count);
      std::swap(in, out);
    }
    if (in != a[p].data())
      std::copy(in, in + count, a[p].begin());
  };
  if (!runOnMesh(ring(n), body, error, {shiftSite(n, -1)}, options))
    return false;
  result = a;
  return true;
}

void expectRotated(const std::vector<std::vector<float>> &got, int64_t n,
                   int steps) {
  for (int64_t p = 0; p < n; ++p)
    for (int e = 0; e < 1000; e += 111)
      ASSERT_EQ(got[p][e], static_cast<float>(1000 * ((p + steps) % n) + e))
          << "device " << p << " element " << e;
}

TEST(DirectPermute, RingRotationWithoutLinkModel) {
  for (int steps : {1, 2, 7}) {
    std::vector<std::vector<float>> got;
    std::string error;
    ASSERT_TRUE(rotateDirect(8, steps, SessionOptions(), got, error)) << error;
    expectRotated(got, 8, steps);
  }
}

TEST(DirectPermute, RingRotationThroughTheTransferEngine) {
  SessionOptions options;
  options.link = LinkModel{5.0, 1.0};
  for (int steps : {1, 3, 8}) {
    std::vector<std::vector<float>> got;
    std::string error;
    ASSERT_TRUE(rotateDirect(8, steps, options, got, error)) << error;
    expectRotated(got, 8, steps);
  }
}

TEST(DirectPermute, RingRotationWithComputeSlots) {
  // Fewer compute slots than devices: a waiting device gives its slot up.
  SessionOptions options;
  options.computeSlots = 2;
  options.link = LinkModel{50.0, 0.0};
  std::vector<std::vector<float>> got;
  std::string error;
  ASSERT_TRUE(rotateDirect(4, 5, options, got, error)) << error;
  expectRotated(got, 4, 5);
}

/// Runs `body(position)` on a ring of 2 with the one ppermute `site`.
bool runPair(SiteInfo site, const std::function<void(int64_t)> &body,
             std::string &error, LinkModel link = {}) {
  SessionOptions options;
  options.link = link;
  options.timeoutSeconds = 30;
  return runOnMesh(ring(2), body, error, {std::move(site)}, options);
}

TEST(DirectPermute, ReceiverThatNeverStartsIsReported) {
  // Device 0 sends to device 1, which returns without taking part: the
  // sender, waiting for its payload to be taken, gets an error, not a hang.
  SiteInfo site{"spmd.ppermute", "d.mlir:1:1", {{0, 1}}};
  for (LinkModel link : {LinkModel{}, LinkModel{10.0, 0.0}}) {
    std::vector<float> in(4, 1.0f), out(4, -1.0f);
    std::string error;
    EXPECT_FALSE(runPair(
        site,
        [&](int64_t p) {
          if (p == 0)
            permuteDirect(in.data(), out.data(), 4);
        },
        error, link));
    EXPECT_NE(error.find("finished without receiving"), std::string::npos)
        << error;
  }
}

TEST(DirectPermute, SenderThatNeverStartsIsReported) {
  SiteInfo site{"spmd.ppermute", "d.mlir:2:1", {{0, 1}}};
  std::vector<float> in(4, 1.0f), out(4, -1.0f);
  std::string error;
  EXPECT_FALSE(runPair(
      site,
      [&](int64_t p) {
        if (p == 1)
          permuteDirect(in.data(), out.data(), 4);
      },
      error));
  EXPECT_NE(error.find("finished without sending"), std::string::npos) << error;
}

TEST(DirectPermute, WaitWithOtherBuffersIsReported) {
  SiteInfo site{"spmd.ppermute", "d.mlir:3:1", {{0, 1}, {1, 0}}};
  std::vector<std::vector<float>> in(2, std::vector<float>(4, 1.0f)),
      out(2, std::vector<float>(4, -1.0f));
  std::string error;
  const int64_t axes = packAxes({0});
  EXPECT_FALSE(runPair(
      site,
      [&](int64_t p) {
        int64_t h = trellis_rt_ppermute_start_direct(0, axes, TRELLIS_RT_F32,
                                                     addr(in[p].data()),
                                                     addr(out[p].data()), 4);
        // Output and input swapped: not the buffers the start was given.
        trellis_rt_ppermute_wait_direct(
            h, addr(out[p].data()), addr(in[p].data()), addr(out[p].data()));
      },
      error));
  EXPECT_NE(error.find("was not started with these buffers"), std::string::npos)
      << error;
}

} // namespace
