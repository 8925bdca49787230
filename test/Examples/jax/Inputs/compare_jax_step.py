#!/usr/bin/env python3
"""Compares trellis-grad's gradient with JAX's own SGD step.

Usage: compare_jax_step.py GRAD_DIR JAX_DIR LR

GRAD_DIR holds a run of @main_grad (argK.npy: w1, w2, x, y; outJ.npy: loss,
then the gradients of w1 and w2 first); JAX_DIR a run of
examples/jax/mlp_train_step.mlir on the same arguments (out0, out1: w1 and
w2 after the step, out2: the loss). Checks w - LR * grad == JAX's w for
both and the losses, within float32 rounding.
"""
import sys

import numpy as np


def main():
    g_dir, j_dir, lr = sys.argv[1], sys.argv[2], float(sys.argv[3])
    load = lambda d, name: np.load(f"{d}/{name}.npy").astype(np.float64)
    w1, w2 = load(g_dir, "arg0"), load(g_dir, "arg1")
    loss, g1, g2 = load(g_dir, "out0"), load(g_dir, "out1"), load(g_dir, "out2")
    j1, j2, jloss = load(j_dir, "out0"), load(j_dir, "out1"), load(j_dir, "out2")
    checks = [("loss", loss, jloss), ("w1 step", w1 - lr * g1, j1),
              ("w2 step", w2 - lr * g2, j2)]
    if max(np.abs(g1).max(), np.abs(g2).max()) == 0:
        print("FAIL: zero gradients")
        return 1
    for name, ours, jax in checks:
        err = np.abs(ours - jax).max() / max(1.0, np.abs(jax).max())
        if err > 1e-5:
            print(f"FAIL: {name} differs from JAX's by {err:.3g}")
            return 1
    print("OK trellis-grad's step equals JAX's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
