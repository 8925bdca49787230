"""shard_map programs with every collective (psum, pmax, pmin, pmean,
all_gather, psum_scatter, all_to_all, ppermute, axis_index), check_vma on
and off, partially manual ones, ring attention and a GPipe pipeline."""

import functools

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, mesh, jit, MESHES


def vary(x, axes):
    """Marks an invariant carry as varying (check_vma's typing)."""
    try:
        return lax.pcast(x, axes, to="varying")
    except Exception:  # check_vma=False: nothing to mark
        return x


def sm(m, f, in_specs, out_specs, vma=True, axis_names=frozenset()):
    return jax.shard_map(f, mesh=m, in_specs=in_specs, out_specs=out_specs,
                         check_vma=vma, axis_names=set(axis_names))


def simple(name, mesh_name, body, in_specs, out_specs, shapes, vma=True,
           axis_names=frozenset(), note="", long=False):
    @program(name, "shard_map", note=note, long=long)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name])
        args = tuple(normal(r, s) for s in shapes)
        f = jit(sm(m, body, in_specs, out_specs, vma, axis_names))
        return Prog(f, args)


for vma in (True, False):
    s = "" if vma else "_novma"
    simple(f"sm_psum_8{s}", "8", lambda x: lax.psum(jnp.sin(x), "data"),
           (P("data"),), P(), [(16, 8)], vma)
    simple(f"sm_pmax_2x4{s}", "2x4", lambda x: lax.pmax(x, "model"),
           (P("data", "model"),), P("data"), [(8, 16)], vma)
    simple(f"sm_pmin_4x2{s}", "4x2", lambda x: lax.pmin(x * 2, ("data", "model")),
           (P("data", "model"),), P(), [(8, 8)], vma)
    simple(f"sm_all_gather_2x4{s}", "2x4",
           lambda x: lax.all_gather(x, "model", axis=1, tiled=True),
           (P("data", "model"),), P("data", "model"), [(8, 16)], vma)
    simple(f"sm_psum_scatter_2x4{s}", "2x4",
           lambda x: lax.psum_scatter(x, "model", scatter_dimension=0, tiled=True),
           (P("data"),), P(("data", "model")), [(16, 8)], vma)
    simple(f"sm_all_to_all_1x8{s}", "1x8",
           lambda x: lax.all_to_all(x, "model", 0, 1, tiled=True),
           (P(None, "model"),), P("model"), [(16, 16)], vma)
    simple(f"sm_ppermute_ring_8{s}", "8",
           lambda x: lax.ppermute(x, "data", [(i, (i + 1) % 8) for i in range(8)]),
           (P("data"),), P("data"), [(16, 4)], vma)
    simple(f"sm_axis_index_2x4{s}", "2x4",
           lambda x: x + lax.axis_index("model").astype(jnp.float32)
           + 10 * lax.axis_index("data").astype(jnp.float32),
           (P("data", "model"),), P("data", "model"), [(4, 8)], vma)

simple("sm_all_gather_untiled_8", "8",
       lambda x: lax.all_gather(x, "data", axis=0, tiled=False).sum(0),
       (P("data"),), P(), [(8, 4)], vma=False)
simple("sm_all_gather_replicated_out_novma", "2x4",
       lambda x: lax.all_gather(x, "model", axis=0, tiled=True),
       (P("model"),), P(), [(16, 4)], vma=False,
       note="all_gather leaving with a replicated out spec, check_vma=False")
simple("sm_pmean_2x2x2", "2x2x2", lambda x: lax.pmean(x, ("data", "model")),
       (P(("data", "model"), "fsdp"),), P(None, "fsdp"), [(8, 8)])
simple("sm_psum_two_axes_2x4", "2x4", lambda x: lax.psum(x, ("data", "model")),
       (P("data", "model"),), P(), [(4, 8)])
