"""A Llama-style decoder layer: RMSNorm, rotary embeddings, grouped-query
attention with a causal mask, SwiGLU; a KV-cache decode step
(dynamic_update_slice); jax.nn.dot_product_attention."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, ints, mesh, jit, MESHES


def rmsnorm(x, g, eps=1e-6):
    return x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + eps) * g


def rope(x, pos, theta=10000.0):
    # x: [b, s, h, d]; pos: [s] (int32)
    d = x.shape[-1]
    freqs = theta ** (-jnp.arange(0, d, 2, dtype=jnp.float32) / d)
    ang = pos.astype(jnp.float32)[:, None] * freqs[None, :]
    cos, sin = jnp.cos(ang)[None, :, None, :], jnp.sin(ang)[None, :, None, :]
    x1, x2 = x[..., ::2], x[..., 1::2]
    out = jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1)
    return out.reshape(x.shape)


def attention(q, k, v, mask):
    # q: [b, s, hq, d], k, v: [b, t, hkv, d]; grouped-query by repeat.
    rep = q.shape[2] // k.shape[2]
    k = jnp.repeat(k, rep, axis=2)
    v = jnp.repeat(v, rep, axis=2)
    s = jnp.einsum("bshd,bthd->bhst", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    s = jnp.where(mask, s, -1e30)
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("bhst,bthd->bshd", p, v)


def decoder_layer(p, x, pos):
    b, s, dm = x.shape
    hq, hkv, hd = p["wq"].shape[1], p["wk"].shape[1], p["wq"].shape[2]
    h = rmsnorm(x, p["g1"])
    q = rope(jnp.einsum("bsm,mhd->bshd", h, p["wq"]), pos)
    k = rope(jnp.einsum("bsm,mhd->bshd", h, p["wk"]), pos)
    v = jnp.einsum("bsm,mhd->bshd", h, p["wv"])
    mask = (pos[:, None] >= pos[None, :])[None, None]
    a = attention(q, k, v, mask)
    x = x + jnp.einsum("bshd,hdm->bsm", a, p["wo"])
    h = rmsnorm(x, p["g2"])
    ff = jax.nn.silu(h @ p["w_gate"]) * (h @ p["w_up"])
    return x + ff @ p["w_down"]


def init(r, dm=32, hq=16, hkv=8, hd=4, dff=64):
    return {
        "g1": 1.0 + normal(r, (dm,), scale=0.1),
        "wq": normal(r, (dm, hq, hd), scale=dm ** -0.5),
        "wk": normal(r, (dm, hkv, hd), scale=dm ** -0.5),
        "wv": normal(r, (dm, hkv, hd), scale=dm ** -0.5),
        "wo": normal(r, (hq, hd, dm), scale=(hq * hd) ** -0.5),
        "g2": 1.0 + normal(r, (dm,), scale=0.1),
        "w_gate": normal(r, (dm, dff), scale=dm ** -0.5),
        "w_up": normal(r, (dm, dff), scale=dm ** -0.5),
        "w_down": normal(r, (dff, dm), scale=dff ** -0.5),
    }


def tp_specs(m="model"):
    return {"g1": P(), "wq": P(None, m), "wk": P(None, m), "wv": P(None, m),
            "wo": P(m), "g2": P(), "w_gate": P(None, m), "w_up": P(None, m),
            "w_down": P(m)}


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None,
        family="llama", note="", tol=None, long=False):
    @program(name, family, note=note, tol=tol, long=long)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


reg("rmsnorm_2x4", rmsnorm, lambda r: (normal(r, (8, 4, 32)), normal(r, (32,))), "2x4",
    (P("data"), P()))
reg("rope_2x4", rope, lambda r: (normal(r, (2, 8, 4, 8)), np.arange(8, dtype=np.int32)),
    "2x4", (P("data", None, "model"), P()))
reg("gqa_causal_attention_2x4",
    lambda q, k, v: attention(q, k, v, jnp.tril(jnp.ones((q.shape[1], k.shape[1]), bool))),
    lambda r: (normal(r, (2, 8, 4, 8)), normal(r, (2, 8, 2, 8)), normal(r, (2, 8, 2, 8))),
    "2x4", (P("data", None, "model"),) * 3 if False else
    (P("data", None, None), P("data"), P("data")))
reg("swiglu_tp_1x8", lambda x, wg, wu, wd: (jax.nn.silu(x @ wg) * (x @ wu)) @ wd,
    lambda r: (normal(r, (16, 32)), normal(r, (32, 64), scale=0.2), normal(r, (32, 64), scale=0.2),
               normal(r, (64, 32), scale=0.12)), "1x8",
    (P(), P(None, "model"), P(None, "model"), P("model")))

SHAPE = (4, 8, 32)
for mn, xs in [("1x8", P()), ("2x4", P("data")), ("4x2", P("data")), ("2x2x2", P(("data", "fsdp")))]:
    reg(f"decoder_layer_tp_{mn}", decoder_layer,
        lambda r: (init(r), normal(r, SHAPE), np.arange(8, dtype=np.int32)),
        mn, (tp_specs(), xs, P()) if mn != "1x8" else (tp_specs(), P(), P()))
reg("decoder_layer_unsharded", decoder_layer,
    lambda r: (init(r), normal(r, SHAPE), np.arange(8, dtype=np.int32)))


def layer_loss(p, x, pos):
    return jnp.mean(decoder_layer(p, x, pos) ** 2)


reg("decoder_layer_grad_2x4", jax.value_and_grad(layer_loss),
    lambda r: (init(r), normal(r, SHAPE), np.arange(8, dtype=np.int32)), "2x4",
    (tp_specs(), P("data"), P()))


def decode_step(p, x, kc, vc, t):
    # One token: x [b, 1, dm]; caches [b, T, hkv, hd]; t: position (int32).
    pos = t[None]
    h = rmsnorm(x, p["g1"])
    q = rope(jnp.einsum("bsm,mhd->bshd", h, p["wq"]), pos)
    k = rope(jnp.einsum("bsm,mhd->bshd", h, p["wk"]), pos)
    v = jnp.einsum("bsm,mhd->bshd", h, p["wv"])
    kc = lax.dynamic_update_slice(kc, k, (0, t, 0, 0))
    vc = lax.dynamic_update_slice(vc, v, (0, t, 0, 0))
    mask = (jnp.arange(kc.shape[1]) <= t)[None, None, None, :]
    a = attention(q, kc, vc, mask)
    x = x + jnp.einsum("bshd,hdm->bsm", a, p["wo"])
    h = rmsnorm(x, p["g2"])
    x = x + (jax.nn.silu(h @ p["w_gate"]) * (h @ p["w_up"])) @ p["w_down"]
    return x, kc, vc


for mn, cs in [("2x4", P("data", None, "model")), ("1x8", P(None, None, "model"))]:
    reg(f"kv_cache_decode_{mn}", decode_step,
        lambda r: (init(r), normal(r, (4, 1, 32)), normal(r, (4, 16, 8, 4)),
                   normal(r, (4, 16, 8, 4)), np.int32(5)),
        mn, (tp_specs(), P(), cs, cs, P()),
        note="caches sharded over kv heads" if mn else "")
reg("kv_cache_decode_unsharded", decode_step,
    lambda r: (init(r), normal(r, (4, 1, 32)), normal(r, (4, 16, 8, 4)),
               normal(r, (4, 16, 8, 4)), np.int32(9)))

reg("dot_product_attention_2x4",
    lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True),
    lambda r: (normal(r, (2, 8, 4, 8)), normal(r, (2, 8, 4, 8)), normal(r, (2, 8, 4, 8))),
    "2x4", (P("data", None, "model"),) * 3)
reg("dot_product_attention_gqa_bias",
    lambda q, k, v, b: jax.nn.dot_product_attention(q, k, v, bias=b),
    lambda r: (normal(r, (1, 6, 4, 8)), normal(r, (1, 6, 2, 8)), normal(r, (1, 6, 2, 8)),
               normal(r, (1, 4, 6, 6))))

# Realistic size: >= 1 GFLOP per device.
reg("decoder_layer_tp_2x4_long", decoder_layer,
    lambda r: (init(r, dm=1024, hq=16, hkv=8, hd=64, dff=4096), normal(r, (8, 256, 1024)),
               np.arange(256, dtype=np.int32)),
    "2x4", (tp_specs(), P("data"), P()), long=True)

reg("dot_product_attention_2x4_long",
    lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True),
    lambda r: (normal(r, (8, 1024, 16, 64)), normal(r, (8, 1024, 16, 64)),
               normal(r, (8, 1024, 16, 64))),
    "2x4", (P("data", None, "model"),) * 3, long=True)
