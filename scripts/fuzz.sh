#!/usr/bin/env bash
# Fuzzes the parser and every Trellis pass pipeline with libFuzzer
# (tools/trellis-fuzz), seeded from every .mlir in the repository (split at
# `// -----`) plus the small corpus of interesting inputs in test/Fuzz/corpus.
# Needs the sanitizer tree: scripts/build.sh --sanitize.
#
#   scripts/fuzz.sh [--runs N | --time SECONDS] [--jobs J]
#
# Exits non-zero on the first crash, sanitizer report, hang (10 s) or pass
# that succeeds on IR that then fails verification; the input is kept under
# build-asan/fuzz-artifacts/. A crash in upstream MLIR reproduces with
# Debian's mlir-opt on the same input and pass (see docs/Testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRELLIS_BUILD_DIR:-build-asan}"
FUZZ="$BUILD_DIR/bin/trellis-fuzz"
LIMIT=(-runs=100000)
JOBS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) LIMIT=(-runs="$2"); shift 2 ;;
    --time) LIMIT=(-max_total_time="$2"); shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ ! -x "$FUZZ" ]; then
  echo "fuzz.sh: $FUZZ is missing; run scripts/build.sh --sanitize" >&2
  exit 2
fi
SEEDS="$BUILD_DIR/fuzz-seeds"
WORK="$BUILD_DIR/fuzz-corpus"
ARTIFACTS="$BUILD_DIR/fuzz-artifacts"
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$WORK" "$ARTIFACTS"
/usr/bin/python3 - "$SEEDS" <<'PY'
import hashlib, pathlib, sys
out = pathlib.Path(sys.argv[1])
count = 0
for path in sorted(pathlib.Path(".").glob("**/*.mlir")):
    if any(part.startswith("build") for part in path.parts):
        continue
    for piece in path.read_text(errors="replace").split("// -----"):
        data = piece.encode()
        if 0 < len(data) <= 16384:
            name = hashlib.sha1(data).hexdigest()[:16] + ".mlir"
            (out / name).write_bytes(data)
            count += 1
print(f"fuzz.sh: {count} seeds", file=sys.stderr)
PY
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
PARALLEL=()
if [ "$JOBS" -gt 1 ]; then
  PARALLEL=(-jobs="$JOBS" -workers="$JOBS")
fi
"$FUZZ" "${LIMIT[@]}" "${PARALLEL[@]}" -timeout=10 -rss_limit_mb=4096 \
  -max_len=16384 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/" \
  "$WORK" test/Fuzz/corpus "$SEEDS"
