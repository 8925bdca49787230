#!/usr/bin/env python3
"""Checks a run of bench/overlap/moe.py's MoE block against numpy.

Usage: check_moe.py DIR  (a trellis-run --output-dir with --save-inputs)

Out[t] = A[t] @ W[B[t] mod n], B read as unsigned (the program's remui).
"""
import sys

import numpy as np

d = sys.argv[1]
W, A, B = (np.load(f"{d}/arg{i}.npy") for i in range(3))
out = np.load(f"{d}/out0.npy")
n = W.shape[0]
expert = B.astype(np.int64).astype(np.uint32) % n
want = np.einsum("td,tdf->tf", A.astype(np.float64), W[expert].astype(np.float64))
err = float(np.abs(out - want).max())
ok = np.allclose(out, want, rtol=1e-4, atol=1e-4)
print(f"{out.shape}, experts used {sorted(set(expert.tolist()))}, "
      f"max abs error {err:.3g}: {'ok' if ok else 'WRONG'}")
sys.exit(0 if ok else 1)
