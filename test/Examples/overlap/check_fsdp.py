#!/usr/bin/env python3
"""Checks the FSDP MLP's output against numpy.

Usage: check_fsdp.py DIR

DIR holds arg0.npy (x), arg1.npy (the stacked weights) and out0.npy from
trellis-run --save-inputs. The expected output is h = x; h = relu(h @ W[l])
for every layer, in float64.
"""
import sys

import numpy as np


def main():
    d = sys.argv[1]
    x = np.load(f"{d}/arg0.npy").astype(np.float64)
    w = np.load(f"{d}/arg1.npy").astype(np.float64)
    out = np.load(f"{d}/out0.npy")
    h = x
    for layer in w:
        h = np.maximum(h @ layer, 0.0)
    err = float(np.abs(out - h).max() / max(1.0, np.abs(h).max()))
    ok = out.shape == h.shape and err < 1e-5 and np.count_nonzero(h) > 0
    print(f"{len(w)} layers {list(out.shape)}, relative error {err:.2e}: "
          f"{'ok' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
