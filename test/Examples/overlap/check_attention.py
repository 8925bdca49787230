#!/usr/bin/env python3
"""Checks an attention program's result against numpy.

Usage: check_attention.py DIR [SCALE]
DIR holds trellis-run's --save-inputs (arg0..2.npy: Q, K, V of S x D) and
--output-dir (out0.npy). The expected value, softmax(Q K^T / sqrt(D)) V
row by row, is computed here in float64 with the maximum subtracted first.
"""
import os
import sys

import numpy as np


def main():
    d = sys.argv[1]
    q, k, v = (np.load(os.path.join(d, f"arg{i}.npy")).astype(np.float64)
               for i in range(3))
    got = np.load(os.path.join(d, "out0.npy"))
    scores = q @ k.T / np.sqrt(q.shape[1])
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    want = (p / p.sum(axis=1, keepdims=True)) @ v
    err = np.abs(got - want).max()
    ok = got.shape == want.shape and np.isfinite(got).all() and \
        np.allclose(got, want, rtol=1e-4, atol=1e-5 * np.abs(want).max())
    print(f"{os.path.basename(d)}: {got.shape}, max abs error {err:.2e}: "
          f"{'ok' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
