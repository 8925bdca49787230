#!/usr/bin/env python3
"""Inputs for and checks of top_k.mlir.

Usage: check_top_k.py make DIR | check DIR

The expected picks come from Python's stable sort of each row by an order
written here from the CHLO description (NaN with its sign bit clear above
+inf, with it set below -inf; -0 below +0; equal elements by index), not
from the importer's integer keys.
"""
import math
import os
import struct
import sys

import numpy as np


def bf16_bits(values):
    f = np.asarray(values, np.float32).view(np.uint32)
    return (f >> 16).astype(np.uint16)


def widen_bf16(raw):
    return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


def rank(v):
    """Sort key: larger means earlier in top_k's order (before the index)."""
    v = float(v)
    negative = math.copysign(1.0, v) < 0
    if math.isnan(v):
        return (-2, 0.0, 0) if negative else (2, 0.0, 0)
    return (0, v, 0 if negative else 1)


def expected(row, k):
    order = sorted(range(len(row)), key=lambda i: (tuple(-c for c in rank(row[i])), i))
    return order[:k]


def make(d):
    rng = np.random.default_rng(7)
    x = np.round(rng.uniform(-2, 2, size=(8, 6)), 1).astype(np.float32)
    specials = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0]
    x[0] = [1.5, 1.5, 1.5, 0.5, 1.5, -1.0]             # ties: indices 0, 1, 2
    x[1] = [-0.0, 0.0, -0.0, -1.0, 0.0, -2.0]          # +0 before -0
    x[2] = [np.nan, 1.0, np.inf, -np.nan, 3.0, -np.inf]
    x[3] = [-np.inf, -np.nan, -np.inf, -5.0, -np.inf, -np.nan]
    x[4] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]              # the best in the last shard
    x[5] = [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    x[2][3] = np.copysign(np.nan, -1.0)
    x[3][1] = np.copysign(np.nan, -1.0)
    x[3][5] = np.copysign(np.nan, -1.0)
    np.save(os.path.join(d, "x.npy"), x)
    y = np.array([0.25, 3.0, -1.0, 3.0, np.nan, 2.0], np.float32)
    raw = bf16_bits(y)
    np.save(os.path.join(d, "y.npy"), raw.view("V2"))
    z = rng.integers(-5, 5, size=(4, 5)).astype(np.int32)
    z[0] = [2, 2, 2, 2, 2]
    z[1] = [np.iinfo(np.int32).min, np.iinfo(np.int32).max, 0, -1, np.iinfo(np.int32).max]
    np.save(os.path.join(d, "z.npy"), z)
    del specials


def same(a, b):
    """Equal, NaN included, sign bits included."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and all(
        (math.isnan(p) and math.isnan(q) and math.copysign(1, p) == math.copysign(1, q))
        or (p == q and math.copysign(1, p) == math.copysign(1, q))
        for p, q in zip(a.ravel(), b.ravel()))


def check(d):
    load = lambda name: np.load(os.path.join(d, name + ".npy"))
    x = load("arg0")
    y = widen_bf16(load("arg1"))
    z = load("arg2")
    cases = [(x, 3, load("out0"), load("out1")),
             (y[None, :], 2, widen_bf16(load("out2"))[None, :], load("out3")[None, :]),
             (z, 5, load("out4"), load("out5"))]
    for n, (data, k, values, indices) in enumerate(cases):
        for r, row in enumerate(data):
            picks = expected(row, k)
            if list(indices[r]) != picks:
                sys.exit(f"case {n} row {r}: indices {list(indices[r])}, expected {picks} of {list(row)}")
            if not same(values[r], row[picks]):
                sys.exit(f"case {n} row {r}: values {list(values[r])}, expected {list(row[picks])}")
    print("OK top_k")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
