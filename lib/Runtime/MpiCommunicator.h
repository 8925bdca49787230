//===- MpiCommunicator.h - Collectives between MPI processes ----*- C++ -*-===//
//
// A Communicator for multi-process runs: every MPI rank runs one device of
// the mesh and collectives become MPI calls on per-axis-group
// sub-communicators. Built only when CMake finds MPI (TRELLIS_ENABLE_MPI);
// docs/MPI.md describes the design.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_MPICOMMUNICATOR_H
#define TRELLIS_LIB_RUNTIME_MPICOMMUNICATOR_H

#include "trellis/Runtime/Runtime.h"

#include <memory>

namespace mlir::trellis::rt {

/// Options of the MPI backend.
struct MpiOptions {
  /// Before every blocking collective, the group checks with a small
  /// non-blocking all-reduce that all members reached the same op, so a
  /// mismatch is reported instead of hanging or corrupting data.
  bool checkCollectives = true;
  /// How long a member that waits for a collective tolerates a group member
  /// that has already finished (data may still be in flight) before
  /// reporting it.
  double finishedGraceSeconds = 2.0;
  /// Devices keep virtual clocks (SessionOptions::virtualClock), timed by
  /// `link`: a blocking collective's group agrees on its latest arrival,
  /// and each asynchronous payload travels with its send time.
  bool virtualClock = false;
  LinkModel link;
};

/// The mesh position this rank runs: the position whose device id is the
/// MPI rank (the mesh's device order maps positions to ranks).
int64_t mpiLocalPosition(const MeshShape &mesh, int rank);

/// Creates the communicator; MPI must be initialised (MPI_Init_thread with
/// at least MPI_THREAD_SERIALIZED) and the world size must equal the number
/// of devices. Splits the sub-communicators of every ordered axis list of
/// up to four axes collectively, so every rank must call it.
std::unique_ptr<Communicator>
createMpiCommunicator(const MeshShape &mesh, const std::vector<SiteInfo> &sites,
                      const MpiOptions &options);

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_MPICOMMUNICATOR_H
