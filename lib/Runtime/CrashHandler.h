//===- CrashHandler.h - Reports of devices that crash -----------*- C++ -*-===//
//
// With SessionOptions::catchSignals, a device that crashes (SIGSEGV,
// SIGFPE, SIGBUS, SIGILL) is reported by name and the process ends with
// status 1, instead of dying silently.
//
//===----------------------------------------------------------------------===//

#ifndef TRELLIS_LIB_RUNTIME_CRASHHANDLER_H
#define TRELLIS_LIB_RUNTIME_CRASHHANDLER_H

namespace mlir::trellis::rt {

/// Installs the crash handlers (once per process).
void installCrashHandlers();

} // namespace mlir::trellis::rt

#endif // TRELLIS_LIB_RUNTIME_CRASHHANDLER_H
