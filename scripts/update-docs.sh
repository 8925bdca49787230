#!/usr/bin/env bash
# Regenerates the ODS-derived docs and copies them into docs/generated/.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRELLIS_BUILD_DIR:-build}"
ninja -C "$BUILD_DIR" trellis-doc
rm -rf docs/generated
cp -r "$BUILD_DIR/generated/docs" docs/generated
echo "docs/generated updated"
