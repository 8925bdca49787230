//===- MpiRun.h - trellis-run with one device per MPI rank ------*- C++ -*-===//
//
// The `--backend=mpi` driver: under mpirun every rank compiles the same
// program, runs the one device whose id is its rank, reads or generates only
// its blocks of the inputs, and rank 0 assembles the outputs. Built only
// with MPI (TRELLIS_HAVE_MPI).
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_MPIRUN_H
#define TRELLIS_LIB_EXECUTION_MPIRUN_H

#include "trellis/Execution/Executor.h"

#include <string>
#include <vector>

namespace mlir::trellis::exec {

/// MPI_Init_thread (serialized); fails if MPI cannot give the thread
/// support the runtime needs. Ends the process with an error when MPI_Init
/// takes longer than `timeoutSeconds` (0: no limit).
llvm::Error mpiInit(int *argc, char ***argv, int &rank, int &size,
                    double timeoutSeconds);
void mpiFinalize();
/// Gives every rank rank 0's `value`.
void mpiBroadcastFromRank0(double &value);
/// Prints `trellis-run: error: rank R: message` and ends every rank.
[[noreturn]] void mpiFatal(const std::string &message);

struct MpiRunConfig {
  /// Per function input: a .npy path, or empty to generate it.
  std::vector<std::string> inputFiles;
  bool random = false;
  uint64_t seed = 0;
  int warmup = 0;
  int repeat = 1;
  /// Check before each collective that the group reached the same op.
  bool checkCollectives = true;
  /// Virtual clocks (the session's options say so too), timed by `link`.
  bool virtualClock = false;
  rt::LinkModel link;
};

/// With virtual clocks, on rank 0: every device's times of each timed run
/// and of the run that replays each rank's compute segments at their
/// fastest (empty: none).
struct MpiClocks {
  std::vector<std::vector<rt::DeviceTimes>> runs;
  std::vector<rt::DeviceTimes> replayed;
};

/// Runs the program; on rank 0 `outputs` receives the assembled outputs and
/// `times` the wall time (ms, slowest rank) of each timed run. Returns a
/// non-zero exit status for errors every rank detects alike (the mesh does
/// not match the number of ranks); errors of one rank end the job.
int runOnMpi(Executor &exec, const MpiRunConfig &config,
             std::vector<HostArray> &outputs, std::vector<double> &times,
             MpiClocks *clocks = nullptr);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_MPIRUN_H
