//===- ClockReport.cpp - What virtual clocks measured ---------------------===//

#include "lib/Execution/ClockReport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace mlir::trellis;
using namespace mlir::trellis::exec;

double mlir::trellis::exec::makespanUs(const RunClocks &run) {
  double end = 0;
  for (const rt::DeviceTimes &t : run)
    end = std::max(end, t.endUs);
  return end;
}

std::optional<std::vector<double>> mlir::trellis::exec::fastestSegments(
    const std::vector<std::vector<double>> &runs) {
  if (runs.empty())
    return std::nullopt;
  std::vector<double> fastest = runs.front();
  for (const std::vector<double> &run : runs) {
    if (run.size() != fastest.size())
      return std::nullopt;
    for (size_t k = 0; k < run.size(); ++k)
      fastest[k] = std::min(fastest[k], run[k]);
  }
  return fastest;
}

/// The share of the communication a device took part in that compute hid.
static double hiddenFraction(const RunClocks &run) {
  double transfer = 0, hidden = 0;
  for (const rt::DeviceTimes &t : run) {
    transfer += t.transferUs;
    hidden += std::max(0.0, t.transferUs - t.commUs);
  }
  return transfer > 0 ? hidden / transfer : 0;
}

void mlir::trellis::exec::printClockSummary(llvm::raw_ostream &os,
                                            const std::vector<RunClocks> &runs,
                                            const RunClocks &replayed,
                                            const rt::LinkModel &link,
                                            const rt::DeviceProfile &profile) {
  if (runs.empty() || runs.front().empty())
    return;
  std::vector<double> spans;
  for (const RunClocks &run : runs)
    spans.push_back(makespanUs(run));
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return spans[a] < spans[b]; });
  const RunClocks &shown =
      replayed.empty() ? runs[order[order.size() / 2]] : replayed;
  os << llvm::format("trellis-run: virtual time on %zu devices", shown.size());
  if (!profile.name.empty())
    os << " (" << profile.name
       << llvm::format(", host compute x%.4g", profile.hostScale) << ")";
  // Microseconds for runs shorter than a millisecond, else milliseconds.
  const bool us = makespanUs(shown) < 1000;
  const char *unit = us ? "us" : "ms";
  const double scale = us ? 1.0 : 1e-3;
  os << llvm::format(": makespan %.3f %s", makespanUs(shown) * scale, unit);
  if (!replayed.empty())
    os << llvm::format(" (each compute segment at its fastest over %zu runs; "
                       "the runs: median %.3f, min %.3f, max %.3f)",
                       runs.size(), spans[order[order.size() / 2]] * scale,
                       spans[order.front()] * scale,
                       spans[order.back()] * scale);
  else if (runs.size() > 1)
    os << llvm::format(" (median of %zu runs; min %.3f, max %.3f)", runs.size(),
                       spans[order.front()] * scale,
                       spans[order.back()] * scale);
  if (link.enabled())
    os << llvm::format("; links %g us, %g GB/s", link.latencyUs,
                       link.bandwidthGBps);
  else
    os << "; no link model: communication takes no time";
  os << "\n";
  auto range = [&](const char *name, double rt::DeviceTimes::*field) {
    double lo = shown.front().*field, hi = lo;
    for (const rt::DeviceTimes &t : shown) {
      lo = std::min(lo, t.*field);
      hi = std::max(hi, t.*field);
    }
    os << llvm::format("%s %.3f-%.3f %s", name, lo * scale, hi * scale, unit);
  };
  os << "trellis-run:   per device: ";
  range("compute", &rt::DeviceTimes::computeUs);
  os << ", ";
  range("communication", &rt::DeviceTimes::commUs);
  os << ", ";
  range("idle", &rt::DeviceTimes::idleUs);
  os << llvm::format("; %.0f%% of communication hidden behind compute\n",
                     100 * hiddenFraction(shown));
  int64_t reordered = 0, devices = 0;
  for (const rt::DeviceTimes &t : shown) {
    reordered += t.reorderedWaits;
    devices += t.reorderedWaits > 0;
  }
  if (reordered > 0)
    os << "trellis-run:   " << reordered << " collective(s) on " << devices
       << " device(s) completed ahead of their wait: a collective started "
          "later ran first, and links serve a device's collectives in the "
          "order they were started (docs/Overlap.md)\n";
}

static llvm::json::Value runJson(const RunClocks &run) {
  llvm::json::Array devices;
  for (const rt::DeviceTimes &t : run)
    devices.push_back(
        llvm::json::Object{{"compute_us", t.computeUs},
                           {"comm_us", t.commUs},
                           {"idle_us", t.idleUs},
                           {"transfer_us", t.transferUs},
                           {"end_us", t.endUs},
                           {"reordered_waits", t.reorderedWaits}});
  return llvm::json::Object{{"makespan_us", makespanUs(run)},
                            {"hidden_fraction", hiddenFraction(run)},
                            {"devices", std::move(devices)}};
}

llvm::Error mlir::trellis::exec::writeClockReport(
    const std::string &path, const std::vector<RunClocks> &runs,
    const RunClocks &replayed, const rt::LinkModel &link,
    const rt::DeviceProfile &profile) {
  llvm::json::Array jsonRuns;
  for (const RunClocks &run : runs)
    jsonRuns.push_back(runJson(run));
  llvm::json::Object report{
      {"clock", "virtual"},
      {"device", profile.name.empty() ? "cpu" : profile.name},
      {"host_scale", profile.hostScale},
      {"link_latency_us", link.latencyUs},
      {"link_bandwidth_gbps", link.bandwidthGBps},
      {"runs", std::move(jsonRuns)},
      {"replayed",
       replayed.empty() ? llvm::json::Value(nullptr) : runJson(replayed)}};
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write '%s': %s", path.c_str(),
                                   ec.message().c_str());
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
  return llvm::Error::success();
}
