#!/usr/bin/python3
"""Checks the oracle: recomputes a sample of corpus programs in plain numpy
from their saved inputs and compares with the outputs JAX saved, so that a
wrong answer in JAX (or a mix-up of argument order in generate.py) cannot
become the expected value. Needs only numpy.

    test/Jax/check_oracle.py [DATA_DIR]      # last line: oracle: N checked, 0 failed
"""

import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "data")
CHECKS = {}


def check(name):
    def deco(f):
        CHECKS[name] = f
        return f
    return deco


def load(name):
    d = os.path.join(DATA, name)
    ins, outs, i = [], [], 0
    while os.path.exists(os.path.join(d, f"in{i}.npy")):
        ins.append(np.load(os.path.join(d, f"in{i}.npy")))
        i += 1
    i = 0
    while os.path.exists(os.path.join(d, f"out{i}.npy")):
        outs.append(np.load(os.path.join(d, f"out{i}.npy")))
        i += 1
    return ins, outs


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


@check("mlp_dp_8")
def _(b1, b2, w1, w2, w3, x):
    h = np.maximum(x @ w1 + b1, 0)
    return [gelu_tanh(h @ w2 + b2) @ w3]


@check("mlp_train_sgd_dp_8")
def _(b1, b2, w1, w2, w3, x, y):
    # Backpropagation by hand.
    z1 = x @ w1 + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w2 + b2
    k = np.sqrt(2 / np.pi)
    t = np.tanh(k * (z2 + 0.044715 * z2 ** 3))
    h2 = 0.5 * z2 * (1 + t)
    out = h2 @ w3
    loss = np.mean((out - y) ** 2)
    dout = 2 * (out - y) / out.size
    dw3 = h2.T @ dout
    dh2 = dout @ w3.T
    dz2 = dh2 * (0.5 * (1 + t) + 0.5 * z2 * (1 - t ** 2) * k * (1 + 3 * 0.044715 * z2 ** 2))
    dw2, db2 = h1.T @ dz2, dz2.sum(0)
    dz1 = (dz2 @ w2.T) * (z1 > 0)
    dw1, db1 = x.T @ dz1, dz1.sum(0)
    new = [p - 0.1 * g for p, g in zip((b1, b2, w1, w2, w3), (db1, db2, dw1, dw2, dw3))]
    return new + [np.float32(loss)]


@check("int32_arith")
def _(a, b):
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    tq = np.trunc(a64 / b64).astype(np.int64)  # lax.div truncates
    return [a // b, a % b, a * b + 7, a >> 3, a << 2, a & b, a | b, a ^ b, np.abs(a),
            np.sign(b), tq.astype(np.int32), (a64 - tq * b64).astype(np.int32),
            np.minimum(a, b), np.clip(a, -50, 50)]


@check("sort_multi_operand")
def _(k, v):
    o = np.argsort(k, kind="stable")
    return [k[o], v[o]]


@check("cumsum_family_unsharded")
def _(x):
    return [np.cumsum(x, 1), np.cumprod(1 + 0.1 * x, 0), np.maximum.accumulate(x, 1),
            np.minimum.accumulate(x, 0), np.cumsum(x.astype(np.int32), 0)]


@check("cumsum_family_2x4")
def _(x):
    # XLA's partitioned program gets out2 (cummax next to a cumsum of the same
    # sharded value) wrong; generate.py saved its one-device answer.
    return [np.cumsum(x, 1), np.cumprod(1 + 0.1 * x, 0), np.maximum.accumulate(x, 1),
            np.minimum.accumulate(x, 0), np.cumsum(x.astype(np.int32), 0)]


@check("sm_psum_scatter_2x4")
def _(x):
    # Each device holds its data block, replicated over model; psum_scatter
    # over model sums four equal blocks and hands chunk m to device (d, m).
    return [4 * x]


@check("f64_mlp_2x4")
def _(x, w1, w2):
    return [np.tanh(x @ w1) @ w2, np.sum(x * x)]


