#!/usr/bin/env python3
"""Checks trellis-run's results for the examples/jax programs against numpy.

Usage: check_jax.py NAME DIR
DIR holds trellis-run's --output-dir (outN.npy) and --save-inputs (argN.npy).
Every expected value is computed here with numpy from what the JAX program
computes (the Python in each example's header), independently of Trellis.
"""
import math
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


def mlp_train_step(d):
    w1, w2, x, y = args(d, 4)
    # Gradients worked out by hand (not by the program's own formulas).
    z = x @ w1
    h = np.maximum(z, 0)
    r = h @ w2 - y
    loss = np.mean(r**2)
    dout = 2 * r / r.size
    g2 = h.T @ dout
    g1 = x.T @ ((dout @ w2.T) * (z > 0))
    close("out0", load(d, "out0"), w1 - 0.1 * g1)
    close("out1", load(d, "out1"), w2 - 0.1 * g2)
    close("out2", load(d, "out2"), np.array(loss))
    # The update moved the loss down (a gradient, not just numbers that
    # match): the loss at the new weights is smaller.
    w1n, w2n = load(d, "out0"), load(d, "out1")
    after = np.mean((np.maximum(x @ w1n, 0) @ w2n - y) ** 2)
    if not after < loss:
        sys.exit(f"FAIL: loss {loss} -> {after} did not decrease")
    print(f"ok loss {loss:.6f} -> {after:.6f}")


def transformer_block(d):
    x, wq, wk, wv, wo, w1, w2, g1, g2 = args(d, 9)
    erf = np.vectorize(math.erf)

    def rmsnorm(v, g):
        return v / np.sqrt(np.mean(v * v, -1, keepdims=True) + 1e-6) * g

    h = rmsnorm(x, g1)
    q, k, v = (np.einsum("bsd,dhk->bshk", h, w) for w in (wq, wk, wv))
    s = np.einsum("bshk,bthk->bhst", q, k) / np.sqrt(8.0)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    a = np.einsum("bhst,bthk->bshk", p, v)
    x = x + np.einsum("bshk,hkd->bsd", a, wo)
    f = rmsnorm(x, g2) @ w1
    f = 0.5 * f * (1 + erf(f / np.sqrt(2.0)))
    close("out0", load(d, "out0"), x + f @ w2, rtol=2e-4)


def moe_all_to_all(d):
    w, a = args(d, 2)
    b = load(d, "arg2")
    # The seed's goal, token by token.
    expected = np.stack([a[i] @ w[b[i]] for i in range(len(b))])
    close("out0", load(d, "out0"), expected)


def fori_loop_ring(d):
    (x,) = args(d, 1)
    total = x.reshape(4, 2).sum(0)
    close("out0", load(d, "out0"), np.tile(total, 4))


def fsdp_scan(d):
    x, ws = args(d, 2)
    h = x.astype(np.float64)
    for w in ws.astype(np.float64):
        h = np.maximum(h @ w, 0.0)
    # Four f32 layers grow the values to a few hundred: errors are
    # relative to that scale, also where relu leaves a value near 0.
    close("out0", load(d, "out0"), h, atol=1e-5 * np.abs(h).max())


def fsdp_scan_grad(d):
    # loss = sum(scan(relu(h @ w), x, ws) ** 2) and its gradient in x and
    # ws, by hand.
    x, ws = (a.astype(np.float64) for a in args(d, 2))
    hs, zs = [x], []
    for w in ws:
        zs.append(hs[-1] @ w)
        hs.append(np.maximum(zs[-1], 0.0))
    g, dws = 2.0 * hs[-1], np.zeros_like(ws)
    for layer in reversed(range(len(ws))):
        gz = g * (zs[layer] > 0)
        dws[layer] = hs[layer].T @ gz
        g = gz @ ws[layer].T
    loss = np.sum(hs[-1] ** 2)
    close("out0", load(d, "out0"), np.array(loss), rtol=1e-4)
    close("out1", load(d, "out1"), g, atol=1e-5 * np.abs(g).max())
    close("out2", load(d, "out2"), dws, atol=1e-5 * np.abs(dws).max())


