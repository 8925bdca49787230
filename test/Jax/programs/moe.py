"""Mixture of experts: top-k router, capacity dispatch by one-hot einsum, a
dropless form with argsort + gather/scatter, expert parallelism by
all_to_all in shard_map."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, mesh, jit, MESHES

E, D, F = 8, 16, 32


def init(r, e=E, d=D, f=F):
    return {"router": normal(r, (d, e), scale=d ** -0.5),
            "w1": normal(r, (e, d, f), scale=d ** -0.5),
            "w2": normal(r, (e, f, d), scale=f ** -0.5)}


def router(p, x, k):
    logits = x @ p["router"]
    probs = jax.nn.softmax(logits, -1)
    gate, idx = lax.top_k(probs, k)
    return gate / gate.sum(-1, keepdims=True), idx


def moe_capacity(p, x, k=2, cap=4):
    # x: [tokens, d]. GShard-style: one-hot dispatch/combine tensors.
    t = x.shape[0]
    gate, idx = router(p, x, k)
    oh = jax.nn.one_hot(idx, E)  # [t, k, e]
    pos = jnp.cumsum(oh.reshape(t * k, E), 0).reshape(t, k, E) * oh - 1  # slot
    keep = (pos < cap) & (oh > 0)
    slot = jax.nn.one_hot(jnp.where(keep, pos, -1).max(1).astype(jnp.int32), cap)  # [t,e,c]
    dispatch = slot * keep.any(1)[..., None]
    combine = dispatch * (gate[..., None] * oh).sum(1)[..., None]
    xe = jnp.einsum("tec,td->ecd", dispatch, x)
    h = jax.nn.gelu(jnp.einsum("ecd,edf->ecf", xe, p["w1"]))
    ye = jnp.einsum("ecf,efd->ecd", h, p["w2"])
    return jnp.einsum("tec,ecd->td", combine, ye)


def moe_dropless(p, x, k=2):
    # Sort token copies by expert, run each expert on its (padded) group via
    # gather, scatter-add the results back.
    t = x.shape[0]
    gate, idx = router(p, x, k)
    flat_e = idx.reshape(-1)
    order = jnp.argsort(flat_e, stable=True)
    tok = order // k
    xs = x[tok]  # [t*k, d]
    es = flat_e[order]
    w1 = p["w1"][es]  # [t*k, d, f] (gather of expert weights)
    w2 = p["w2"][es]
    h = jax.nn.gelu(jnp.einsum("nd,ndf->nf", xs, w1))
    ys = jnp.einsum("nf,nfd->nd", h, w2) * gate.reshape(-1)[order][:, None]
    return jnp.zeros_like(x).at[tok].add(ys)


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None, note="",
        long=False):
    @program(name, "moe", note=note, long=long)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


EP = {"router": P(), "w1": P("model"), "w2": P("model")}
reg("moe_router_top2", lambda p, x: router(p, x, 2), lambda r: (init(r), normal(r, (16, D))))
reg("moe_capacity_unsharded", moe_capacity, lambda r: (init(r), normal(r, (16, D))))
reg("moe_capacity_2x4", moe_capacity, lambda r: (init(r), normal(r, (16, D))), "2x4",
    (EP, P("data")))
reg("moe_capacity_1x8", moe_capacity, lambda r: (init(r), normal(r, (16, D))), "1x8",
    (EP, P()))
reg("moe_dropless_unsharded", moe_dropless, lambda r: (init(r), normal(r, (12, D))))
reg("moe_dropless_8", moe_dropless, lambda r: (init(r), normal(r, (16, D))), "8",
    ({"router": P(), "w1": P("data"), "w2": P("data")}, P()))
reg("moe_capacity_grad_2x4",
    jax.grad(lambda p, x: jnp.mean(moe_capacity(p, x) ** 2)),
    lambda r: (init(r), normal(r, (16, D))), "2x4", (EP, P("data")))


def ep_all_to_all(m, axis, cap=4):
    # Expert parallelism (one expert per device of `axis`): each device routes
    # its tokens top-1, packs [experts, cap, d] and exchanges with all_to_all.
    n = m.shape[axis]

    def body(p, x):
        t = x.shape[0]
        logits = x @ p["router"]
        e = jnp.argmax(logits, -1)
        g = jax.nn.softmax(logits, -1).max(-1)
        oh = jax.nn.one_hot(e, n)
        pos = (jnp.cumsum(oh, 0) * oh).sum(-1).astype(jnp.int32) - 1
        keep = pos < cap
        disp = jax.nn.one_hot(jnp.where(keep, pos, cap), cap)[:, None, :] * oh[:, :, None]
        packed = jnp.einsum("tec,td->ecd", disp, x)  # [n, cap, d]
        recv = lax.all_to_all(packed, axis, 0, 0, tiled=True)  # [n, cap, d] from each src
        h = jax.nn.gelu(recv.reshape(-1, x.shape[1]) @ p["w1"][0])
        y = (h @ p["w2"][0]).reshape(n, cap, -1)
        back = lax.all_to_all(y, axis, 0, 0, tiled=True)
        return jnp.einsum("tec,ecd->td", disp, back) * g[:, None]
    return jax.shard_map(body, mesh=m,
                         in_specs=({"router": P(), "w1": P(axis), "w2": P(axis)}, P(axis)),
                         out_specs=P(axis))


for mn, ax in [("8", "data"), ("2x4", "model")]:
    def _r(mn=mn, ax=ax):
        name = f"moe_ep_all_to_all_{mn}"

        @program(name, "moe")
        def build():
            r = rng(name)
            m = mesh(*MESHES[mn])
            n = m.shape[ax]
            p = init(r, e=n)
            return Prog(jit(ep_all_to_all(m, ax)), (p, normal(r, (8 * n, D))))
    _r()


reg("moe_capacity_2x4_long", lambda p, x: moe_capacity(p, x, cap=512),
    lambda r: (init(r, d=512, f=2048), normal(r, (2048, 512))), "2x4", (EP, P("data")),
    long=True)

reg("moe_capacity_4x2", moe_capacity, lambda r: (init(r), normal(r, (16, D))), "4x2",
    (EP, P("data")))
reg("moe_capacity_2x2x2", moe_capacity, lambda r: (init(r), normal(r, (16, D))), "2x2x2",
    (EP, P(("data", "fsdp"))))
reg("moe_router_top2_1x8", lambda p, x: router(p, x, 2), lambda r: (init(r), normal(r, (16, D))),
    "1x8", ({"router": P(None, "model"), "w1": P(), "w2": P()}, P()))
