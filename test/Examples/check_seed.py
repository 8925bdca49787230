#!/usr/bin/env python3
"""Checks trellis-run's results for the seed examples against numpy.

Usage: check_seed.py [--bf16] NAME DIR [DIR2]
DIR holds trellis-run's --output-dir (outN.npy) and --save-inputs (argN.npy).
Every expected value is computed here from the seeds' stated semantics with
numpy, independently of Trellis; shapes the seeds print are asserted too.

--bf16 checks the seed converted to bf16 (to_bf16.py): bf16 arrays load
widened to float32 (exactly), each expected float value is computed in
float64 from those inputs and rounded to bf16, and floats compare within
2^-6 of the largest expected value (docs/Precision.md: the program rounds
every elementwise op and each contraction's f32 sum to bf16, about one
bf16 ulp, 2^-8, per step). Integers stay exact.
"""
import os
import sys

import numpy as np


BF16 = False


def load(d, name):
    a = np.load(os.path.join(d, name + ".npy"))
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:  # bf16 as '<V2'
        a = (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a


def expect(cond, message):
    if not cond:
        print("FAIL:", message)
        sys.exit(1)


def close(actual, expected, rtol=1e-5, atol=1e-5, what="result"):
    expect(actual.shape == expected.shape,
           f"{what} has shape {actual.shape}, expected {expected.shape}")
    if np.issubdtype(expected.dtype, np.integer):
        ok = np.array_equal(actual, expected)
    elif BF16:
        expected = _round_bf16(expected)
        bound = 2.0 ** -6 * max(float(np.abs(expected).max()), 2.0 ** -126)
        ok = np.allclose(actual, expected, rtol=0, atol=bound)
    else:
        ok = np.allclose(actual, expected, rtol=rtol, atol=atol)
    if not ok:
        diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        idx = np.unravel_index(np.argmax(diff), diff.shape)
        expect(False, f"{what} differs: max abs error {diff.max()} at {idx}: "
                      f"got {actual[idx]}, expected {expected[idx]}")


def iota(shape, dtype):
    return np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)


def matmul_basic(d):
    a, b, c = load(d, "arg0"), load(d, "arg1"), load(d, "out0")
    close(a, iota((8, 16), np.float32), what="a (jnp.arange(8 * 16.))")
    close(b, iota((16, 32), np.float32), what="b (jnp.arange(16 * 32.))")
    expect(c.dtype == np.float32 and c.shape == (8, 32), f"c is {c.dtype}{c.shape}")
    close(c, (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))


matmul_reduce_scatter = matmul_basic


def f1(d):
    x, y = load(d, "arg0"), load(d, "out0")
    close(x, iota((12, 12), np.int32), what="x")
    expect(y.shape == (12, 24), f"f1 result shape {y.shape}, the seed states (12,24)")
    # in P('i', None): every device along j holds its rows whole; out
    # P('i', 'j') concatenates the two (equal) blocks along columns.
    close(y, np.concatenate([x, x], axis=1))


def f2(d, d_f1):
    x_, y2 = load(d, "arg0"), load(d, "out0")
    x = iota((12, 12), np.int32)
    close(x_, np.tile(x, (1, 2)), what="x_ = jnp.tile(x, (1, 2))")
    expect(y2.shape == (12, 24), f"f2 result shape {y2.shape}, the seed states (12,24)")
    close(y2, x_, what="f2(x_)")
    close(y2, load(d_f1, "out0"), what="f2(x_) vs f1(x)")


def blocks(x, rows, cols):
    """x split into a rows x cols grid of blocks: [r][c] -> block."""
    r, c = x.shape[0] // rows, x.shape[1] // cols
    return [[x[i * r:(i + 1) * r, j * c:(j + 1) * c] for j in range(cols)]
            for i in range(rows)]


def f3(d):
    x, y = load(d, "arg0"), load(d, "out0")
    close(x, iota((12, 12), np.int32), what="x")
    expect(y.shape == (12, 6), f"y3.shape is {y.shape}, the seed prints (12,6)")
    b = blocks(x, 4, 2)
    close(y, np.concatenate([b[i][0] + b[i][1] for i in range(4)], axis=0))


def f4(d):
    x, y = load(d, "arg0"), load(d, "out0")
    expect(y.shape == (3, 12), f"y4.shape is {y.shape}, the seed prints (3,12)")
    b = blocks(x, 4, 2)
    close(y, np.concatenate([sum(b[i][j] for i in range(4)) for j in range(2)], axis=1))


def f5(d):
    x, y = load(d, "arg0"), load(d, "out0")
    expect(y.shape == (3, 6), f"y5.shape is {y.shape}, the seed prints (3,6)")
    b = blocks(x, 4, 2)
    close(y, sum(b[i][j] for i in range(4) for j in range(2)))


def explicit_f(d):
    # Seed 002's f: sin, times 2 under auto_axes, plus 1.
    x, out = load(d, "arg0"), load(d, "out0")
    close(out, 2 * np.sin(x.astype(np.float64)) + 1)


def tile_i_j(d):
    close(load(d, "out0"), np.tile(np.array([[3.]], np.float32), (4, 2)))


def tile_i(d):
    close(load(d, "out0"), np.tile(np.array([[3.]], np.float32), (4, 1)))


def tile_none(d):
    close(load(d, "out0"), np.tile(np.array([[3.]], np.float32), (1, 1)))


