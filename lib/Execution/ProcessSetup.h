//===- ProcessSetup.h - How trellis-run sets up its process -----*- C++ -*-===//
//
// Device buffers are malloc'd by the compiled code; trellis-run keeps freed
// ones in the process and, where it helps, runs itself again with glibc
// malloc tunables for huge pages (docs/Design.md). ProcessSetup.cpp says
// why and what was measured.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_EXECUTION_PROCESSSETUP_H
#define TRELLIS_LIB_EXECUTION_PROCESSSETUP_H

namespace mlir::trellis::exec {

/// Keeps freed memory in the process (mallopt), unless the user set glibc
/// malloc tunables.
void keepFreedBuffers();
/// Runs this program again (execv of /proc/self/exe with `argv`) with huge
/// pages and keepFreedBuffers' settings as glibc malloc tunables, where
/// that is safe and changes anything; returns if it does not.
void reexecWithMallocTunables(char **argv);
/// Whether this process is the one reexecWithMallocTunables started.
bool reexecutedWithMallocTunables();

} // namespace mlir::trellis::exec

#endif // TRELLIS_LIB_EXECUTION_PROCESSSETUP_H
