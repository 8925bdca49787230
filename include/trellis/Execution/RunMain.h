//===- RunMain.h - The trellis-run driver -----------------------*- C++ -*-===//

#ifndef TRELLIS_EXECUTION_RUNMAIN_H
#define TRELLIS_EXECUTION_RUNMAIN_H

namespace mlir::trellis::exec {

/// Parses trellis-run's command line, compiles the program, runs it and
/// prints or writes the results. Returns the process exit code.
int runMain(int argc, char **argv);

} // namespace mlir::trellis::exec

#endif // TRELLIS_EXECUTION_RUNMAIN_H
