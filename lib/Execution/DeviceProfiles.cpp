//===- DeviceProfiles.cpp - What simulated devices compute like -----------===//

#include "lib/Execution/DeviceProfiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

using namespace mlir::trellis;
using namespace mlir::trellis::exec;

/// DeviceProfiles.txt, embedded at build time.
static const char *const kBuiltinTable =
#include "DeviceProfilesTable.inc"
    ;

llvm::Expected<std::vector<DeviceRow>>
mlir::trellis::exec::parseDeviceTable(llvm::StringRef text,
                                      llvm::StringRef source) {
  std::vector<DeviceRow> rows;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (auto [index, raw] : llvm::enumerate(lines)) {
    llvm::StringRef line = raw.split('#').first.trim();
    if (line.empty())
      continue;
    llvm::SmallVector<llvm::StringRef> fields;
    line.split(fields, ' ', -1, /*KeepEmpty=*/false);
    auto bad = [&, index = index](const llvm::Twine &why) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     source + ":" + llvm::Twine(index + 1) +
                                         ": " + why);
    };
    if (fields.size() != 7)
      return bad("expected 7 columns (name f64 f32 bf16 memory link "
                 "latency), got " +
                 llvm::Twine(fields.size()));
    double values[6];
    for (int i = 0; i < 6; ++i)
      if (!llvm::to_float(fields[i + 1], values[i]) || !(values[i] >= 0) ||
          values[i] > 1e9)
        return bad("column " + llvm::Twine(i + 2) + " ('" + fields[i + 1] +
                   "') is not a number from 0 to 1e9");
    DeviceRow row;
    row.profile.name = fields[0].str();
    row.profile.f64Tflops = values[0] > 0 ? values[0] : values[1];
    row.profile.f32Tflops = values[1];
    row.profile.bf16Tflops = values[2] > 0 ? values[2] : values[1];
    row.profile.memoryGBps = values[3];
    row.link.bandwidthGBps = values[4];
    row.link.latencyUs = values[5];
    if (row.profile.f32Tflops <= 0 || row.profile.memoryGBps <= 0)
      return bad("'" + fields[0] +
                 "' needs an f32 rate and a memory "
                 "bandwidth above 0");
    rows.push_back(row);
  }
  return rows;
}

double mlir::trellis::exec::measureHostMemoryGBps() {
  const size_t bytes = size_t{64} << 20;
  std::vector<char> from(bytes, 1), to(bytes, 0);
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    std::memcpy(to.data(), from.data(), bytes);
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    from[i] = to[bytes - 1 - i]; // keep the copy observable
    if (s > 0)
      best = std::max(best, 2.0 * bytes / s / 1e9);
  }
  return best;
}

llvm::Expected<DeviceRow>
mlir::trellis::exec::findDevice(llvm::StringRef name,
                                llvm::StringRef tableFile) {
  llvm::Expected<std::vector<DeviceRow>> rows =
      parseDeviceTable(kBuiltinTable, "DeviceProfiles.txt");
  if (!rows)
    return rows.takeError();
  if (!tableFile.empty()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(tableFile, /*IsText=*/true);
    if (!file)
      return llvm::createStringError(
          file.getError(), "cannot read --device-table '" + tableFile +
                               "': " + file.getError().message());
    llvm::Expected<std::vector<DeviceRow>> extra =
        parseDeviceTable((*file)->getBuffer(), tableFile);
    if (!extra)
      return extra.takeError();
    rows->insert(rows->begin(), extra->begin(), extra->end());
  }
  for (DeviceRow &row : *rows)
    if (row.profile.name == name) {
      row.profile.hostScale = measureHostMemoryGBps() / row.profile.memoryGBps;
      return row;
    }
  std::string known;
  for (const DeviceRow &row : *rows)
    known += (known.empty() ? "" : ", ") + row.profile.name;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unknown --device '" + name +
                                     "' (known: cpu, " + known + ")");
}