def embedding(d):
    table, _, w = args(d, 3)
    ids = load(d, "arg1").astype(np.int64)
    # jnp indexing: negative ids count from the end, then gather clamps.
    ids = np.clip(np.where(ids < 0, ids + table.shape[0], ids), 0,
                  table.shape[0] - 1)
    close("out0", load(d, "out0"), np.tanh(table[ids] @ w))


mlp_gspmd = mlp


def _bf16(raw):
    """bf16 as trellis-run writes it ('<V2'): the top half of an f32."""
    return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32) \
        .astype(np.float64)


def _round_bf16(x):
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def mlp_bf16(d):
    x, w1, w2 = (_bf16(load(d, f"arg{i}")) for i in range(3))
    h = np.maximum(_round_bf16(x @ w1), 0)
    # The products of bf16 values are exact in f32; the hidden layer's
    # rounding to bf16 can flip by one ulp (2^-8) where f32 accumulation
    # order differs from numpy's, so allow 2^-6 of the result's scale.
    expected = h @ w2
    close("out0", load(d, "out0"), expected, rtol=0,
          atol=2.0**-6 * np.abs(expected).max())


def collective_matmul(d):
    lhs, rhs = args(d, 2)
    close("out0", load(d, "out0"), lhs @ rhs)


def moe_top_k(d):
    x, wg, w1, w2 = args(d, 4)
    logits = x @ wg
    # top-2 by a stable sort of the negated logits (ties: lower index).
    idx = np.argsort(-logits, axis=1, kind="stable")[:, :2]
    vals = np.take_along_axis(logits, idx, axis=1)
    gates = np.exp(vals - vals.max(axis=1, keepdims=True))
    gates /= gates.sum(axis=1, keepdims=True)
    combine = np.zeros(logits.shape)
    np.put_along_axis(combine, idx, gates, axis=1)
    h = np.maximum(np.einsum("td,edf->tef", x, w1), 0)
    y = np.einsum("tef,efd->ted", h, w2)
    close("out0", load(d, "out0"), np.einsum("ted,te->td", y, combine))


def moving_window(d):
    (x,) = args(d, 1)
    p = np.pad(x, ((0, 0), (2, 2)))
    s = sum(p[:, k:k + 64] for k in range(5))
    q = np.pad(s, ((0, 0), (0, 1)), constant_values=-np.inf)
    m = np.stack([q[:, 2 * i:2 * i + 3].max(axis=1) for i in range(32)], axis=1)
    close("out0", load(d, "out0"), m / 5)


def attention_30_heads(d):
    q, k, v, wo = args(d, 4)
    s = np.einsum("hsd,htd->hst", q, k) / np.sqrt(8.0)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    a = np.einsum("hst,htd->hsd", p, v)
    close("out0", load(d, "out0"), np.einsum("hsd,hde->se", a, wo))


ffn_shard_map_gspmd = ffn_shard_map
ffn_shard_map_roundtrip = ffn_shard_map
collective_matmul_gspmd = collective_matmul

CHECKS = {"mlp": mlp, "mlp_gspmd": mlp_gspmd, "mlp_bf16": mlp_bf16,
          "collective_matmul": collective_matmul, "embedding": embedding, "fori_loop_ring": fori_loop_ring, "fsdp_scan": fsdp_scan, "fsdp_scan_grad": fsdp_scan_grad, "moe_all_to_all": moe_all_to_all, "ffn_shard_map": ffn_shard_map,
          "ffn_shard_map_gspmd": ffn_shard_map_gspmd, "moe_top_k": moe_top_k,
          "ffn_shard_map_roundtrip": ffn_shard_map_roundtrip,
          "collective_matmul_gspmd": collective_matmul_gspmd,
          "mlp_train_step": mlp_train_step, "moving_window": moving_window,
          "transformer_block": transformer_block,
          "attention_30_heads": attention_30_heads}

if __name__ == "__main__":
    CHECKS[sys.argv[1]](sys.argv[2])
