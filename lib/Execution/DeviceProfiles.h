//===- DeviceProfiles.h - What simulated devices compute like ---*- C++ -*-===//
//
// The device profiles of trellis-run --device (DeviceProfiles.txt, built
// in, and any --device-table of the user's): peak matmul throughput, memory
// bandwidth and links, for virtual clocks (docs/Interconnect.md).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_DEVICEPROFILES_H
#define TRELLIS_LIB_EXECUTION_DEVICEPROFILES_H

#include "trellis/Runtime/Runtime.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::trellis::exec {

/// A row of a profile table: the device and its links.
struct DeviceRow {
  rt::DeviceProfile profile;
  rt::LinkModel link;
};

/// Parses a profile table (`source` names it in errors).
llvm::Expected<std::vector<DeviceRow>> parseDeviceTable(llvm::StringRef text,
                                                        llvm::StringRef source);

/// The profile named `name` from the built-in table and then `tableFile`
/// (if given; its rows win); its hostScale measured on this host.
llvm::Expected<DeviceRow> findDevice(llvm::StringRef name,
                                     llvm::StringRef tableFile);

/// The host's memory bandwidth from one core (GB/s): the best of a few
/// copies of 64 MiB, counting the bytes read and written.
double measureHostMemoryGBps();

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_DEVICEPROFILES_H
