#!/usr/bin/env python3
"""Checks a run of examples/overlap/moe_auto.mlir against numpy.

Usage: check_moe_auto.py DIR  (a trellis-run --output-dir with --save-inputs)

out[g, s, f] = sum_{e, c} mask[g, s, e, c] (sum_d (sum_s' mask[g, s', e, c]
x[g, s', d]) w[e, d, f]), in float64.
"""
import sys

import numpy as np

d = sys.argv[1]
x, mask, w = (np.load(f"{d}/arg{i}.npy").astype(np.float64) for i in range(3))
out = np.load(f"{d}/out0.npy")
dispatched = np.einsum("gsec,gsd->egcd", mask, x)
y = np.einsum("egcd,edf->egcf", dispatched, w)
want = np.einsum("gsec,egcf->gsf", mask, y)
err = float(np.abs(out - want).max())
ok = out.shape == want.shape and np.allclose(out, want, rtol=1e-4, atol=1e-4)
print(f"{out.shape}, max abs error {err:.3g}: {'ok' if ok else 'WRONG'}")
sys.exit(0 if ok else 1)