@check("int64_arith")
def _(a, b):
    return [a * b + (1 << 40), a // 7, np.cumsum(a), a.astype(np.int32), np.sum(a > b)]


@check("while_newton_unsharded")
def _(x):
    x = x.astype(np.float32)
    y, i = np.ones_like(x), 0
    while i < 50 and np.max(np.abs(y * y - x)) > np.float32(1e-5):
        y = np.float32(0.5) * (y + x / y)
        i += 1
    return [np.int32(i), y]


def conv_nhwc_same(x, w):
    n, h, wd, c = x.shape
    kh, kw, ci, co = w.shape
    ph, pw = (kh - 1) // 2, (kw - 1) // 2
    xp = np.pad(x, ((0, 0), (ph, kh - 1 - ph), (pw, kw - 1 - pw), (0, 0)))
    out = np.zeros((n, h, wd, co), np.float64)
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("nhwc,co->nhwo", xp[:, i:i + h, j:j + wd], w[i, j])
    return out


@check("conv_same")
def _(x, w):
    return [conv_nhwc_same(x, w)]


@check("scan_rnn_unsharded")
def _(h, xs, w, u):
    ys = []
    for x in xs:
        h = np.tanh(h @ w + x @ u)
        ys.append(h.sum(-1))
    return [h, np.stack(ys)]


@check("top_k")
def _(x):
    i = np.argsort(-x, axis=-1, kind="stable")[:, :3]
    return [np.take_along_axis(x, i, -1), i.astype(np.int32)]


@check("rmsnorm_2x4")
def _(x, g):
    return [x / np.sqrt(np.mean(x * x, -1, keepdims=True) + 1e-6) * g]


@check("maxpool_avgpool")
def _(x):
    n, h, w, c = x.shape
    mx = x.reshape(n, h // 2, 2, w // 2, 2, c).max((2, 4))
    xp = np.pad(x, ((0, 0), (0, 1), (0, 1), (0, 0)))  # SAME, window 3 stride 2
    av = np.zeros((n, 4, 4, c))
    for i in range(4):
        for j in range(4):
            av[:, i, j] = xp[:, 2 * i:2 * i + 3, 2 * j:2 * j + 3].sum((1, 2)) / 9
    return [mx, av]


@check("sm_psum_8")
def _(x):
    return [np.sin(x).reshape(8, 2, 8).sum(0)]


@check("sm_ppermute_ring_8")
def _(x):
    b = x.reshape(8, 2, 4)
    return [np.roll(b, 1, axis=0).reshape(16, 4)]


@check("sm_all_to_all_1x8")
def _(x):
    # Device d holds x[:, 2d:2d+2]; split axis 0 into 8 chunks, chunk j goes
    # to device j, concatenated along axis 1 in source order.
    blocks = [x[:, 2 * d:2 * d + 2] for d in range(8)]
    out = [np.concatenate([blocks[s][2 * j:2 * j + 2] for s in range(8)], 1) for j in range(8)]
    return [np.concatenate(out, 0)]


@check("gather_vmap")
def _(t, i):
    return [np.stack([t[b][i[b]] for b in range(t.shape[0])])]


@check("scatter_add")
def _(x, i, u):
    y = x.copy()
    np.add.at(y, i, u)
    return [y]


@check("decoder_layer_unsharded")
def _(g1, g2, w_down, w_gate, w_up, wk, wo, wq, wv, x, pos):
    def rms(v, g):
        return v / np.sqrt(np.mean(v * v, -1, keepdims=True) + 1e-6) * g

    def rope(v):
        d = v.shape[-1]
        fr = 10000.0 ** (-np.arange(0, d, 2) / d)
        ang = pos[:, None] * fr[None]
        c, s = np.cos(ang)[None, :, None], np.sin(ang)[None, :, None]
        a, b = v[..., ::2], v[..., 1::2]
        return np.stack([a * c - b * s, a * s + b * c], -1).reshape(v.shape)
    h = rms(x, g1)
    q = rope(np.einsum("bsm,mhd->bshd", h, wq))
    k = rope(np.einsum("bsm,mhd->bshd", h, wk))
    v = np.einsum("bsm,mhd->bshd", h, wv)
    rep = q.shape[2] // k.shape[2]
    k, v = np.repeat(k, rep, 2), np.repeat(v, rep, 2)
    s = np.einsum("bshd,bthd->bhst", q, k) / math.sqrt(q.shape[-1])
    s = np.where(pos[:, None] >= pos[None, :], s, -1e30)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    x = x + np.einsum("bshd,hdm->bsm", np.einsum("bhst,bthd->bshd", p, v), wo)
    h = rms(x, g2)
    a = h @ w_gate
    return [x + (a / (1 + np.exp(-a)) * (h @ w_up)) @ w_down]


def main():
    failed = checked = 0
    for name, f in CHECKS.items():
        if not os.path.isdir(os.path.join(DATA, name)):
            print(f"MISSING {name}")
            failed += 1
            continue
        ins, outs = load(name)
        want = f(*[a.astype(np.float64) if a.dtype.kind == "f" else a for a in ins])
        bad = []
        if len(want) != len(outs):
            bad.append(f"{len(outs)} outputs, numpy {len(want)}")
        for i, (w, o) in enumerate(zip(want, outs)):
            w = np.asarray(w)
            if o.dtype.kind in "iub":
                ok = o.shape == w.shape and np.array_equal(o, w.astype(o.dtype))
            else:
                ok = o.shape == w.shape and np.allclose(o, w, rtol=1e-4,
                                                        atol=1e-5 * max(1, np.abs(w).max()))
            if not ok:
                err = np.abs(o.astype(np.float64) - w).max() if o.shape == w.shape else "shape"
                bad.append(f"out{i}: JAX differs from numpy (max abs err {err})")
        checked += 1
        failed += bool(bad)
        print(f"{'ok' if not bad else 'FAIL'} {name}" + (": " + "; ".join(bad) if bad else ""))
    print(f"oracle: {checked} checked, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
