//===- MpiStartup.h - Ranks agree on what they run --------------*- C++ -*-===//
//
// Under mpirun every rank loads and compiles its own copy of the program.
// Before any collective the ranks meet at agreement points where each tells
// rank 0 whether its set-up succeeded and a fingerprint of what it is about
// to run (the program, entry, mesh and options); rank 0 answers with a
// verdict. So a rank that failed (a missing file, a parse error) is
// reported and every rank stops, instead of the others waiting in their
// first collective; ranks given different programs or meshes stop with an
// error naming them instead of computing a wrong answer; and a rank that
// never arrives is named when --timeout runs out. Built only with MPI.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_MPISTARTUP_H
#define TRELLIS_LIB_EXECUTION_MPISTARTUP_H

#include <cstdint>
#include <string>

namespace mlir::trellis::exec {

/// What one rank brings to an agreement point.
struct MpiStartRecord {
  /// Whether this rank's set-up succeeded so far.
  bool ok = true;
  /// Fingerprint of what the rank runs (meaningful when ok).
  uint64_t program = 0;
  /// A short description of what the rank runs (file, entry, meshes), or
  /// of its failure; shown when ranks disagree.
  std::string summary;
  /// The errors this rank would print (when not ok); printed once when
  /// every failed rank failed alike, by each failed rank otherwise.
  std::string errors;
};

/// Every rank calls this at the agreement point `stage` (a few words, e.g.
/// "start-up"), whether or not its own set-up succeeded. Returns true on
/// every rank when all succeeded and run the same program. Otherwise the
/// errors are printed (see MpiStartRecord) and every rank returns false,
/// to end with exit status 1. A rank that does not arrive within
/// `timeoutSeconds` (0: no limit) ends the job with an error naming it.
bool mpiAgree(const char *stage, const MpiStartRecord &mine,
              double timeoutSeconds);

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_MPISTARTUP_H