def slice_and_average(d):
    x, out = load(d, "arg0"), load(d, "out0")
    close(x, iota((512,), np.int32), what="x (jnp.arange(0, 512, dtype=int32))")
    expect(out.shape == (4,), f"out.shape is {out.shape}, the seed asserts (4,)")
    shards = x.reshape(8, 64)  # P(('x', 'y')): device d holds x[64d:64d+64]
    expected = np.mean(shards[:, :4].astype(np.float64), axis=0)
    close(out, expected.astype(np.float32))
    close(out, np.array([224, 225, 226, 227], np.float32), what="worked by hand")


def collective_matmul_allgather_lhs_non_contracting(d):
    a, b, c = load(d, "arg0"), load(d, "arg1"), load(d, "out0")
    expect(a.shape == (4096, 2048) and b.shape == (2048, 1024), "M, K, N = 4096, 2048, 1024")
    close(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-3)


def collective_matmul_naive_rewritten(d, d_seed):
    """The naive program rewritten by spmd-collective-matmul (in d) against
    the seed's hand-written loop (in d_seed): bit-identical results."""
    collective_matmul_allgather_lhs_non_contracting(d)
    c, c_seed = load(d, "out0"), load(d_seed, "out0")
    expect(np.array_equal(load(d, "arg0"), load(d_seed, "arg0")) and
           np.array_equal(load(d, "arg1"), load(d_seed, "arg1")), "inputs differ")
    expect(np.array_equal(c, c_seed),
           "rewritten naive program and the seed's loop differ "
           f"(max abs difference {np.abs(c - c_seed).max()})")


def collective_matmul_allgather_lhs(d):
    a, w, out = load(d, "arg0"), load(d, "arg1"), load(d, "out0")
    close(out, a.astype(np.float64) @ w.astype(np.float64), rtol=1e-4, atol=1e-4)


def gelu_tanh(h):
    return 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))


def ffn_collective(d):
    x, wu, wd = (load(d, f"arg{i}").astype(np.float64) for i in range(3))
    out = load(d, "out0")
    close(out, gelu_tanh(x @ wu) @ wd, rtol=1e-4, atol=1e-4)


def ffn_collective_bf16(d):
    # Computed in float64 from the same bf16 inputs: the program rounds its
    # matmul results, every gelu op and every accumulation step to bf16,
    # about one bf16 ulp (2^-8) of the largest value here; allow 2^-6. A
    # wrong block or permutation is off by the values themselves.
    x, wu, wd = (_bf16(load(d, f"arg{i}")) for i in range(3))
    out = _bf16(load(d, "out0"))
    expected = gelu_tanh(x @ wu) @ wd
    bound = 2.0 ** -6 * np.abs(expected).max()
    err = np.abs(out - expected).max()
    expect(err <= bound, f"max error {err:.4g} over the bound {bound:.4g}")


def moe(d):
    w, a, b, out = load(d, "arg0"), load(d, "arg1"), load(d, "arg2"), load(d, "out0")
    expect(np.all((b >= 0) & (b < w.shape[0])), "routing out of range")
    expected = np.stack([a[i].astype(np.float64) @ w[b[i]].astype(np.float64)
                         for i in range(a.shape[0])])
    close(out, expected, rtol=1e-4, atol=1e-4)


def auto_mode(d):
    # Seed 003: In[8,2048] @ W[2048,8192] = Out[8,8192].
    x, w, out = load(d, "arg0"), load(d, "arg1"), load(d, "out0")
    expect(x.shape == (8, 2048) and w.shape == (2048, 8192), "In[8,2048], W[2048,8192]")
    close(out, x.astype(np.float64) @ w.astype(np.float64), rtol=1e-3, atol=1e-3)


def _bf16(raw):
    """bf16 as trellis-run writes it ('<V2'): the top half of an f32
    (load() widens it already)."""
    if raw.dtype == np.float32:
        return raw.astype(np.float64)
    return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def _round_bf16(x):
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def auto_mode_bf16(d):
    # The seed's own dtype (docs/Precision.md): each device's local
    # [2,1024] x [1024,8192] dot accumulates in f32 and rounds to bf16, the
    # psum over Y adds the two halves of K in f32 and rounds again.
    x, w = _bf16(load(d, "arg0")), _bf16(load(d, "arg1"))
    out = _bf16(load(d, "out0"))
    expect(x.shape == (8, 2048) and w.shape == (2048, 8192), "In[8,2048], W[2048,8192]")
    halves = [_round_bf16(x[:, :1024] @ w[:1024]), _round_bf16(x[:, 1024:] @ w[1024:])]
    model = _round_bf16(halves[0] + halves[1])
    # One bf16 ulp of the model (the f32 accumulation may move a tie).
    ulp = 2.0 ** (np.floor(np.log2(np.maximum(np.abs(model), 2.0 ** -126))) - 7)
    err = np.abs(out - model)
    expect(np.all(err <= ulp), f"bf16 result {np.max(err / ulp):.3g} ulp from the model")


CHECKS = {name: fn for name, fn in globals().items()
          if callable(fn) and not name.startswith("_")
          and name not in ("load", "expect", "close", "iota", "blocks", "gelu_tanh")}

if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "--bf16":
        BF16 = True
        args = args[1:]
    name, dirs = args[0], args[1:]
    if name not in CHECKS:
        print("unknown check", name)
        sys.exit(2)
    CHECKS[name](*dirs)
    print("OK", name)
