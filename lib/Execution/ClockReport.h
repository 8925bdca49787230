//===- ClockReport.h - What virtual clocks measured -------------*- C++ -*-===//
//
// Summarises the devices' virtual clocks (Session::deviceTimes, plain data)
// over the runs of a trellis-run --clock=virtual: the makespan, where each
// device's time went, and how much communication compute hid; as text for
// people and as JSON for scripts.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_CLOCKREPORT_H
#define TRELLIS_LIB_EXECUTION_CLOCKREPORT_H

#include "trellis/Runtime/Runtime.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::trellis::exec {

/// The device times of one run, per device id.
using RunClocks = std::vector<rt::DeviceTimes>;

/// The latest device's final clock.
double makespanUs(const RunClocks &run);

/// One device's compute segments over several runs (`runs[r][k]`: the CPU
/// time of segment k in run r), each at its fastest: what a replayed run
/// advances the clock by. None when the runs had different segments
/// (data-dependent control flow).
std::optional<std::vector<double>>
fastestSegments(const std::vector<std::vector<double>> &runs);

/// Prints the makespan of `replayed` (the run that replays each compute
/// segment's fastest time over `runs`) or, if it is empty, of the run of median
/// makespan; the makespans of `runs` (median, min, max); and for the run
/// reported, the range over devices of compute, communication and idle
/// time and the share of communication hidden behind compute; and the
/// device `profile` names, if any.
void printClockSummary(llvm::raw_ostream &os,
                       const std::vector<RunClocks> &runs,
                       const RunClocks &replayed, const rt::LinkModel &link,
                       const rt::DeviceProfile &profile);

/// Writes every run's makespan and per-device times (microseconds) as
/// JSON to `path`, and the replayed run's ("replayed": null if none);
/// `profile` names the device (none: "cpu", the host).
llvm::Error writeClockReport(const std::string &path,
                             const std::vector<RunClocks> &runs,
                             const RunClocks &replayed,
                             const rt::LinkModel &link,
                             const rt::DeviceProfile &profile);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_CLOCKREPORT_H