simple("sm_all_to_all_2x2x2", "2x2x2",
       lambda x: lax.all_to_all(x, ("fsdp", "model"), 1, 0, tiled=True),
       (P(("fsdp", "model")),), P(None, ("fsdp", "model")), [(16, 8)])
simple("sm_ppermute_bidir_4x2", "4x2",
       lambda x: lax.ppermute(x, "data", [(i, (i + 1) % 4) for i in range(4)])
       - lax.ppermute(x, "data", [(i, (i - 1) % 4) for i in range(4)]),
       (P("data", "model"),), P("data", "model"), [(8, 8)])
simple("sm_relu_call_2x4", "2x4",
       lambda x, w: lax.psum(jax.nn.relu(x @ w), "model"),
       (P("data", "model"), P("model")), P("data"), [(8, 16), (16, 8)],
       note="jax.nn.relu is a private func.call inside the manual computation")
simple("sm_partial_manual_2x4", "2x4",
       lambda x: lax.psum(x * 2.0, "model"),
       (P(None, "model"),), P(), [(8, 16)], axis_names={"model"},
       note="manual over model only; data stays automatic")
simple("sm_axis_index_where_8", "8",
       lambda x: jnp.where(lax.axis_index("data") % 2 == 0, x, -x),
       (P("data"),), P("data"), [(16, 4)])


def collective_matmul(x, w):
    # all-gather matmul: x blocks travel around the ring (JAX shard_map docs).
    n = lax.axis_size("model")
    idx = lax.axis_index("model")
    blk = x.shape[0]
    out = vary(jnp.zeros((blk * n, w.shape[1]), x.dtype), "model")

    def step(i, carry):
        out, x = carry
        src = (idx - i) % n
        out = lax.dynamic_update_slice(out, x @ w, (src * blk, 0))
        x = lax.ppermute(x, "model", [(j, (j + 1) % n) for j in range(n)])
        return out, x
    out, _ = lax.fori_loop(0, n, step, (out, x))
    return out


simple("sm_collective_matmul_1x8", "1x8", collective_matmul,
       (P("model"), P(None, "model")), P(None, "model"), [(16, 8), (8, 16)])


def ring_attention(q, k, v):
    # q, k, v: [seq_block, d]; blocks of k, v rotate around "data".
    n = lax.axis_size("data")
    perm = [(j, (j + 1) % n) for j in range(n)]
    m = jnp.full((q.shape[0],), -jnp.inf, q.dtype)
    l = jnp.zeros((q.shape[0],), q.dtype)
    o = jnp.zeros_like(q)
    m, l = vary(m, "data"), vary(l, "data")

    def step(i, c):
        m, l, o, k, v = c
        s = q @ k.T / jnp.sqrt(q.shape[-1]).astype(q.dtype)
        m2 = jnp.maximum(m, s.max(-1))
        p = jnp.exp(s - m2[:, None])
        a = jnp.exp(m - m2)
        l = l * a + p.sum(-1)
        o = o * a[:, None] + p @ v
        k = lax.ppermute(k, "data", perm)
        v = lax.ppermute(v, "data", perm)
        return m2, l, o, k, v
    m, l, o, _, _ = lax.fori_loop(0, n, step, (m, l, o, k, v))
    return o / l[:, None]


simple("sm_ring_attention_8", "8", ring_attention,
       (P("data"), P("data"), P("data")), P("data"), [(32, 8)] * 3)


def gpipe(params, x):
    # JAX shard_map docs' pipeline: one stage (layer) per device of "data",
    # microbatches shifted with ppermute each step.
    stage = lax.axis_index("data")
    n = lax.axis_size("data")
    nmb = x.shape[0]
    w = params[0]
    perm = [(i, (i + 1) % n) for i in range(n)]
    state = jnp.zeros(x.shape[1:], x.dtype)
    outs = jnp.zeros_like(x)
    state, outs = vary(state, "data"), vary(outs, "data")

    def step(t, c):
        state, outs = c
        inp = jnp.where(stage == 0, x[t % nmb], state)
        y = jnp.tanh(inp @ w)
        outs = jnp.where((stage == n - 1) & (t >= n - 1),
                         outs.at[(t - n + 1) % nmb].set(y), outs)
        state = lax.ppermute(y, "data", perm)
        return state, outs
    _, outs = lax.fori_loop(0, nmb + n - 1, step, (state, outs))
    return lax.psum(jnp.where(stage == n - 1, outs, 0.0), "data")


