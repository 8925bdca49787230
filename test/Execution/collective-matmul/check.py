#!/usr/bin/env python3
"""Checks collective-matmul runs against numpy and against each other.

Usage: check.py PROGRAM REF_DIR DIR...
REF_DIR holds the un-rewritten run's outputs and its inputs (--save-inputs);
every DIR holds the outputs of the same program after a rewrite. Each output
is compared with the value numpy computes from the inputs, and with the
un-rewritten run's output.
"""
import os
import sys

import numpy as np


def load(d, name):
    return np.load(os.path.join(d, name + ".npy")).astype(np.float64)


def gelu_tanh(h):
    return 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))


def patterns(a):
    """The six outputs of Inputs/patterns-*.mlir."""
    (x, w, b, r2, c, l3, init, d, l4, l5, r5, l6, r6) = a
    return [x @ w, b @ r2, init + l3 @ c, l4 @ d, l5 @ r5, l6 @ r6]


def ffn(a):
    x, wu, wd = a
    return [gelu_tanh(x @ wu) @ wd]


def matmul(a):
    return [a[0] @ a[1]]


PROGRAMS = {"patterns": patterns, "ffn": ffn, "matmul": matmul}


def main():
    program, ref, others = sys.argv[1], sys.argv[2], sys.argv[3:]
    args = []
    while os.path.exists(os.path.join(ref, f"arg{len(args)}.npy")):
        args.append(load(ref, f"arg{len(args)}"))
    expected = PROGRAMS[program](args)
    for d in [ref] + others:
        for k, want in enumerate(expected):
            got = load(d, f"out{k}")
            if got.shape != want.shape:
                print(f"FAIL: {d}/out{k} has shape {got.shape}, expected {want.shape}")
                return 1
            if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
                err = np.abs(got - want).max()
                print(f"FAIL: {d}/out{k} differs from numpy (max abs error {err})")
                return 1
            if d != ref and not np.allclose(got, load(ref, f"out{k}"), rtol=1e-5, atol=1e-5):
                print(f"FAIL: {d}/out{k} differs from the un-rewritten run")
                return 1
    print(f"OK {program}: {len(expected)} outputs, {len(others) + 1} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
