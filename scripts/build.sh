#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), configures build/ once and
# builds with Ninja at -j2: everything, or only the targets named
# (e.g. `scripts/build.sh trellis-run`). Idempotent;
# re-running only rebuilds what changed. TRELLIS_BUILD_DIR overrides the
# build directory. Prints where the time went.
#
#   scripts/build.sh [--sanitize] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)

scripts/setup.sh
t1=$(date +%s)

# --sanitize: a second tree (build-asan) with AddressSanitizer and
# UndefinedBehaviorSanitizer, libFuzzer coverage and the trellis-fuzz target,
# for scripts/test.sh with TRELLIS_BUILD_DIR=build-asan and scripts/fuzz.sh
# (see .ci/run).
SANITIZE=()
DEFAULT_DIR=build
if [ "${1:-}" = "--sanitize" ]; then
  shift
  SANITIZE=(-DLLVM_USE_SANITIZER="Address;Undefined"
            "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
            -DTRELLIS_ENABLE_BENCHMARKS=OFF -DTRELLIS_ENABLE_FUZZER=ON)
  DEFAULT_DIR=build-asan
fi

# TRELLIS_WERROR=ON: warnings in the project's code are errors (.ci/run).
WERROR="${TRELLIS_WERROR:-}"

BUILD_DIR="${TRELLIS_BUILD_DIR:-$DEFAULT_DIR}"
export CCACHE_BASEDIR="$PWD"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
# Sources compiled against the precompiled header (cmake/TrellisPCH.h) are
# cached only with these.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" "${SANITIZE[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir ${WERROR:+-DTRELLIS_WERROR=$WERROR}
elif [ -n "$WERROR" ]; then
  cmake -B "$BUILD_DIR" -DTRELLIS_WERROR="$WERROR" > /dev/null
fi
t2=$(date +%s)
ninja -C "$BUILD_DIR" -j2 "$@"
t3=$(date +%s)
echo "build.sh: setup $((t1 - t0)) s, configure $((t2 - t1)) s," \
  "compile and link $((t3 - t2)) s (${*:-all targets}, $BUILD_DIR)"
