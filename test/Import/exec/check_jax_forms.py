#!/usr/bin/env python3
"""Checks the results of the programs in JAX's printed forms (calls in
manual computations, defaulted attributes, unsigned signatures, placement
custom calls, unchecked variance, constraints in callees) against numpy, computed here from the
programs' meaning, independently of Trellis.

Usage: check_jax_forms.py PROGRAM DIR  (DIR: trellis-run --output-dir with
--save-inputs)
"""
import sys

import numpy as np

program, d = sys.argv[1], sys.argv[2]


def arg(k):
    return np.load(f"{d}/arg{k}.npy")


def out(k):
    return np.load(f"{d}/out{k}.npy")


def relu(v):
    return np.maximum(v, 0)


want = []
if program == "manual-calls":
    # x [8, 4] split in 4 row blocks over "x": relu of each block, and the
    # sum over the devices of relu(block) * 2 (an all_reduce in a callee).
    x = arg(0)
    want.append(relu(x))
    want.append((relu(x) * 2).reshape(4, 2, 4).sum(axis=0))
elif program == "scatter-default":
    # operand [8, 4]; indices [1, 3] with the index vector in dimension 0
    # (index_vector_dim left out: 0); rows idx[k] += updates[k].
    x, idx, upd = arg(0), arg(1), arg(2)
    r = x.copy()
    for k in range(3):
        i = int(idx[0, k])
        if 0 <= i < 8:
            r[i] += upd[k]
    want.append(r)
elif program == "unsigned":
    # a uint8 image (saved as int8: the same bits) -> float32 sums per row,
    # and x + 100 in uint8 (wrapping), returned widened.
    x = arg(0).view(np.uint8)
    want.append(x.astype(np.float32).sum(axis=1))
    want.append((x + np.uint8(100)).astype(np.int16))
    want.append(np.maximum(x, np.uint8(128)).astype(np.int16))
elif program == "placement":
    x = arg(0)
    want.append(np.exp(x) * 2)
elif program == "variance":
    # all_gather of 4 blocks, leaving with a replicated out sharding.
    x = arg(0)
    want.append(x * 3)
elif program == "callee-constraint":
    x = arg(0)
    want.append(x * np.sin(x) + 1)
else:
    sys.exit(f"unknown program {program}")

bad = []
for k, w in enumerate(want):
    a = out(k)
    if a.shape != w.shape:
        bad.append(f"out{k}: shape {a.shape}, expected {w.shape}")
    elif np.issubdtype(w.dtype, np.integer):
        if not np.array_equal(a.astype(np.int64), w.astype(np.int64)):
            bad.append(f"out{k}: {a} != {w}")
    elif not np.allclose(a, w, rtol=1e-5, atol=1e-5):
        bad.append(f"out{k}: {a} != {w}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print(f"{program}: {len(want)} results equal numpy")
