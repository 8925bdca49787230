#!/usr/bin/env python3
"""Checks dynamic-index.mlir's results against numpy: StableHLO clamps
each start index so that the slice fits the operand.

Usage: check_dynamic_index.py DIR  (a trellis-run --output-dir with
--save-inputs)
"""
import sys

import numpy as np

d = sys.argv[1]
x, i, j = (np.load(f"{d}/arg{k}.npy") for k in range(3))
i, j = int(i), int(j)


def clamp(v, extent, size):
    return min(max(v, 0), extent - size)


want = []
a, b = clamp(i, 4, 2), clamp(j, 6, 3)
want.append(x[a:a + 2, b:b + 3])
a = clamp(i, 4, 1)
want.append(x[a:a + 1, :])
up = x.copy()
a, b = clamp(j, 4, 2), clamp(i, 6, 2)
up[a:a + 2, b:b + 2] = -1.0
want.append(up)
bad = [k for k, w in enumerate(want)
       if not np.array_equal(np.load(f"{d}/out{k}.npy"), w)]
if bad:
    print(f"i={i} j={j}: results {bad} differ from numpy")
    sys.exit(1)
print(f"{len(want)} results equal numpy (i={i}, j={j})")
