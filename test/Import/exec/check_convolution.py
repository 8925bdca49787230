#!/usr/bin/env python3
"""Checks test/Import/exec/convolution.mlir's results against numpy.

Usage: check_convolution.py DIR   (DIR: trellis-run --save-inputs --output-dir)

Each convolution is computed here from the StableHLO specification,
independently of Trellis: the input dilated (lhs_dilation - 1 zeros between
elements) and padded (a negative padding cuts), the kernel reversed where
window_reversal says, then for each output feature of each group a sum over
kernel positions of strided slices of the input times kernel entries
(rhs_dilation apart), in float64 or int64 (wrapped to int32).
"""
import os
import sys

import numpy as np


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def conv(lhs, rhs, dims, stride=None, pad=None, lhs_dil=None, rhs_dil=None,
         reverse=None, fg=1, bg=1):
    """dims: ((batch, feature, spatial...) of the input, (in, out,
    spatial...) of the kernel, (batch, feature, spatial...) of the output)."""
    (ib, if_, *isp), (ki, ko, *ksp), (ob, of, *osp) = dims
    s = len(isp)
    stride = stride or [1] * s
    pad = pad or [(0, 0)] * s
    lhs_dil = lhs_dil or [1] * s
    rhs_dil = rhs_dil or [1] * s
    reverse = reverse or [False] * s
    wide = np.int64 if np.issubdtype(lhs.dtype, np.integer) else np.float64
    x = np.transpose(lhs, [ib, if_] + isp).astype(wide)  # N, C, S...
    w = np.transpose(rhs, [ko, ki] + ksp).astype(wide)   # O, I, K...
    n, c = x.shape[:2]
    dilated = np.zeros((n, c) + tuple((e - 1) * d + 1 for e, d in
                                      zip(x.shape[2:], lhs_dil)), wide)
    dilated[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in lhs_dil)] = x
    for i, (lo, hi) in enumerate(pad):
        axis = 2 + i
        if lo < 0:
            dilated = np.take(dilated, range(-lo, dilated.shape[axis]), axis)
        if hi < 0:
            dilated = np.take(dilated, range(0, dilated.shape[axis] + hi), axis)
        widths = [(0, 0)] * dilated.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        dilated = np.pad(dilated, widths)
    for i, r in enumerate(reverse):
        if r:
            w = np.flip(w, 2 + i)
    o = w.shape[0]
    ksz = w.shape[2:]
    out_sp = [(p - ((k - 1) * rd + 1)) // st + 1
              for p, k, rd, st in zip(dilated.shape[2:], ksz, rhs_dil, stride)]
    groups = max(fg, bg)
    out = np.zeros((n // bg, o) + tuple(out_sp), wide)
    for f in range(o):
        g = f // (o // groups)
        xs = dilated
        if fg > 1:
            xs = xs[:, g * (c // fg):(g + 1) * (c // fg)]
        if bg > 1:
            xs = xs[g * (n // bg):(g + 1) * (n // bg)]
        for k in np.ndindex(*ksz):
            window = tuple(slice(kk * rd, kk * rd + (e - 1) * st + 1, st)
                           for kk, rd, e, st in zip(k, rhs_dil, out_sp, stride))
            part = xs[(slice(None), slice(None)) + window]
            out[:, f] += np.tensordot(w[(f, slice(None)) + k], part, axes=([0], [1]))
    order = [0] * (s + 2)
    for src, dst in enumerate([ob, of] + osp):
        order[dst] = src
    return np.transpose(out, order)


def check(name, actual, expected):
    if actual.shape != expected.shape:
        sys.exit(f"FAIL {name}: shape {actual.shape}, expected {expected.shape}")
    if np.issubdtype(actual.dtype, np.integer):
        ok = np.array_equal(actual, expected.astype(actual.dtype))
    else:
        ok = np.allclose(actual, expected, rtol=1e-4, atol=1e-5)
    if not ok:
        diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        i = np.unravel_index(np.argmax(diff), diff.shape)
        sys.exit(f"FAIL {name}: at {i} got {actual[i]}, expected {expected[i]}")
    print(f"ok {name}")


def main(d):
    a = [load(d, f"arg{i}") for i in range(11)]
    x, w, dy, s, k, v, vk, i32, ik, t, tk = a
    nhwc = ((0, 3, 1, 2), (2, 3, 0, 1), (0, 3, 1, 2))
    check("forward", load(d, "out0"),
          conv(x, w, nhwc, [2, 1], [(1, -1), (0, 2)], [1, 2], [2, 1], fg=2))
    check("kernel gradient", load(d, "out1"),
          conv(x, dy, ((3, 0, 1, 2), (0, 3, 1, 2), (2, 3, 0, 1)), [2, 1],
               [(1, -2), (0, 2)], [1, 2], [2, 1], bg=2))
    check("1-D reversed", load(d, "out2"),
          conv(s, k, ((0, 1, 2), (1, 0, 2), (0, 1, 2)), pad=[(2, 2)],
               reverse=[True]))
    check("3-D", load(d, "out3"),
          conv(v, vk, ((0, 1, 2, 3, 4), (1, 0, 3, 4, 2), (0, 1, 2, 4, 3)),
               [1, 2, 1], [(0, 1), (1, 0), (1, 1)]))
    check("int32", load(d, "out4"),
          conv(i32, ik, ((0, 3, 1, 2), (2, 3, 0, 1), (3, 0, 1, 2)), [2, 1]))
    check("transposed depthwise", load(d, "out5"),
          conv(t, tk, ((0, 1, 2, 3), (3, 2, 0, 1), (0, 1, 2, 3)),
               pad=[(2, 2), (2, 2)], lhs_dil=[2, 2], fg=4))


if __name__ == "__main__":
    main(sys.argv[1])
