//===- ReferenceCommunicator.cpp - Deliberately simple collectives --------===//
//
// The oracle `trellis-run --reference` runs manual programs through: every
// collective blocks until its whole group has arrived, then each device
// computes its own result from the others' inputs with plain element loops
// written from the collectives' definitions (no ring algorithms, chunked
// copies, shared kernels, staging or asynchrony), and waits until every
// member has read its input before returning. It shares only the mesh
// arithmetic (MeshMath) with the optimised communicators, so a bug in their
// data movement or reduction kernels shows up as a mismatch.
//
//===----------------------------------------------------------------------===//

#include "trellis/Runtime/Runtime.h"
#include "trellis/Runtime/TrellisRuntime.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>

using namespace mlir::trellis::rt;

namespace {

double bf16Value(uint16_t v) {
  uint32_t bits = static_cast<uint32_t>(v) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t bf16Round(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t lsb = (bits >> 16) & 1u;
  return static_cast<uint16_t>((bits + 0x7fffu + lsb) >> 16);
}

/// IEEE half precision, decoded and rounded by arithmetic on doubles (the
/// kernels use bit manipulation: the two are independent).
double halfValue(uint16_t v) {
  const int exponent = (v >> 10) & 0x1f, mantissa = v & 0x3ff;
  const double sign = (v & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0x1f)
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

uint16_t halfRound(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (std::isnan(f))
    return sign | 0x7e00;
  const double a = std::fabs(static_cast<double>(f));
  if (a >= 65520.0)
    return sign | 0x7c00;
  if (a == 0)
    return sign;
  int e = 0;
  std::frexp(a, &e); // a = m 2^e, m in [0.5, 1)
  // The spacing of halves around a: 2^(e - 11), and 2^-24 for subnormals.
  const int quantumExp = std::max(e - 11, -24);
  const double q = std::nearbyint(std::ldexp(a, -quantumExp));
  if (quantumExp == -24 && q < 1024)
    return sign | static_cast<uint16_t>(q);
  // q in [1024, 2048]: 1.m * 2^(quantumExp + 10), rounding may carry.
  int exponentField = quantumExp + 10 + 15;
  double m = q;
  if (m >= 2048) {
    m /= 2;
    ++exponentField;
  }
  return sign | static_cast<uint16_t>(exponentField << 10) |
         static_cast<uint16_t>(m - 1024);
}

/// arith.maximumf / minimumf on one pair (NaN wins, -0 < +0), and
/// wrapping integer addition.
template <typename T> T combine(int32_t reduction, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<T>::quiet_NaN();
    if (reduction == TRELLIS_RT_MAX)
      return a == b ? (std::signbit(a) ? b : a) : (a > b ? a : b);
    if (reduction == TRELLIS_RT_MIN)
      return a == b ? (std::signbit(a) ? a : b) : (a < b ? a : b);
    return a + b;
  } else {
    if (reduction == TRELLIS_RT_MAX)
      return a > b ? a : b;
    if (reduction == TRELLIS_RT_MIN)
      return a < b ? a : b;
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  }
}

/// out[e] = reduction over members k (in rank order) of in_k[index(k, e)],
/// in the element type (f32 for the 16-bit floats, whose format `Half`
/// tells: true for f16, false for bf16), for e in [0, count).
template <typename T, typename Acc, bool Half = false, typename Index>
void reduceInto(int32_t reduction, const std::vector<const void *> &in,
                int64_t count, void *out, Index index) {
  const size_t n = in.size();
  for (int64_t e = 0; e < count; ++e) {
    auto load = [&](size_t k) -> Acc {
      T v = static_cast<const T *>(in[k])[index(e)];
      if constexpr (std::is_same_v<T, uint16_t>)
        return static_cast<Acc>(Half ? halfValue(v) : bf16Value(v));
      else
        return v;
    };
    Acc acc = load(0);
    for (size_t k = 1; k < n; ++k)
      acc = combine<Acc>(reduction, acc, load(k));
    if (reduction == TRELLIS_RT_MEAN)
      acc = acc / static_cast<Acc>(n);
    if constexpr (std::is_same_v<T, uint16_t>)
      static_cast<uint16_t *>(out)[e] = Half ? halfRound(acc) : bf16Round(acc);
    else
      static_cast<T *>(out)[e] = acc;
  }
}

template <typename Index>
bool reduceAny(int32_t dtype, int32_t reduction,
               const std::vector<const void *> &in, int64_t count, void *out,
               Index index) {
  const bool isInt = dtype == TRELLIS_RT_I32 || dtype == TRELLIS_RT_I64 ||
                     dtype == TRELLIS_RT_I16 || dtype == TRELLIS_RT_I8;
  if (isInt && reduction == TRELLIS_RT_MEAN)
    return false;
  switch (dtype) {
  case TRELLIS_RT_F32:
    return reduceInto<float, float>(reduction, in, count, out, index), true;
  case TRELLIS_RT_F64:
    return reduceInto<double, double>(reduction, in, count, out, index), true;
  case TRELLIS_RT_BF16:
    return reduceInto<uint16_t, float>(reduction, in, count, out, index), true;
  case TRELLIS_RT_F16:
    return reduceInto<uint16_t, float, true>(reduction, in, count, out, index),
           true;
  case TRELLIS_RT_I32:
    return reduceInto<int32_t, int32_t>(reduction, in, count, out, index), true;
  case TRELLIS_RT_I64:
    return reduceInto<int64_t, int64_t>(reduction, in, count, out, index), true;
  case TRELLIS_RT_I16:
    return reduceInto<int16_t, int16_t>(reduction, in, count, out, index), true;
  case TRELLIS_RT_I8:
    return reduceInto<int8_t, int8_t>(reduction, in, count, out, index), true;
  default:
    return false;
  }
}

class ReferenceCommunicator : public Communicator {
public:
  ReferenceCommunicator(const MeshShape &mesh,
                        const std::vector<SiteInfo> &sites)
      : mesh_(mesh), sites_(sites), finished_(mesh.numDevices(), false) {}

  bool execute(DeviceContext &device, const CollectiveDesc &desc,
               const void *in, void *out,
               const AsyncStart * /*started*/) override {
    const AxisList axes = unpackAxes(desc.axes);
    const std::vector<int64_t> members =
        mesh_.groupMembers(device.position, axes);
    const int64_t n = static_cast<int64_t>(members.size());
    const int64_t rank = mesh_.rankInGroup(device.position, axes);

    std::unique_lock<std::mutex> lock(mu_);
    // The group's k-th collective, counted by each member on its own.
    const int64_t seq = counts_[{device.position, desc.axes}]++;
    Meeting &meeting = meetings_[{desc.axes, members.front(), seq}];
    if (meeting.inputs.empty()) {
      meeting.inputs.assign(n, nullptr);
      meeting.present.assign(n, false);
      meeting.descs.resize(n);
    }
    meeting.inputs[rank] = in;
    meeting.present[rank] = true;
    meeting.descs[rank] = desc;
    ++meeting.arrived;
    if (meeting.arrived == n) {
      // The members that were waiting for this device are unblocked.
      for (int64_t member : members)
        if (member != device.position)
          waits_.erase(member);
    } else {
      waits_[device.position] =
          what(desc) + " (the group over " + mesh_.formatAxes(axes) + ")";
      checkDeadlockLocked();
    }
    cv_.notify_all();
    cv_.wait(lock, [&] {
      return failed_ || meeting.arrived == n ||
             missingFinished(meeting, members);
    });
    if (failed_)
      return false;
    if (meeting.arrived != n) {
      failLocked("reference collectives: a device of the group of " +
                 what(desc) + " finished without reaching it");
      return false;
    }
    for (int64_t k = 0; k < n; ++k) {
      const CollectiveDesc &d = meeting.descs[k];
      if (d.site != desc.site || d.kind != desc.kind || d.dtype != desc.dtype ||
          d.reduction != desc.reduction ||
          !std::equal(d.geometry, d.geometry + 4, desc.geometry)) {
        failLocked("reference collectives: devices disagree on " + what(desc));
        return false;
      }
    }
    // Inputs stay valid until every member has left (below), and the
    // output is this device's own: compute without the lock.
    lock.unlock();
    const bool ok = compute(desc, meeting.inputs, rank, n, out);
    lock.lock();
    if (!ok) {
      failLocked(what(desc) +
                 ": not supported by the reference collectives "
                 "for " +
                 dtypeName(desc.dtype));
      return false;
    }
    ++meeting.left;
    cv_.notify_all();
    cv_.wait(lock, [&] { return failed_ || meeting.left == n; });
    if (failed_)
      return false;
    if (++meeting.released == n)
      meetings_.erase({desc.axes, members.front(), seq});
    return true;
  }

  int64_t startPermute(DeviceContext &, const CollectiveDesc &desc,
                       const void *, void *, TransferTiming *) override {
    fail("reference collectives: " + what(desc) +
         " is asynchronous; the reference lowering makes every ppermute "
         "blocking");
    return -1;
  }
  bool waitPermute(DeviceContext &, int64_t, void *) override { return false; }
  bool permuteReady(DeviceContext &, int64_t) override { return false; }

  void deviceFinished(DeviceContext &device) override {
    std::lock_guard<std::mutex> lock(mu_);
    finished_[device.position] = true;
    ++finishedCount_;
    checkDeadlockLocked();
    cv_.notify_all();
  }
  void fail(const std::string &message) override {
    std::lock_guard<std::mutex> lock(mu_);
    failLocked(message);
  }
  bool hasFailed(std::string *message) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (message)
      *message = error_;
    return failed_;
  }

private:
  struct Meeting {
    std::vector<const void *> inputs;
    std::vector<bool> present;
    std::vector<CollectiveDesc> descs;
    int64_t arrived = 0, left = 0, released = 0;
  };

  /// Every device that has not finished waits for a collective that is
  /// still missing members: none can ever proceed. (The in-process
  /// communicator says so too; the oracle must not hang where it would.)
  void checkDeadlockLocked() {
    const int64_t running = mesh_.numDevices() - finishedCount_;
    if (failed_ || waits_.empty() ||
        static_cast<int64_t>(waits_.size()) != running)
      return;
    std::string message = "reference collectives: deadlock: every running "
                          "device waits for a collective that another "
                          "device never reaches:";
    for (const auto &[position, where] : waits_)
      message +=
          "\n  device " + std::to_string(position) + " waits in " + where;
    failLocked(message);
  }

  void failLocked(const std::string &message) {
    if (!failed_)
      error_ = message;
    failed_ = true;
    cv_.notify_all();
  }

  bool missingFinished(const Meeting &meeting,
                       const std::vector<int64_t> &members) const {
    for (size_t k = 0; k < members.size(); ++k)
      if (!meeting.present[k] && finished_[members[k]])
        return true;
    return false;
  }

  std::string what(const CollectiveDesc &desc) const {
    if (desc.site >= 0 && desc.site < static_cast<int64_t>(sites_.size()))
      return sites_[desc.site].describe();
    return kindName(desc.kind);
  }

  /// This device's result, from the definitions of the collectives.
  bool compute(const CollectiveDesc &desc, const std::vector<const void *> &in,
               int64_t rank, int64_t n, void *out) const {
    const int64_t elem = dtypeSize(desc.dtype);
    const int64_t *g = desc.geometry;
    auto copy = [&](int64_t k, int64_t from, int64_t to) {
      std::memcpy(static_cast<char *>(out) + to * elem,
                  static_cast<const char *>(in[k]) + from * elem, elem);
    };
    switch (desc.kind) {
    case CollectiveKind::AllReduce:
      return reduceAny(desc.dtype, desc.reduction, in, g[0], out,
                       [](int64_t e) { return e; });
    case CollectiveKind::ReduceScatter: {
      // Input [outer, n, inner]; this device keeps block `rank`.
      const int64_t inner = g[1];
      return reduceAny(desc.dtype, desc.reduction, in, g[0] * inner, out,
                       [&](int64_t e) {
                         return ((e / inner) * n + rank) * inner + e % inner;
                       });
    }
    case CollectiveKind::AllGather: {
      // Output [outer, n, inner]; block k is member k's input.
      const int64_t outer = g[0], inner = g[1];
      for (int64_t k = 0; k < n; ++k)
        for (int64_t f = 0; f < outer * inner; ++f)
          copy(k, f, ((f / inner) * n + k) * inner + f % inner);
      return true;
    }
    case CollectiveKind::AllToAll: {
      // Member k's input [a, n, b] sends block `rank` here; it lands as
      // block k of the output [c, n, d].
      const int64_t a = g[0], b = g[1], d = g[3];
      for (int64_t k = 0; k < n; ++k)
        for (int64_t f = 0; f < a * b; ++f)
          copy(k, ((f / b) * n + rank) * b + f % b,
               ((f / d) * n + k) * d + f % d);
      return true;
    }
    case CollectiveKind::Ppermute: {
      std::memset(out, 0, g[0] * elem);
      if (desc.site < 0 || desc.site >= static_cast<int64_t>(sites_.size()))
        return false;
      for (auto [source, target] : sites_[desc.site].pairs)
        if (target == rank)
          for (int64_t f = 0; f < g[0]; ++f)
            copy(source, f, f);
      return true;
    }
    }
    return false;
  }

  const MeshShape &mesh_;
  const std::vector<SiteInfo> &sites_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::pair<int64_t, int64_t>, int64_t> counts_;
  std::map<std::tuple<int64_t, int64_t, int64_t>, Meeting> meetings_;
  std::vector<bool> finished_;
  int64_t finishedCount_ = 0;
  /// The devices waiting for a collective that still misses members, and
  /// which collective.
  std::map<int64_t, std::string> waits_;
  bool failed_ = false;
  std::string error_;
};

} // namespace

std::unique_ptr<Communicator> mlir::trellis::rt::createReferenceCommunicator(
    const MeshShape &mesh, const std::vector<SiteInfo> &sites) {
  return std::make_unique<ReferenceCommunicator>(mesh, sites);
}
