"""A scanned layer stack (lax.scan over stacked weights) with jax.checkpoint
(remat), forward and backward, under several shardings."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, mesh, jit, MESHES

L, D, H = 4, 16, 32


def layer(x, p):
    h = jax.nn.gelu(x @ p["w1"] + p["b1"])
    return x + h @ p["w2"], None


def stack(params, x, policy=None, remat=True):
    f = jax.checkpoint(layer, policy=policy) if remat else layer
    return lax.scan(f, x, params)[0]


def init(r, l=L, d=D, h=H):
    return {"w1": normal(r, (l, d, h), scale=d ** -0.5), "b1": normal(r, (l, h), scale=0.1),
            "w2": normal(r, (l, h, d), scale=h ** -0.5)}


def loss(params, x, **kw):
    return jnp.mean(stack(params, x, **kw) ** 2)


def reg(name, f, mesh_name=None, in_specs=None, b=8, long=False, l=L, d=D, h=H):
    @program(name, "scan_remat", long=long)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs), (init(r, l, d, h), normal(r, (b, d))))


DP = ({"w1": P(), "b1": P(), "w2": P()}, P("data"))
TP = ({"w1": P(None, None, "model"), "b1": P(None, "model"), "w2": P(None, "model")}, P("data"))
FSDP = ({"w1": P(None, "data"), "b1": P(), "w2": P(None, None, "data")}, P("data"))

reg("scan_stack_fwd_unsharded", lambda p, x: stack(p, x, remat=False))
reg("scan_stack_remat_fwd_2x4", stack, "2x4", TP)
reg("scan_stack_remat_grad_8", jax.value_and_grad(loss), "8", DP)
reg("scan_stack_remat_grad_2x4", jax.value_and_grad(loss), "2x4", TP)
reg("scan_stack_remat_grad_fsdp_8", jax.grad(loss), "8", FSDP)
reg("scan_stack_remat_dots_saveable_4x2",
    jax.grad(lambda p, x: loss(p, x, policy=jax.checkpoint_policies.dots_saveable)), "4x2", TP)
reg("scan_stack_noremat_grad_2x2x2", jax.grad(lambda p, x: loss(p, x, remat=False)), "2x2x2",
    ({"w1": P(None, None, "model"), "b1": P(None, "model"), "w2": P(None, "model")},
     P(("data", "fsdp"))))
reg("scan_stack_remat_grad_2x4_long", jax.value_and_grad(loss), "2x4", TP, b=2048, long=True,
    l=4, d=1024, h=4096)


def remat_mlp(w1, w2, x):
    f = jax.checkpoint(lambda h: jnp.tanh(jnp.tanh(h @ w1) @ w2))
    return jnp.sum(f(f(x)) ** 2)


@program("remat_nested_grad_2x4", "scan_remat")
def _():
    r = rng("remat_nested_grad_2x4")
    m = mesh(*MESHES["2x4"])
    f = jit(jax.grad(remat_mlp, argnums=(0, 1)), m, (P(None, "model"), P("model"), P("data")))
    return Prog(f, (normal(r, (16, 16), scale=0.3), normal(r, (16, 16), scale=0.3),
                    normal(r, (8, 16))))


reg("scan_stack_unroll2_grad_8", jax.grad(lambda p, x: jnp.mean(
    lax.scan(lambda c, q: layer(c, q), x, p, unroll=2)[0] ** 2)), "8", DP)
reg("scan_stack_save_names_2x4", jax.grad(lambda p, x: loss(
    p, x, policy=jax.checkpoint_policies.nothing_saveable)), "2x4", TP)
