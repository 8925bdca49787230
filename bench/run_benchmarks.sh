#!/usr/bin/env bash
# Prints the executor's benchmark tables (issue 3): the per-device matmul
# kernel against Eigen's own GEMM, and collective bus bandwidth against
# memcpy. Run after scripts/build.sh. Figures are machine-dependent; the
# ratios are measured side by side in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRELLIS_BUILD_DIR:-build}"
echo "## Matmul kernel (trellis-run path vs Eigen GEMM, median of 10)"
echo
echo "| shape | trellis-run | Eigen | ratio | check |"
echo "|---|---|---|---|---|"
"$BUILD_DIR/bench/trellis-bench-matmul" 1024 10
echo
echo "## Collectives (bus bandwidth vs memcpy of the same bytes)"
echo
"$BUILD_DIR/bench/trellis-bench-collectives" 8
if [ -x "$BUILD_DIR/bench/trellis-bench-mpi" ]; then
  echo
  echo "## MPI backend vs raw MPI (bench/results/mpi.md)"
  echo
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun --bind-to none -np 2 "$BUILD_DIR/bench/trellis-bench-mpi" 20
fi
