#!/usr/bin/env python3
"""Checks DIR/out0.npy against numpy.einsum(SPEC, DIR/arg0.npy, DIR/arg1.npy)
(in float64), within float32 rounding of the sums. Usage: check_einsum.py
DIR SPEC"""
import os
import sys

import numpy as np

d, spec = sys.argv[1], sys.argv[2]
a = np.load(os.path.join(d, "arg0.npy")).astype(np.float64)
b = np.load(os.path.join(d, "arg1.npy")).astype(np.float64)
got = np.load(os.path.join(d, "out0.npy"))
want = np.einsum(spec, a, b)
if got.shape != want.shape:
    sys.exit(f"{d}: shape {got.shape}, expected {want.shape}")
# The terms' magnitudes bound the rounding of a float32 sum.
scale = np.einsum(spec, np.abs(a), np.abs(b))
err = np.abs(got - want)
if not np.all(err <= 1e-5 * scale + 1e-6):
    sys.exit(f"{d}: {spec}: worst error {err.max()} (scale {scale.max()})")
