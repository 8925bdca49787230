#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), configures build/ once and
# builds everything with Ninja at -j2. Idempotent; re-running only rebuilds
# what changed. TRELLIS_BUILD_DIR overrides the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

# --sanitize: a second tree (build-asan) with AddressSanitizer and
# UndefinedBehaviorSanitizer, libFuzzer coverage and the trellis-fuzz target,
# for scripts/test.sh with TRELLIS_BUILD_DIR=build-asan and scripts/fuzz.sh
# (see .ci/run).
SANITIZE=()
DEFAULT_DIR=build
if [ "${1:-}" = "--sanitize" ]; then
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
ninja -C "$BUILD_DIR" -j2
