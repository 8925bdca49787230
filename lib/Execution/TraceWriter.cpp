//===- TraceWriter.cpp - Chrome trace files of a run ----------------------===//

#include "lib/Execution/TraceWriter.h"
#include "lib/Execution/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

using namespace mlir::trellis;
using namespace mlir::trellis::exec;

namespace {

/// Lays out the compact JSON that llvm::json::OStream writes the way trace
/// files have always looked, which people and tests grep: a space after
/// every ':' and ',', and each element of the top-level "traceEvents"
/// array on a line of its own. Only whitespace outside strings is added.
class TraceLayoutStream final : public llvm::raw_ostream {
public:
  explicit TraceLayoutStream(llvm::raw_ostream &os) : os_(os) {
    SetUnbuffered();
  }

private:
  void write_impl(const char *ptr, size_t size) override {
    for (size_t i = 0; i < size; ++i)
      put(ptr[i]);
    pos_ += size;
  }
  uint64_t current_pos() const override { return pos_; }

  void put(char c) {
    if (inString_) {
      os_ << c;
      if (escaped_)
        escaped_ = false;
      else if (c == '\\')
        escaped_ = true;
      else if (c == '"')
        inString_ = false;
      return;
    }
    switch (c) {
    case '"':
      inString_ = true;
      os_ << c;
      return;
    case '{':
    case '[':
      os_ << c;
      if (++depth_ == kEventsDepth && c == '[')
        os_ << "\n  ";
      return;
    case '}':
    case ']':
      if (depth_-- == kEventsDepth && c == ']')
        os_ << '\n';
      os_ << c;
      return;
    case ',':
      os_ << (depth_ == kEventsDepth ? ",\n  " : ", ");
      return;
    case ':':
      os_ << ": ";
      return;
    default:
      os_ << c;
    }
  }

  /// Nesting depth of the "traceEvents" array (inside the top object).
  static constexpr int kEventsDepth = 2;
  llvm::raw_ostream &os_;
  uint64_t pos_ = 0;
  int depth_ = 0;
  bool inString_ = false;
  bool escaped_ = false;
};

/// Per device: its own track, then up to this many minus one transfer
/// tracks.
constexpr size_t kTracksPerDevice = 16;

/// Writes the trace events of one device.
class DeviceTracks {
public:
  DeviceTracks(llvm::json::OStream &json, size_t numDevices, size_t device)
      : json_(json), numDevices_(numDevices), device_(device) {}

  /// Names track `tid` and gives its place in the display order.
  void track(size_t tid, const std::string &name, size_t sortIndex) {
    json_.object([&] {
      json_.attribute("name", "thread_name");
      json_.attribute("ph", "M");
      json_.attribute("pid", 0);
      json_.attribute("tid", static_cast<int64_t>(tid));
      json_.attributeObject("args", [&] { json_.attribute("name", name); });
    });
    json_.object([&] {
      json_.attribute("name", "thread_sort_index");
      json_.attribute("ph", "M");
      json_.attribute("pid", 0);
      json_.attribute("tid", static_cast<int64_t>(tid));
      json_.attributeObject("args", [&] {
        json_.attribute("sort_index", static_cast<int64_t>(sortIndex));
      });
    });
  }

  /// A complete event; times in microseconds with three decimals.
  void span(size_t tid, const rt::TraceEvent &event) {
    auto micros = [&](llvm::StringRef key, double us) {
      json_.attributeBegin(key);
      json_.rawValue(
          [&](llvm::raw_ostream &os) { os << llvm::format("%.3f", us); });
      json_.attributeEnd();
    };
    json_.object([&] {
      json_.attribute("name", event.name);
      json_.attribute("cat", event.category);
      json_.attribute("ph", "X");
      json_.attribute("pid", 0);
      json_.attribute("tid", static_cast<int64_t>(tid));
      micros("ts", event.startUs);
      micros("dur", event.durUs);
      json_.attributeObject("args",
                            [&] { json_.attribute("bytes", event.bytes); });
    });
  }

  /// Writes the device's own track and its events, then its transfers,
  /// each on the first transfer track free at its start.
  void write(const std::string &label,
             const std::vector<rt::TraceEvent> &events) {
    track(device_, label, device_ * kTracksPerDevice);
    std::vector<const rt::TraceEvent *> transfers;
    for (const rt::TraceEvent &event : events) {
      if (event.category == "transfer")
        transfers.push_back(&event);
      else
        span(device_, event);
    }
    // By start; among equals in the order recorded (the pointers point
    // into one vector).
    llvm::sort(transfers, [](const rt::TraceEvent *a, const rt::TraceEvent *b) {
      return std::tie(a->startUs, a) < std::tie(b->startUs, b);
    });
    std::vector<double> laneEnd;
    for (const rt::TraceEvent *event : transfers) {
      size_t lane = 0;
      while (lane < laneEnd.size() && laneEnd[lane] > event->startUs)
        ++lane;
      if (lane == laneEnd.size()) {
        if (lane + 1 >= kTracksPerDevice)
          lane = laneEnd.size() - 1; // overlap on the last track
        else {
          laneEnd.push_back(0);
          track(numDevices_ * (lane + 1) + device_,
                "device " + std::to_string(device_) + " transfers" +
                    (lane ? " (" + std::to_string(lane + 1) + ")" : ""),
                device_ * kTracksPerDevice + 1 + lane);
        }
      }
      laneEnd[lane] = event->startUs + event->durUs;
      span(numDevices_ * (lane + 1) + device_, *event);
    }
  }

private:
  llvm::json::OStream &json_;
  size_t numDevices_;
  size_t device_;
};

/// "device 3 (X=1, Y=1)": the device id and its mesh coordinates.
std::string deviceLabel(const rt::MeshShape &mesh, size_t device) {
  int64_t position = mesh.positionOf(device);
  std::string label = "device " + std::to_string(device);
  if (position >= 0 && mesh.numAxes() > 0) {
    std::vector<int64_t> coords = mesh.coords(position);
    llvm::raw_string_ostream os(label);
    os << " (";
    llvm::interleaveComma(llvm::seq(mesh.numAxes()), os, [&](int a) {
      os << mesh.axisNames[a] << '=' << coords[a];
    });
    os << ')';
  }
  return label;
}

} // namespace

llvm::Error mlir::trellis::exec::writeChromeTrace(
    const std::string &path, const rt::MeshShape &mesh,
    const std::vector<std::vector<rt::TraceEvent>> &events) {
  // Opened by hand: raw_fd_ostream would take the path "-" for stdout.
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::openFileForWrite(path, fd)) {
    return makeError("cannot write trace file '" + path + "': " + ec.message());
  }
  llvm::raw_fd_ostream file(fd, /*shouldClose=*/true);
  {
    TraceLayoutStream layout(file);
    llvm::json::OStream json(layout);
    json.object([&] {
      json.attribute("displayTimeUnit", "ms");
      json.attributeArray("traceEvents", [&] {
        json.object([&] {
          json.attribute("name", "process_name");
          json.attribute("ph", "M");
          json.attribute("pid", 0);
          json.attributeObject("args",
                               [&] { json.attribute("name", "trellis mesh"); });
        });
        for (size_t device = 0; device < events.size(); ++device)
          DeviceTracks(json, events.size(), device)
              .write(deviceLabel(mesh, device), events[device]);
      });
    });
  }
  file << '\n';
  file.close();
  if (file.has_error()) {
    file.clear_error();
    return makeError("cannot write trace file '" + path + "'");
  }
  return llvm::Error::success();
}
