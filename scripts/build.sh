#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), configures build/ once and
# builds everything with Ninja at -j2. Idempotent; re-running only rebuilds
# what changed. TRELLIS_BUILD_DIR overrides the build directory.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

BUILD_DIR="${TRELLIS_BUILD_DIR:-build}"
export CCACHE_BASEDIR="$PWD"
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
fi
ninja -C "$BUILD_DIR" -j2
