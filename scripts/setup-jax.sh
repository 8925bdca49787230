#!/usr/bin/env bash
# Creates the virtual environment that test/Jax/generate.py runs in: Debian's
# python3 plus pinned jax, jaxlib, numpy and ml_dtypes from PyPI.
#
#   scripts/setup-jax.sh            # create or check; prints the venv's python
#   TRELLIS_JAX_VENV=DIR scripts/setup-jax.sh
#
# The venv lives in $TRELLIS_JAX_VENV, by default $HOME/.cache/trellis-jax-venv
# (outside the source tree, shared by every checkout; .venv-jax/ in the tree
# is ignored by git too, for those who point it there). It is checked in
# well under a second when the pinned versions are already installed.
#
# Only the corpus generator needs JAX: the corpus runner (test/Jax/
# run_corpus.py), and so the test suite, reads the committed .mlir and .npy
# files with Debian's python3 and its numpy.
set -euo pipefail

# Pinned: the corpus under test/Jax was printed by these versions. JAX 0.10.2
# supports Python 3.11 (Debian 12's), prints Shardy (sdy) by default, and has
# jax.shard_map and jax.sharding.AxisType (explicit sharding).
PINS=(
  jax==0.10.2
  jaxlib==0.10.2
  numpy==2.4.6
  ml_dtypes==0.7.0
  scipy==1.17.1
  opt_einsum==3.4.0
)

VENV="${TRELLIS_JAX_VENV:-$HOME/.cache/trellis-jax-venv}"
PY=/usr/bin/python3
STAMP="$VENV/.trellis-pins"
WANT="$(printf '%s\n' "${PINS[@]}")"

if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" ]]; then
  echo "$VENV/bin/python"
  exit 0
fi

if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup-jax: installing python3-venv" >&2
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv >&2
  else
    echo "setup-jax: $PY has no venv module; run as root: apt-get update && apt-get install -y python3-venv" >&2
    exit 1
  fi
fi

if [[ ! -x "$VENV/bin/python" ]]; then
  echo "setup-jax: creating $VENV" >&2
  mkdir -p "$(dirname "$VENV")"
  "$PY" -m venv "$VENV"
fi
echo "setup-jax: installing ${PINS[*]}" >&2
"$VENV/bin/pip" install --disable-pip-version-check -q "${PINS[@]}" >&2
"$VENV/bin/python" - <<'PYEOF' >&2
import jax, jaxlib, numpy, ml_dtypes
from jax.sharding import AxisType
assert hasattr(jax, "shard_map")
print("setup-jax: jax", jax.__version__, "jaxlib", jaxlib.__version__,
      "numpy", numpy.__version__, "ml_dtypes", ml_dtypes.__version__)
PYEOF
printf '%s\n' "${PINS[@]}" > "$STAMP"
echo "$VENV/bin/python"
