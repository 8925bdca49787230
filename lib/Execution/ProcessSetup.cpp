//===- ProcessSetup.cpp - Malloc tunables and re-exec for trellis-run -----===//

#include "lib/Execution/ProcessSetup.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

using namespace mlir::trellis::exec;

/// Device buffers are malloc'd by the compiled code. By default glibc gives
/// large freed blocks back to the system (blocks over the mmap threshold,
/// and the free top of a heap), so each run (and each --repeat)
/// page-faults its buffers in afresh. Keep freed memory in the process
/// instead, as a device runtime's caching allocator does: a 32 MiB mmap
/// threshold (glibc's largest on 64-bit), no trimming, and a 64 MiB pad
/// whenever a heap grows or shrinks. Seed 003's FFN in 4 row blocks (2
/// cores, 8 devices, no link model): 1.85 s per run with glibc's defaults,
/// 287 ms with the threshold and no trimming, 148 ms with the pad as well.
/// Malloc tunables in GLIBC_TUNABLES win over these.
static constexpr int kMmapThreshold = 32 << 20;
static constexpr int kTrimThreshold = std::numeric_limits<int>::max();
static constexpr int kTopPad = 64 << 20;

/// Whether the user set glibc malloc tunables (which then win over ours).
static bool userMallocTunables() {
  const char *tunables = std::getenv("GLIBC_TUNABLES");
  return tunables && std::strstr(tunables, "glibc.malloc.");
}

/// Applies them with mallopt.
void mlir::trellis::exec::keepFreedBuffers() {
#ifdef __GLIBC__
  if (userMallocTunables())
    return;
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
  mallopt(M_TOP_PAD, kTopPad);
#endif
}

/// The same settings as keepFreedBuffers, plus transparent huge pages for
/// malloc's heaps (glibc.malloc.hugetlb=1, glibc 2.35 and later), which has
/// no mallopt equivalent: glibc reads its tunables only at start-up. The
/// bench FFN (2 cores, 8 devices, ~1 GB of buffers) page-faults 190 000
/// times with 4 KiB pages, which made the first run take 1.5 s more than
/// later ones; with huge pages it faults 4 600 times, and later runs are
/// 4-7% faster too (fewer TLB misses in the matmuls).
static std::string mallocTunables() {
  return "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=" +
         std::to_string(kMmapThreshold) +
         ":glibc.malloc.trim_threshold=" + std::to_string(kTrimThreshold) +
         ":glibc.malloc.top_pad=" + std::to_string(kTopPad);
}

/// Whether transparent huge pages are in `madvise` mode, the only mode in
/// which glibc.malloc.hugetlb=1 changes anything (with `always` the kernel
/// uses them already).
static bool thpOnRequest() {
  std::FILE *file =
      std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!file)
    return false;
  char mode[128] = {};
  size_t n = std::fread(mode, 1, sizeof(mode) - 1, file);
  std::fclose(file);
  mode[n] = 0;
  return std::strstr(mode, "[madvise]") != nullptr;
}

/// Set in the re-executed process (and so inherited by anything it runs).
static constexpr const char *kNoReexec = "TRELLIS_RUN_NO_REEXEC";

/// Runs this program again with mallocTunables() added to GLIBC_TUNABLES,
/// unless: the user set malloc tunables (theirs win), TRELLIS_RUN_NO_REEXEC
/// is set (also the mark of the re-executed process), huge pages are not
/// `madvise`, an argument is a response file (@file, which may be readable
/// only once), or /proc/self/exe is not this program (started through the
/// dynamic loader, or under valgrind). MPI ranks are not re-executed (the
/// caller's test): they belong to their launcher. Returns if the exec
/// fails; the run then goes on as before.
void mlir::trellis::exec::reexecWithMallocTunables(char **argv) {
#ifdef __GLIBC__
  if (std::getenv(kNoReexec) || userMallocTunables() || !thpOnRequest())
    return;
  const char *user = std::getenv("GLIBC_TUNABLES");
  for (char **arg = argv + 1; *arg; ++arg)
    if (**arg == '@')
      return;
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (len <= 0)
    return;
  exe[len] = 0;
  const char *base = std::strrchr(exe, '/');
  base = base ? base + 1 : exe;
  const char *preload = std::getenv("LD_PRELOAD");
  if (std::strncmp(base, "ld-", 3) == 0 ||
      std::strncmp(base, "ld.so", 5) == 0 ||
      (preload && std::strstr(preload, "vgpreload")))
    return;
  std::string tunables = user && *user
                             ? std::string(user) + ":" + mallocTunables()
                             : mallocTunables();
  // Set before the exec, so that nothing can loop.
  setenv(kNoReexec, "reexecuted", 1);
  setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  execv(exe, argv);
  // The exec failed: undo, and go on in this process.
  if (user)
    setenv("GLIBC_TUNABLES", user, 1);
  else
    unsetenv("GLIBC_TUNABLES");
  unsetenv(kNoReexec);
#else
  (void)argv;
#endif
}

bool mlir::trellis::exec::reexecutedWithMallocTunables() {
  const char *mark = std::getenv(kNoReexec);
  return mark && std::strcmp(mark, "reexecuted") == 0;
}
