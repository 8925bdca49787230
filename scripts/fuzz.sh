#!/usr/bin/env bash
# Fuzzes the parser and every Trellis pass pipeline with libFuzzer
# (tools/trellis-fuzz), seeded from every .mlir in the repository (split at
# `// -----`) plus the small corpus of interesting inputs in test/Fuzz/corpus.
# Needs the sanitizer tree: scripts/build.sh --sanitize.
#
#   scripts/fuzz.sh [--time SECONDS] [--jobs J] [--advisory] [--seeds DIR]...
#
# --seeds DIR adds every .mlir under DIR to the seeds (e.g. StableHLO's own
# test programs in ../shared/peer-tests/stablehlo/cases for a long
# campaign); they are read, never copied into the repository.
#
# Every seed and corpus input is first replayed once; a failure there is a
# regression and always fails this script. Then libFuzzer explores for
# SECONDS. With --advisory (CI uses it) what the exploration finds is
# printed, input included, and does not fail the script: exploration is
# random, and a bug it happens upon that predates the change under test
# must not block that change from landing. Long campaigns run without it.
#
# libFuzzer runs in fork mode and carries on past failures; each failing
# input (crash, sanitizer report, hang over 10 s, out of memory, or a
# pipeline that succeeds on IR that fails verification) is kept under
# build-asan/fuzz-artifacts/ and triaged by re-running it: a failure with a
# frame of Trellis's own code (include/, lib/) among the six innermost of
# its stack, or the verification check of tools/trellis-fuzz, is Trellis's
# and fails this script; one inside upstream MLIR (Debian's libMLIR, e.g.
# its linalg.broadcast parser on `dimensions = ;1]`, even when a Trellis
# op's parser encloses it) is reported and not counted. The last line is `fuzz: N inputs, K Trellis failures, U upstream`.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRELLIS_BUILD_DIR:-build-asan}"
FUZZ="$BUILD_DIR/bin/trellis-fuzz"
SECONDS_LIMIT=300
JOBS=1
ADVISORY=0
EXTRA_SEEDS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) EXTRA_SEEDS+=("$2"); shift 2 ;;
    --time) SECONDS_LIMIT="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --advisory) ADVISORY=1; shift ;;
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
LOG="$BUILD_DIR/fuzz.log"
rm -rf "$SEEDS" "$ARTIFACTS"
mkdir -p "$SEEDS" "$WORK" "$ARTIFACTS"
/usr/bin/python3 - "$SEEDS" "${EXTRA_SEEDS[@]}" <<'PY'
import hashlib, pathlib, sys
out = pathlib.Path(sys.argv[1])
count = 0
paths = [p for p in sorted(pathlib.Path(".").glob("**/*.mlir"))
         if not any(part.startswith("build") for part in p.parts)]
for extra in sys.argv[2:]:
    paths += sorted(pathlib.Path(extra).glob("**/*.mlir"))
for path in paths:
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
# Replay: every seed and corpus input once, in one process, failing on the
# first crash (none of them may fail: they are the repository's own tests
# and fixed bugs).
if ! "$FUZZ" -runs=0 -timeout=10 -rss_limit_mb=4096 -max_len=16384 \
    -artifact_prefix="$ARTIFACTS/replay-" test/Fuzz/corpus "$SEEDS" \
    > "$BUILD_DIR/fuzz-replay.log" 2>&1; then
  grep -E '^trellis-fuzz: |ERROR|SUMMARY|runtime error|#[0-9]+ ' \
    "$BUILD_DIR/fuzz-replay.log" | sed -n 1,20p
  echo "fuzz: replaying the seeds and test/Fuzz/corpus failed" \
    "(log: $BUILD_DIR/fuzz-replay.log)"
  exit 1
fi
echo "fuzz: replayed $(find test/Fuzz/corpus "$SEEDS" -type f | wc -l) seeds and corpus inputs"
# The seed corpus goes first so that merging starts from it.
"$FUZZ" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$SECONDS_LIMIT" -timeout=10 -rss_limit_mb=4096 \
  -max_len=16384 -artifact_prefix="$ARTIFACTS/" \
  "$WORK" test/Fuzz/corpus "$SEEDS" > "$LOG" 2>&1 || true
tail -n 5 "$LOG"
INPUTS=$(grep -oE '^#[0-9]+' "$LOG" | tail -n 1 | tr -d '#' || true)

# Triage: re-run each kept input and look for a Trellis frame.
ours=0
upstream=0
for artifact in "$ARTIFACTS"/*; do
  [ -e "$artifact" ] || continue
  # The slow unwinder: with the fast one an out-of-memory report stops at
  # the first frame without a frame pointer (Debian's libLLVM).
  trace=$(ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" \
    timeout 60 "$FUZZ" -timeout=10 -rss_limit_mb=4096 "$artifact" 2>&1 || true)
  # The six innermost frames of the first stack: a Trellis parser that
  # merely encloses an upstream op's crashing parser is further out.
  top=$(grep -E '^ *#[0-9]+ ' <<<"$trace" | head -n 6 || true)
  if grep -q '^trellis-fuzz: ' <<<"$trace" ||
      grep -qE "(\\.\\./|$PWD/)(include|lib)/|mlir::(trellis|spmd)::" <<<"$top"; then
    ours=$((ours + 1))
    echo "fuzz: Trellis failure: $artifact"
    grep -E '^trellis-fuzz: |ERROR|SUMMARY|runtime error|#[0-9]+ ' <<<"$trace" | sed -n 1,12p
    # The input itself, so that a report read far from this machine can be
    # reproduced (`trellis-fuzz FILE`).
    echo "fuzz: input ($(wc -c < "$artifact") bytes) follows"
    head -c 4000 "$artifact" | sed 's/^/  | /'
    echo
  elif grep -qE 'ERROR|SUMMARY|deadly signal|out-of-memory|timeout' <<<"$trace"; then
    upstream=$((upstream + 1))
    echo "fuzz: upstream MLIR (not counted): $artifact:" \
      "$(grep -m 1 -E 'SUMMARY' <<<"$trace" | cut -c1-160)"
  fi
done
echo "fuzz: ${INPUTS:-0} inputs, $ours Trellis failures, $upstream upstream"
if [ "$ADVISORY" -eq 1 ] && [ "$ours" -gt 0 ]; then
  echo "fuzz: advisory run: the failures above are reported, not gating;" \
    "fix them and add each input to test/Fuzz/corpus"
  exit 0
fi
[ "$ours" -eq 0 ]
