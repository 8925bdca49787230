//===- CrashHandler.cpp - Reports of devices that crash -------------------===//

#include "lib/Runtime/CrashHandler.h"
#include "trellis/Runtime/Runtime.h"

#include <csignal>
#include <cstring>
#include <unistd.h>

using namespace mlir::trellis::rt;

/// Writes `text` to stderr with async-signal-safe calls only.
static void writeStderr(const char *text) {
  size_t len = std::strlen(text);
  while (len > 0) {
    ssize_t n = ::write(2, text, len);
    if (n <= 0)
      return;
    text += n;
    len -= static_cast<size_t>(n);
  }
}

static void onDeviceCrash(int signal) {
  const char *what = signal == SIGFPE ? "SIGFPE (arithmetic error, such as an "
                                        "integer division by zero)"
                     : signal == SIGSEGV ? "SIGSEGV (invalid memory access)"
                     : signal == SIGBUS  ? "SIGBUS (invalid memory access)"
                                         : "SIGILL (illegal instruction)";
  char number[32];
  DeviceContext *device = currentDevice();
  writeStderr("trellis-run: error: ");
  if (device) {
    int64_t id = device->deviceId;
    int len = 0;
    char digits[32];
    do {
      digits[len++] = static_cast<char>('0' + id % 10);
      id /= 10;
    } while (id > 0 && len < 30);
    for (int i = 0; i < len; ++i)
      number[i] = digits[len - 1 - i];
    number[len] = '\0';
    writeStderr("device ");
    writeStderr(number);
    writeStderr(" crashed with ");
  } else {
    writeStderr("the process crashed with ");
  }
  writeStderr(what);
  writeStderr(device ? " in its compiled code\n" : "\n");
  ::_exit(1);
}

void mlir::trellis::rt::installCrashHandlers() {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = onDeviceCrash;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGFPE, SIGBUS, SIGILL})
    sigaction(signal, &action, nullptr);
}
