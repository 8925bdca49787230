#!/usr/bin/env bash
# Runs the whole test suite of a built tree: lit tests (as one ctest test),
# gtest unit tests, the out-of-tree consumer and the docs check.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRELLIS_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2 "$@"
