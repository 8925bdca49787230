#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, checks that the installed
# headers compile on their own, builds examples/consumer
# against the installed Trellis CMake package, and runs a Trellis pass with
# the resulting out-of-tree tool; checks that its --help shows none of
# trellis-run's flags.
# Usage: consumer-test.sh BUILD_DIR SOURCE_DIR WORK_DIR FILECHECK
set -euo pipefail
BUILD=$1 SRC=$2 WORK=$3 FILECHECK=$4
rm -rf "$WORK"
mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$WORK/prefix" > "$WORK/install.log"
# Every installed header compiles against the installed tree alone: a
# public header that includes a private (uninstalled) one fails here.
all="$WORK/all-headers.cpp"
(cd "$WORK/prefix/include" && find trellis dialects -name '*.h' | sort |
  sed 's/.*/#include "&"/') > "$all"
[ -s "$all" ] || { echo "consumer: no headers installed" >&2; exit 1; }
clang++-22 -std=c++17 -fsyntax-only -I"$WORK/prefix/include" \
  -isystem "$(dirname "$(dirname "$FILECHECK")")/include" "$all"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -G Ninja -S "$SRC/examples/consumer" -B "$WORK/build" \
  -DTrellis_DIR="$WORK/prefix/lib/cmake/Trellis" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld "${launcher[@]}" > "$WORK/configure.log"
ninja -C "$WORK/build" > "$WORK/build.log"
"$WORK/build/consumer-opt" "$SRC/test/Consumer/input.mlir" \
  --spmd-outline-device-func=erase-host | "$FILECHECK" "$SRC/test/Consumer/input.mlir"
# Linking the execution library registers none of trellis-run's flags in
# the host compiler (they once were globals of the library); started as
# trellis-run, the same binary has them.
"$WORK/build/consumer-opt" --help > "$WORK/opt-help.txt"
if grep -q -- '--link-latency-us' "$WORK/opt-help.txt"; then
  echo "consumer: consumer-opt --help lists trellis-run's --link-latency-us" >&2
  exit 1
fi
ln -sf consumer-opt "$WORK/build/consumer-run"
"$WORK/build/consumer-run" --help > "$WORK/run-help.txt"
grep -q -- '--link-latency-us' "$WORK/run-help.txt" || {
  echo "consumer: consumer-run --help lacks trellis-run's flags" >&2
  exit 1
}
echo "consumer: OK"
