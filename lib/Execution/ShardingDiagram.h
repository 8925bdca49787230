//===- ShardingDiagram.h - Blocks of an array over the mesh -----*- C++ -*-===//
//
// Private to lib/Execution: draws which devices hold which block of an
// array, for trellis-run --show-shardings.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_SHARDINGDIAGRAM_H
#define TRELLIS_LIB_EXECUTION_SHARDINGDIAGRAM_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::trellis::exec {

/// One device's block of an array.
struct DeviceBlock {
  int64_t device = 0;
  std::vector<int64_t> offset, shape;
};

/// The array of global `shape` cut into the blocks `blocks` lists (one per
/// device), drawn as a table: for a 1-D or 2-D array a grid of its blocks
/// (rows along dimension 0, columns along dimension 1), each cell naming
/// its index range and the devices that hold it; for other ranks one line
/// per distinct block.
std::string drawBlocks(const std::vector<int64_t> &shape,
                       const std::vector<DeviceBlock> &blocks);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_SHARDINGDIAGRAM_H
