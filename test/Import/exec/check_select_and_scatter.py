#!/usr/bin/env python3
"""Checks test/Import/exec/select-and-scatter.mlir's results against numpy.

Usage: check_select_and_scatter.py DIR   (DIR: trellis-run --save-inputs
--output-dir)

select_and_scatter as XLA defines it: the result starts as the init value;
for each source element, the elements of its window of the padded operand
that are not padding are visited in row-major order, the first is the
candidate and each next one replaces it unless select(candidate, element)
holds; the source element is then combined into the result at the
candidate's position (nothing for a window of padding only).
"""
import os
import sys

import numpy as np


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def select_and_scatter(x, source, init, window, strides, low, select, combine):
    out = np.full(x.shape, init, np.float64)
    for o in np.ndindex(*source.shape):
        chosen = None
        for w in np.ndindex(*window):
            p = tuple(oi * s + wi - lo for oi, s, wi, lo in zip(o, strides, w, low))
            if any(pi < 0 or pi >= n for pi, n in zip(p, x.shape)):
                continue
            if chosen is None or not select(x[chosen], x[p]):
                chosen = p
        if chosen is not None:
            out[chosen] = combine(out[chosen], source[o])
    return out


def check(name, actual, expected):
    if not np.allclose(actual, expected, rtol=1e-5, atol=1e-6):
        diff = np.abs(actual - expected)
        i = np.unravel_index(np.argmax(diff), diff.shape)
        sys.exit(f"FAIL {name}: at {i} got {actual[i]}, expected {expected[i]}")
    print(f"ok {name}")


def main(d):
    x, dy, y, s, dz = (load(d, f"arg{i}") for i in range(5))
    check("max-pool gradient", load(d, "out0"),
          select_and_scatter(x, dy, 0.0, (1, 3, 3, 1), (1, 2, 2, 1), (0, 1, 1, 0),
                             lambda a, b: a >= b, lambda a, b: a + b))
    check("last minimum, max", load(d, "out1"),
          select_and_scatter(np.round(y), s, -1.0, (2, 2), (2, 2), (2, 0),
                             lambda a, b: a < b, max))
    check("max-pool gradient, all negative", load(d, "out2"),
          select_and_scatter(-np.abs(x), dz, 0.0, (1, 2, 2, 1), (1, 2, 2, 1),
                             (0, 0, 0, 0), lambda a, b: a >= b,
                             lambda a, b: a + b))


if __name__ == "__main__":
    main(sys.argv[1])
