//===- ShardingDiagram.cpp - Blocks of an array over the mesh -------------===//

#include "lib/Execution/ShardingDiagram.h"

#include <algorithm>
#include <map>
#include <sstream>

using namespace mlir::trellis::exec;

namespace {

/// `0:4` for the index range [offset, offset + size).
std::string range(int64_t offset, int64_t size) {
  return std::to_string(offset) + ":" + std::to_string(offset + size);
}

/// `dev 0,1,4` (runs of three or more as `0-3`).
std::string deviceList(std::vector<int64_t> devices) {
  std::sort(devices.begin(), devices.end());
  std::string text = devices.size() == 1 ? "dev " : "devs ";
  for (size_t i = 0; i < devices.size();) {
    size_t j = i;
    while (j + 1 < devices.size() && devices[j + 1] == devices[j] + 1)
      ++j;
    if (i)
      text += ",";
    text += std::to_string(devices[i]);
    if (j >= i + 2)
      text += "-" + std::to_string(devices[j]);
    else if (j == i + 1)
      text += "," + std::to_string(devices[j]);
    i = j + 1;
  }
  return text;
}

std::string centered(const std::string &text, size_t width) {
  size_t left = (width - text.size()) / 2;
  return std::string(left, ' ') + text +
         std::string(width - text.size() - left, ' ');
}

} // namespace

std::string
mlir::trellis::exec::drawBlocks(const std::vector<int64_t> &shape,
                                const std::vector<DeviceBlock> &blocks) {
  // Devices per distinct block (its offset), blocks in index order.
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  std::map<std::vector<int64_t>, std::vector<int64_t>> sizes;
  for (const DeviceBlock &block : blocks) {
    holders[block.offset].push_back(block.device);
    sizes[block.offset] = block.shape;
  }
  std::ostringstream os;
  const size_t rank = shape.size();
  if (rank == 0 || rank > 2) {
    for (const auto &[offset, devices] : holders) {
      os << "  [";
      for (size_t d = 0; d < rank; ++d)
        os << (d ? ", " : "") << range(offset[d], sizes[offset][d]);
      os << "] " << deviceList(devices) << "\n";
    }
    return os.str();
  }
  // A grid: the distinct offsets along each dimension.
  std::vector<std::vector<int64_t>> starts(2);
  for (const auto &[offset, devices] : holders)
    for (size_t d = 0; d < rank; ++d)
      if (std::find(starts[d].begin(), starts[d].end(), offset[d]) ==
          starts[d].end())
        starts[d].push_back(offset[d]);
  for (auto &s : starts)
    std::sort(s.begin(), s.end());
  if (rank == 1)
    starts[1] = {0};
  const size_t rows = rank == 1 ? 1 : starts[0].size();
  const size_t cols = rank == 1 ? starts[0].size() : starts[1].size();
  // Two lines per cell: the index range and the devices.
  std::vector<std::vector<std::pair<std::string, std::string>>> cells(
      rows, std::vector<std::pair<std::string, std::string>>(cols));
  size_t width = 0;
  for (const auto &[offset, devices] : holders) {
    const std::vector<int64_t> &size = sizes[offset];
    size_t r = 0, c = 0;
    std::string where;
    if (rank == 1) {
      c = std::find(starts[0].begin(), starts[0].end(), offset[0]) -
          starts[0].begin();
      where = "[" + range(offset[0], size[0]) + "]";
    } else {
      r = std::find(starts[0].begin(), starts[0].end(), offset[0]) -
          starts[0].begin();
      c = std::find(starts[1].begin(), starts[1].end(), offset[1]) -
          starts[1].begin();
      where = "[" + range(offset[0], size[0]) + ", " +
              range(offset[1], size[1]) + "]";
    }
    cells[r][c] = {where, deviceList(devices)};
    width = std::max({width, where.size(), cells[r][c].second.size()});
  }
  width += 2;
  std::string rule = "+";
  for (size_t c = 0; c < cols; ++c)
    rule += std::string(width, '-') + "+";
  os << "  " << rule << "\n";
  for (size_t r = 0; r < rows; ++r) {
    for (int line = 0; line < 2; ++line) {
      os << "  |";
      for (size_t c = 0; c < cols; ++c)
        os << centered(line ? cells[r][c].second : cells[r][c].first, width)
           << "|";
      os << "\n";
    }
    os << "  " << rule << "\n";
  }
  return os.str();
}
