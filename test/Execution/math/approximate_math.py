#!/usr/bin/env python3
"""Inputs for, and the check of, Inputs/math.mlir.

approximate_math.py inputs DIR   writes DIR/{a,e,p,q}.npy
approximate_math.py check DIR MAX_ULP...
    compares DIR/out0..7.npy with float64 numpy: every finite expected
    value that is a normal f32 must be within the op's MAX_ULP (in the
    order of the program's results); special values (inf, nan, signed
    results of 0, overflow) must match exactly; results below the smallest
    normal f32 may be flushed to zero (not for exp) or be within MAX_ULP
    subnormal steps. Prints the worst error per op.
"""
import math
import os
import sys

import numpy as np

N = 4104
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-20, -1e-20, 1e-3]
NAMES = ["tanh", "exp", "expm1", "log", "log1p", "log2", "erf", "erfc"]
# Ops whose subnormal results must be computed, not flushed to zero.
NO_FLUSH = {"exp"}


def inputs():
    n = N - len(SPECIAL)
    a = np.concatenate([np.linspace(-20, 20, n), SPECIAL])
    e = np.concatenate([np.linspace(-104, 89, n), SPECIAL])
    p = np.concatenate([np.logspace(-45, 38.5, n), [0.0, -0.0, np.inf, -1.0,
                                                   np.nan, 1.0, 2.0, 0.5]])
    q = np.concatenate([np.linspace(-0.999, 1, n // 2),
                        np.logspace(-30, 30, n - n // 2),
                        [0.0, -0.0, np.inf, -1.0, np.nan, -2.0, -1e-20, 1e-7]])
    return {k: v.astype(np.float32) for k, v in
            {"a": a, "e": e, "p": p, "q": q}.items()}


def expected(x):
    a, e, p, q = (x[k].astype(np.float64) for k in "aepq")
    erf = np.vectorize(math.erf, otypes=[float])
    erfc = np.vectorize(math.erfc, otypes=[float])
    with np.errstate(all="ignore"):
        return [np.tanh(a), np.exp(e), np.expm1(e), np.log(p), np.log1p(q),
                np.log2(p), erf(a), erfc(a)]


def main():
    mode, d = sys.argv[1], sys.argv[2]
    if mode == "inputs":
        for k, v in inputs().items():
            np.save(os.path.join(d, k + ".npy"), v)
        return 0
    x = {k: np.load(os.path.join(d, k + ".npy")) for k in "aepq"}
    limits = [float(v) for v in sys.argv[3:]]
    failed = False
    for k, (name, want, limit) in enumerate(zip(NAMES, expected(x), limits)):
        got = np.load(os.path.join(d, f"out{k}.npy")).astype(np.float64)
        with np.errstate(over="ignore"):
            want32 = want.astype(np.float32).astype(np.float64)
        tiny = np.abs(want32) < np.finfo(np.float32).tiny
        normal = np.isfinite(want32) & ~tiny
        ulp = np.spacing(np.abs(want32[normal]).astype(np.float32))
        err = np.abs(got[normal] - want[normal]) / ulp.astype(np.float64)
        worst = err.max()
        at = x["aepq"[[0, 1, 1, 2, 3, 2, 0, 0][k]]][normal][err.argmax()]
        # inf, nan and exact zeros must be exact (the sign of a zero is
        # not checked: erf(-0) gives +0); results that underflow may be
        # zero or within the op's limit of the subnormal.
        special = ~np.isfinite(want32) | (want32 == 0)
        same = (np.isnan(got) & np.isnan(want32)) | (got == want32)
        special_bad = np.flatnonzero(special & ~same)
        sub_ulp = np.spacing(np.float32(0)).astype(np.float64)
        with np.errstate(invalid="ignore"):
            flush_bad = np.flatnonzero(tiny & (want32 != 0) & ~(
                ((got == 0) & (name not in NO_FLUSH)) |
                (np.abs(got - want) <= max(limit, 1) * sub_ulp)))
        ok = worst <= limit and not len(special_bad) and not len(flush_bad)
        print(f"{name}: max {worst:.1f} ulp at {at:.9g} (limit {limit:g})"
              + ("" if ok else " FAIL"))
        for i in list(special_bad[:3]) + list(flush_bad[:3]):
            print(f"  {name}({x['aepq'[[0, 1, 1, 2, 3, 2, 0, 0][k]]][i]}) ="
                  f" {got[i]}, expected {want32[i]}")
        failed |= not ok
    print("FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
