# -*- Python -*-
# lit configuration for Trellis.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TRELLIS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "Consumer", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.trellis_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%trellis_src", config.trellis_src_root))
config.substitutions.append(("%python", config.python_executable))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.trellis_tools_dir, config.llvm_tools_dir]
tools = ["trellis-opt", "trellis-run", "not", "count", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# trellis-run re-executes itself with huge-page malloc tunables only when
# transparent huge pages are in madvise mode.
try:
    with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
        if "[madvise]" in f.read():
            config.available_features.add("thp-madvise")
except OSError:
    pass

# Sanitizer builds (scripts/build.sh --sanitize): their instrumentation and
# allocator change how much CPU time code takes, and unevenly between
# threads, so tests of the CPU-time model of virtual clocks skip them.
if config.trellis_sanitizer:
    config.available_features.add("sanitizer")

if config.trellis_has_mpi:
    config.available_features.add("mpi")
    # As root (CI), OpenMPI refuses to start without these; more ranks than
    # cores need --oversubscribe. Shared memory between ranks is used as on
    # one host.
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    config.substitutions.append(
        ("%mpirun", config.mpiexec + " --oversubscribe --bind-to none"))
