//===- Gspmd.h - GSPMD sharding strings and the mesh behind them -*- C++
//-*-===//
//
// Before Shardy, JAX printed shardings as GSPMD strings:
// `mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"`. They
// name no axes: a tile assignment lists, per tensor dimension, how many
// pieces it is cut into and which device holds each. inferGspmdMesh finds
// one mesh of named axes that expresses every tile assignment of a module
// as a Trellis sharding.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_IMPORT_GSPMD_H
#define TRELLIS_LIB_IMPORT_GSPMD_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::trellis {

/// One parsed `mhlo.sharding` string.
struct GspmdSharding {
  /// `{replicated}` (and `{maximal device=N}`: one device's copy is the
  /// whole value, so it computes like a replicated one).
  bool replicated = false;
  /// Pieces per tensor dimension (without the replication dimension).
  SmallVector<int64_t> tiles;
  /// Copies of each piece (`last_tile_dim_replicate`), 1 otherwise.
  int64_t copies = 1;
  /// The device holding each piece, row-major over tiles then copies.
  SmallVector<int64_t> devices;
};

/// Parses `text`; emits an error naming what is not supported (manual
/// shardings, tuples, subgroup kinds other than replication).
FailureOr<GspmdSharding>
parseGspmdSharding(StringRef text,
                   function_ref<InFlightDiagnostic()> emitError);

/// A mesh of prime-sized axes `x0, x1, ...` (devices in row-major order)
/// and, per sharding, the axes splitting each tensor dimension.
struct GspmdMesh {
  SmallVector<int64_t> axisSizes;
  SmallVector<SmallVector<SmallVector<int64_t>>> dimAxes; // [sharding][dim]
};

/// Finds a mesh of `devices` devices on which every tiled sharding of
/// `shardings` is a split of tensor dimensions over mesh axes. Fails when
/// some tile assignment is no such split (a device order no mesh makes).
FailureOr<GspmdMesh>
inferGspmdMesh(int64_t devices, ArrayRef<GspmdSharding> shardings,
               function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::trellis

#endif // TRELLIS_LIB_IMPORT_GSPMD_H
