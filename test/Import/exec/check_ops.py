#!/usr/bin/env python3
"""Checks test/Import/exec/ops.mlir's results against numpy.

Usage: check_ops.py DIR   (DIR: trellis-run --save-inputs --output-dir)

Each expected value is computed here from the StableHLO specification's
semantics, independently of Trellis: integer division by zero gives -1 and
MIN / -1 gives MIN (remainders: the dividend and 0), shifts by 32 or more
(amounts unsigned) give 0 or the sign, float to int conversion truncates,
round_nearest_afz rounds halves away from zero.
"""
import math
import os
import sys

import numpy as np


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def check(name, actual, expected, rtol=1e-4, atol=1e-5):
    if actual.shape != expected.shape:
        sys.exit(f"FAIL {name}: shape {actual.shape}, expected {expected.shape}")
    if np.issubdtype(actual.dtype, np.integer):
        ok = np.array_equal(actual, expected.astype(actual.dtype))
    else:
        ok = np.allclose(actual, expected, rtol=rtol, atol=atol)
    if not ok:
        diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        i = np.unravel_index(np.argmax(diff), diff.shape)
        sys.exit(f"FAIL {name}: at {i} got {actual[i]}, expected {expected[i]}")
    print(f"ok {name}")


def int_div(num, den, remainder):
    num = num.astype(np.int64)
    den = den.astype(np.int64)
    out = np.zeros_like(num)
    for idx in np.ndindex(num.shape):
        n, d = int(num[idx]), int(den[idx])
        if d == 0:
            out[idx] = n if remainder else -1
        elif n == -2**31 and d == -1:
            out[idx] = 0 if remainder else -2**31
        else:
            q = abs(n) // abs(d) * (1 if (n < 0) == (d < 0) else -1)
            out[idx] = n - q * d if remainder else q
    return out


def to_bf16(x):
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def main(d):
    x = load(d, "arg0").astype(np.float64)
    y = load(d, "arg1").astype(np.float64)
    x32 = load(d, "arg0")

    check("out0", load(d, "out0"),
          (1 / (1 + np.exp(-x)) + np.tanh(y)) * np.exp(-np.abs(x)))

    ay1 = np.abs(y) + 1
    erf = np.vectorize(math.erf)(x)
    t8 = (erf - np.log1p(np.abs(y)) + np.sqrt(np.abs(x)) / np.sqrt(ay1)
          + np.cbrt(y) + np.expm1(x) + np.log(ay1) / ay1
          + np.sign(y) * ay1 ** x)
    check("out1", load(d, "out1"),
          t8 + np.arctan2(x, y) + np.sin(x) - np.cos(y))

    x4 = (x32 * np.float32(4)).astype(np.float64)
    afz = np.sign(x4) * np.floor(np.abs(x4) + 0.5)
    check("out2", load(d, "out2"),
          np.concatenate([np.round(x4) + np.floor(x4), afz - np.ceil(x4)], 1))

    cols = np.broadcast_to(np.arange(6), (4, 6)).astype(np.int64)
    rows = np.broadcast_to(np.arange(4)[:, None], (4, 6)).astype(np.int64)
    xi = np.trunc(x4).astype(np.int64)
    num = np.where(rows == 0, -2**31, xi)
    den = cols - 2
    check("out3", load(d, "out3"),
          np.concatenate([int_div(num, den, False), int_div(num, den, True)], 1))

    sel = np.where(x > y, x, y)
    check("out4", load(d, "out4"),
          np.minimum(np.maximum(sel, -0.5), 0.25)
          + np.maximum(x, y) - np.minimum(x, y))
    check("out5", load(d, "out5"), x.sum(1))
    check("out6", load(d, "out6"), y.max(0))
    check("out7", load(d, "out7"), np.argmax(x32, axis=1))
    check("out8", load(d, "out8"),
          np.einsum("bik,bkj->bij", x.reshape(2, 2, 6), y.reshape(2, 6, 2)))

    sx = x.T[::-1][:, 1:4:2]
    px = np.pad(sx, ((0, 0), (1, 2)), constant_values=7.0)
    check("out9", load(d, "out9"), px + np.arange(6)[:, None])

    amounts = np.broadcast_to(np.array([0, 1, 31, 32, 33, -1]), (4, 6))
    xi32 = xi.astype(np.int32)
    shl = np.zeros((4, 6), np.int64)
    sra = np.zeros((4, 6), np.int64)
    srl = np.zeros((4, 6), np.int64)
    for i in np.ndindex(4, 6):
        v, a = int(xi32[i]), int(amounts[i]) & 0xFFFFFFFF
        u = v & 0xFFFFFFFF
        wrap = lambda w: w - 2**32 if w >= 2**31 else w
        shl[i] = 0 if a >= 32 else wrap((u << a) & 0xFFFFFFFF)
        sra[i] = v >> (31 if a >= 32 else a)
        srl[i] = 0 if a >= 32 else wrap(u >> a)
    bits = shl ^ srl
    bor = ((~xi) & cols) | rows
    nz = (x4 != 0).astype(np.int64)
    bfk = (to_bf16(x32) * np.float32(1000)).astype(np.float64)
    bfi = np.trunc(bfk).astype(np.int64)
    check("out10", load(d, "out10"),
          np.concatenate([bits, bor + nz, sra + bfi], 1))


if __name__ == "__main__":
    main(sys.argv[1])
