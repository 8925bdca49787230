"""Control flow: lax.cond, lax.switch, while_loop, fori_loop, scan,
associative_scan, cumsum/cumprod/cummax, sharded and unsharded."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, ints, mesh, jit, MESHES


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None,
        note=""):
    @program(name, "control", note=note)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


def cond_f(x, y):
    return lax.cond(x.sum() > y.sum(), lambda a, b: a * b + 1.0,
                    lambda a, b: a - jnp.sin(b), x, y)


reg("cond_2x4", cond_f, lambda r: (normal(r, (8, 16)), normal(r, (8, 16))),
    "2x4", (P("data", "model"), P("data", "model")))
reg("cond_unsharded", cond_f,
    lambda r: (normal(r, (4, 4)), normal(r, (4, 4)) + 1.0))


def cond_index_f(p, x):
    return lax.cond(p[0] > 0, lambda v: v @ v.T, lambda v: -(v @ v.T), x)


reg("cond_pred_arg_8", cond_index_f,
    lambda r: (np.array([1], np.int32), normal(r, (16, 8))), "8", (P(), P("data")))


def switch_f(i, x):
    return lax.switch(i, [lambda v: v + 1.0, lambda v: jnp.exp(v * 0.1),
                          lambda v: v @ v.T[:, :v.shape[1]]], x)


for k in (0, 2, 5):
    reg(f"switch_{k}_2x4", switch_f,
        lambda r, k=k: (np.int32(k), normal(r, (8, 8))), "2x4", (P(), P("data")),
        note="index 5 is clamped to the last branch")


def while_newton(x):
    # Newton iterations for sqrt until converged (data-dependent trip count).
    def cond(c):
        i, y = c
        return (i < 50) & (jnp.max(jnp.abs(y * y - x)) > 1e-5)

    def body(c):
        i, y = c
        return i + 1, 0.5 * (y + x / y)
    i, y = lax.while_loop(cond, body, (0, jnp.ones_like(x)))
    return i, y


reg("while_newton_unsharded", while_newton, lambda r: (np.abs(normal(r, (16,))) + 0.5,))
reg("while_newton_8", while_newton, lambda r: (np.abs(normal(r, (64,))) + 0.5,),
    "8", (P("data"),),
    note="the condition reads a reduction of a sharded value (issue 48)")


def while_count(n, x):
    return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 1.1 + 0.5),
                          (jnp.int32(0), x))[1]


reg("while_counter_2x4", while_count, lambda r: (np.int32(5), normal(r, (8, 16))),
    "2x4", (P(), P("data", "model")))


def fori_f(x, w):
    return lax.fori_loop(0, 4, lambda i, h: jnp.tanh(h @ w + i), x)


reg("fori_loop_2x4", fori_f, lambda r: (normal(r, (8, 16)), normal(r, (16, 16), scale=0.3)),
    "2x4", (P("data"), P(None, "model")))
reg("fori_loop_unrolled_8", lambda x: lax.fori_loop(0, 3, lambda i, h: h * 2 - i, x,
                                                     unroll=True),
    lambda r: (normal(r, (16, 4)),), "8", (P("data"),))


def fori_dynamic(n, x):
    return lax.fori_loop(0, n, lambda i, h: h + jnp.cos(h) * i, x)


reg("fori_loop_dynamic_bound", fori_dynamic, lambda r: (np.int32(3), normal(r, (8,))))


def rnn_scan(h0, xs, w, u):
    def step(h, x):
        h = jnp.tanh(h @ w + x @ u)
        return h, h.sum(-1)
    return lax.scan(step, h0, xs)


reg("scan_rnn_2x4", rnn_scan,
    lambda r: (normal(r, (8, 16)), normal(r, (5, 8, 8)), normal(r, (16, 16), scale=0.3),
               normal(r, (8, 16), scale=0.3)),
    "2x4", (P("data"), P(None, "data"), P(), P()))
reg("scan_rnn_unsharded", rnn_scan,
    lambda r: (normal(r, (2, 4)), normal(r, (6, 2, 3)), normal(r, (4, 4), scale=0.5),
               normal(r, (3, 4), scale=0.5)))
reg("scan_reverse_8", lambda xs: lax.scan(lambda c, x: (c * 0.5 + x, c), jnp.zeros(xs.shape[1:]),
                                          xs, reverse=True),
    lambda r: (normal(r, (6, 16)),), "8", (P(None, "data"),))


def assoc(x):
    return lax.associative_scan(jnp.add, x, axis=1), lax.associative_scan(jnp.maximum, x, axis=0)


reg("associative_scan_8", assoc, lambda r: (normal(r, (8, 16)),), "8", (P("data"),))
reg("associative_scan_unsharded", assoc, lambda r: (normal(r, (5, 7)),))


def linear_recurrence(a, b):
    # h_t = a_t * h_{t-1} + b_t by associative_scan (as in S4/Mamba code).
    def op(x, y):
        return y[0] * x[0], y[0] * x[1] + y[1]
    return lax.associative_scan(op, (a, b), axis=0)[1]


reg("associative_scan_recurrence", linear_recurrence,
    lambda r: (np.tanh(normal(r, (16, 4))), normal(r, (16, 4))))


def cums(x):
    return jnp.cumsum(x, 1), jnp.cumprod(1.0 + 0.1 * x, 0), lax.cummax(x, 1), \
        lax.cummin(x, 0), jnp.cumsum(x.astype(jnp.int32), 0)


reg("cumsum_family_2x4", cums, lambda r: (normal(r, (8, 16), scale=3.0),), "2x4",
    (P("data", "model"),))
reg("cumsum_family_unsharded", cums, lambda r: (normal(r, (4, 6), scale=3.0),))
reg("cumlogsumexp", lambda x: lax.cumlogsumexp(x, axis=0), lambda r: (normal(r, (8, 4)),))


def nested(x):
    def outer(c, xi):
        c = lax.fori_loop(0, 3, lambda j, cc: cc * 0.9 + xi, c)
        c = lax.cond(c.sum() > 0, lambda v: v - 1.0, lambda v: v + 1.0, c)
        return c, c.max()
    return lax.scan(outer, jnp.zeros(x.shape[1:]), x)


reg("nested_scan_fori_cond_8", nested, lambda r: (normal(r, (4, 16)),), "8", (P(None, "data"),))


def while_sharded_cond(x):
    # A loop whose condition reads a reduction of a value sharded over two
    # axes.
    return lax.while_loop(lambda v: jnp.sum(v) < 1000.0, lambda v: v * 1.5 + 0.1, x)


reg("while_sharded_cond_2x4", while_sharded_cond, lambda r: (np.abs(normal(r, (8, 16))),),
    "2x4", (P("data", "model"),),
    note="condition reads a reduction of a sharded value (issue 48 defect)")

reg("fori_loop_4x2", fori_f, lambda r: (normal(r, (8, 16)), normal(r, (16, 16), scale=0.3)),
    "4x2", (P("data"), P(None, "model")))
reg("scan_rnn_2x2x2", rnn_scan,
    lambda r: (normal(r, (8, 16)), normal(r, (5, 8, 8)), normal(r, (16, 16), scale=0.3),
               normal(r, (8, 16), scale=0.3)),
    "2x2x2", (P(("data", "fsdp")), P(None, ("data", "fsdp")), P(None, "model"), P()))
reg("cond_1x8", cond_f, lambda r: (normal(r, (8, 16)), normal(r, (8, 16))),
    "1x8", (P(None, "model"), P(None, "model")))
reg("while_newton_2x2x2", while_newton, lambda r: (np.abs(normal(r, (8, 8))) + 0.5,),
    "2x2x2", (P(("data", "fsdp"), "model"),))
