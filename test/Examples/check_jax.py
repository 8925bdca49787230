#!/usr/bin/env python3
"""Checks trellis-run's results for the examples/jax programs against numpy.

Usage: check_jax.py NAME DIR
DIR holds trellis-run's --output-dir (outN.npy) and --save-inputs (argN.npy).
Every expected value is computed here with numpy from what the JAX program
computes (the Python in each example's header), independently of Trellis.
"""
import os
import sys

import numpy as np


def load(d, name):
    return np.load(os.path.join(d, name + ".npy"))


def close(name, actual, expected, rtol=1e-4, atol=1e-5):
    if actual.shape != expected.shape:
        sys.exit(f"FAIL {name}: shape {actual.shape}, expected {expected.shape}")
    if not np.allclose(actual.astype(np.float64), expected, rtol=rtol,
                       atol=atol):
        diff = np.abs(actual.astype(np.float64) - expected)
        i = np.unravel_index(np.argmax(diff), diff.shape)
        sys.exit(f"FAIL {name}: at {i} got {actual[i]}, expected {expected[i]}")
    print(f"ok {name}")


def args(d, n):
    return [load(d, f"arg{i}").astype(np.float64) for i in range(n)]


def mlp(d):
    x, w1, b1, w2 = args(d, 4)
    close("out0", load(d, "out0"), np.maximum(x @ w1 + b1, 0) @ w2)


def gelu_tanh(h):
    return 0.5 * h * (1 + np.tanh(0.7978845608028654 * (h + 0.044715 * h**3)))


def ffn_shard_map(d):
    x, w_up, w_down = args(d, 3)
    close("out0", load(d, "out0"), gelu_tanh(x @ w_up) @ w_down)


CHECKS = {"mlp": mlp, "ffn_shard_map": ffn_shard_map}

if __name__ == "__main__":
    CHECKS[sys.argv[1]](sys.argv[2])