@program("sm_gpipe_4", "shard_map")
def _():
    name = "sm_gpipe_4"
    r = rng(name)
    m = mesh((4, 2), ("data", "model"))
    params = normal(r, (4, 16, 16), scale=0.25)
    x = normal(r, (6, 4, 16))
    f = jit(sm(m, gpipe, (P("data"), P()), P(), axis_names={"data"}))
    return Prog(f, (params, x))


@program("sm_gpipe_8_novma", "shard_map")
def _():
    name = "sm_gpipe_8_novma"
    r = rng(name)
    m = mesh((8,), ("data",))
    params = normal(r, (8, 8, 8), scale=0.3)
    x = normal(r, (4, 2, 8))
    f = jit(sm(m, gpipe, (P("data"), P()), P(), vma=False))
    return Prog(f, (params, x))


@program("sm_inside_jit_2x4", "shard_map")
def _():
    # A shard_map between automatically sharded ops.
    name = "sm_inside_jit_2x4"
    r = rng(name)
    m = mesh((2, 4), ("data", "model"))
    x, w = normal(r, (8, 16)), normal(r, (16, 16))
    inner = sm(m, lambda a, b: lax.psum(a @ b, "model"),
               (P("data", "model"), P("model")), P("data"))

    def f(x, w):
        return jnp.tanh(inner(jnp.exp(x * 0.1), w)) + x.sum()
    return Prog(jit(f, m, (P("data"), P())), (x, w))


# Realistic sizes (>= 1 GFLOP per device): generate.py --long.
simple("sm_collective_matmul_1x8_long", "1x8", collective_matmul,
       (P("model"), P(None, "model")), P(None, "model"), [(4096, 2048), (2048, 4096)],
       long=True)
simple("sm_ring_attention_8_long", "8", ring_attention,
       (P("data"), P("data"), P("data")), P("data"), [(8192, 128)] * 3, long=True)


@program("sm_gpipe_4_long", "shard_map", long=True)
def _():
    name = "sm_gpipe_4_long"
    r = rng(name)
    m = mesh((4, 2), ("data", "model"))
    params = normal(r, (4, 1024, 1024), scale=1024 ** -0.5)
    x = normal(r, (16, 128, 1024))
    f = jit(sm(m, gpipe, (P("data"), P()), P(), axis_names={"data"}))
    return Prog(f, (params, x))

simple("sm_axis_index_psum_2x4", "2x4",
       lambda x: lax.psum(x * (1.0 + lax.axis_index("model").astype(jnp.float32)), "model"),
       (P("data", "model"),), P("data"), [(8, 16)],
       note="a value made from axis_index(model), reduced over model only")
simple("sm_psum_scatter_4x2", "4x2",
       lambda x: lax.psum_scatter(x, "data", scatter_dimension=1, tiled=True),
       (P(None, "model"),), P(None, ("model", "data")), [(8, 16)])
simple("sm_all_to_all_4x2", "4x2",
       lambda x: lax.all_to_all(x, "data", 1, 0, tiled=True),
       (P("data", "model"),), P(None, ("model", "data")), [(16, 8)])
simple("sm_ppermute_2x2x2", "2x2x2",
       lambda x: lax.ppermute(x, ("data", "model"), [(0, 3), (3, 0), (1, 2), (2, 1)]),
       (P(("data", "model"), "fsdp"),), P(("data", "model"), "fsdp"), [(8, 8)])
