#!/usr/bin/env bash
# Links build/bin/trellis-run-static: trellis-run with LLVM and MLIR linked in
# from Debian's static libraries (libMLIR*.a, libLLVM*.a), so that it runs on
# an x86-64 Linux machine that has no LLVM 22 installed, such as a borrowed
# many-core machine for bench/ (see bench/README.md). Open MPI, zlib, zstd
# and the C++ runtime stay dynamic: `ldd` on the result lists what the other
# machine needs; with --bundle DIR the script also copies the Open MPI
# libraries there (point LD_LIBRARY_PATH at DIR on the other machine).
#
# Run after scripts/build.sh. The result is large (about 170 MB; xz makes it
# about 32 MB) because the MLIR dialect registry pulls in most of MLIR.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRELLIS_BUILD_DIR:-build}"
bundle=""
if [ "${1:-}" = "--bundle" ]; then
  bundle="${2:?--bundle needs a directory}"
fi

link=$(ninja -C "$BUILD_DIR" -t commands bin/trellis-run | tail -1)
case "$link" in
  *libMLIR.so*) ;;
  *) echo "error: unexpected link command for trellis-run:" >&2
     echo "$link" >&2; exit 1 ;;
esac
llvm_lib=/usr/lib/llvm-22/lib
static="-Wl,--start-group $(ls $llvm_lib/libMLIR*.a | grep -v -e MlirOptMain -e CAPI | tr '\n' ' ')"
static+="$(ls $llvm_lib/libLLVM*.a | tr '\n' ' ') -Wl,--end-group"
# Swap the shared LLVM/MLIR libraries for the static archives, write to
# trellis-run-static, drop unused sections and symbols.
link=$(sed -e "s#[^ ]*/libMLIR\.so[^ ]*#${static//#/\\#}#" \
           -e "s#[^ ]*/libLLVM\.so[^ ]*##" \
           -e "s#-o bin/trellis-run #-o bin/trellis-run-static #" <<<"$link")
link="${link#: && }"
link="${link% && :}"
link+=" -Wl,--gc-sections -s -lz /usr/lib/x86_64-linux-gnu/libzstd.so.1"
(cd "$BUILD_DIR" && eval "$link")
echo "linked $BUILD_DIR/bin/trellis-run-static ($(du -h "$BUILD_DIR/bin/trellis-run-static" | cut -f1))"

if [ -n "$bundle" ]; then
  mkdir -p "$bundle"
  ldd "$BUILD_DIR/bin/trellis-run-static" |
    awk '/=> \// {print $3}' |
    grep -E 'libmpi|libopen-|libhwloc|libevent|libudev' |
    xargs -r -I{} cp -L {} "$bundle/"
  echo "copied the Open MPI libraries to $bundle"
fi
