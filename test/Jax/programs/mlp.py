"""MLPs and their training steps (value_and_grad, SGD, Adam written in jnp)
under data, fully-sharded data, tensor and data x tensor parallelism."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, mesh, jit, MESHES


def mlp(params, x):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    h = jax.nn.gelu(h @ params["w2"] + params["b2"])
    return h @ params["w3"]


def loss_fn(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


def init(r, din, dh, dout):
    return {
        "w1": normal(r, (din, dh), scale=din ** -0.5),
        "b1": normal(r, (dh,), scale=0.1),
        "w2": normal(r, (dh, dh), scale=dh ** -0.5),
        "b2": normal(r, (dh,), scale=0.1),
        "w3": normal(r, (dh, dout), scale=dh ** -0.5),
    }


# Strategy -> (specs of x, params). Axis names per mesh.
def specs(strategy, names):
    if len(names) == 1:
        d, m = names[0], None
        dd = d
    elif len(names) == 2:
        d, m = names
        dd = d
    else:
        d, f, m = names
        dd = (d, f)
    if strategy == "dp":
        all_axes = tuple(names) if len(names) > 1 else names[0]
        return P(all_axes), {k: P() for k in ("w1", "b1", "w2", "b2", "w3")}
    if strategy == "fsdp":
        all_axes = tuple(names) if len(names) > 1 else names[0]
        return P(all_axes), {"w1": P(None, all_axes), "b1": P(all_axes),
                             "w2": P(all_axes, None), "b2": P(),
                             "w3": P(all_axes, None)}
    if strategy == "tp":
        t = tuple(names) if len(names) > 1 else names[0]
        return P(), {"w1": P(None, t), "b1": P(t), "w2": P(t, None),
                     "b2": P(), "w3": P(None, t)}
    if strategy == "dptp":
        return P(dd), {"w1": P(None, m), "b1": P(m), "w2": P(m, None),
                       "b2": P(), "w3": P(None, m)}
    raise ValueError(strategy)


def make_forward(name, strategy, mesh_name, b=16, din=32, dh=64, dout=16):
    @program(name, "mlp")
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name])
        xs, ps = specs(strategy, MESHES[mesh_name][1])
        params = init(r, din, dh, dout)
        x = normal(r, (b, din))
        return Prog(jit(mlp, m, (ps, xs)), (params, x))


def adam(params, grads, m, v, t, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    mhat = jax.tree.map(lambda m: m / (1 - b1 ** t), m)
    vhat = jax.tree.map(lambda v: v / (1 - b2 ** t), v)
    params = jax.tree.map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + eps),
                          params, mhat, vhat)
    return params, m, v


def train_step_adam(params, m, v, t, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    params, m, v = adam(params, grads, m, v, t)
    return params, m, v, loss


def train_step_sgd(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


def make_train(name, strategy, mesh_name, opt, b=16, din=32, dh=64, dout=16, long=False):
    @program(name, "mlp_train", long=long)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name])
        xs, ps = specs(strategy, MESHES[mesh_name][1])
        params = init(r, din, dh, dout)
        x = normal(r, (b, din))
        y = normal(r, (b, dout))
        if opt == "sgd":
            f = jit(train_step_sgd, m, (ps, xs, xs), (ps, P()))
            return Prog(f, (params, x, y))
        mm = jax.tree.map(lambda p: normal(r, p.shape, scale=0.01), params)
        vv = jax.tree.map(lambda p: np.abs(normal(r, p.shape, scale=1e-3)),
                          params)
        t = np.array(3.0, np.float32)
        f = jit(train_step_adam, m, (ps, ps, ps, P(), xs, xs),
                (ps, ps, ps, P()))
        return Prog(f, (params, mm, vv, t, x, y))


for strat, meshes in [("dp", ["8", "2x4"]), ("fsdp", ["8", "2x2x2"]),
                      ("tp", ["1x8", "4x2"]), ("dptp", ["2x4", "4x2", "2x2x2"])]:
    for mn in meshes:
        make_forward(f"mlp_{strat}_{mn}", strat, mn)

for strat, mn, opt in [("dp", "8", "sgd"), ("dp", "2x4", "adam"),
                       ("fsdp", "8", "adam"), ("fsdp", "2x2x2", "sgd"),
                       ("tp", "1x8", "adam"), ("tp", "4x2", "sgd"),
                       ("dptp", "2x4", "adam"), ("dptp", "4x2", "adam"),
                       ("dptp", "2x2x2", "adam")]:
    make_train(f"mlp_train_{opt}_{strat}_{mn}", strat, mn, opt)

# An unsharded MLP (no shardings at all; runs on one device).
@program("mlp_unsharded", "mlp")
def _():
    r = rng("mlp_unsharded")
    return Prog(jit(mlp), (init(r, 32, 64, 16), normal(r, (16, 32))))


# Realistic sizes (>= 1 GFLOP per device): generate.py --long.
make_forward_long = [("mlp_dptp_2x4_long", "dptp", "2x4", 1024, 1024, 4096, 1024)]
for n, s, mn, b, din, dh, dout in make_forward_long:
    def _reg(n=n, s=s, mn=mn, b=b, din=din, dh=dh, dout=dout):
        @program(n, "mlp", long=True)
        def build():
            r = rng(n)
            m = mesh(*MESHES[mn])
            xs, ps = specs(s, MESHES[mn][1])
            return Prog(jit(mlp, m, (ps, xs)), (init(r, din, dh, dout),
                                                normal(r, (b, din))))
    _reg()


make_train("mlp_train_adam_dptp_2x4_long", "dptp", "2x4", "adam", 512, 1024, 4096, 1024,
           long=True)
