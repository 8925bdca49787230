#!/usr/bin/env python3
"""Checks the FSDP MLP's output, or its training step, against numpy.

Usage: check_fsdp.py DIR

DIR holds arg0.npy (x), arg1.npy (the stacked weights) and out0.npy from
trellis-run --save-inputs. The forward program's output is h = x;
h = relu(h @ W[l]) for every layer, in float64. When DIR also holds
out1.npy, the run was loss_grad of fsdp.py --train: out0 is the loss
sum(h * h) and out1 its gradient with respect to the weights, by
backpropagation written out here.
"""
import os
import sys

import numpy as np


def report(what, out, want):
    err = float(np.abs(out - want).max() / max(1.0, np.abs(want).max()))
    ok = out.shape == want.shape and err < 1e-5 and np.count_nonzero(want) > 0
    print(f"{what} {list(out.shape)}, relative error {err:.2e}: "
          f"{'ok' if ok else 'MISMATCH'}")
    return ok


def main():
    d = sys.argv[1]
    x = np.load(f"{d}/arg0.npy").astype(np.float64)
    w = np.load(f"{d}/arg1.npy").astype(np.float64)
    out = np.load(f"{d}/out0.npy")
    inputs, pre = [], []
    h = x
    for layer in w:
        inputs.append(h)
        pre.append(h @ layer)
        h = np.maximum(pre[-1], 0.0)
    if not os.path.exists(f"{d}/out1.npy"):
        return 0 if report(f"{len(w)} layers", out, h) else 1
    ok = report(f"{len(w)} layers: loss", out, np.sum(h * h))
    grad = np.zeros_like(w)
    dh = 2.0 * h
    for k in reversed(range(len(w))):
        dm = dh * (pre[k] > 0)
        grad[k] = inputs[k].T @ dm
        dh = dm @ w[k].T
    ok &= report(f"{len(w)} layers: gradient", np.load(f"{d}/out1.npy"), grad)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
