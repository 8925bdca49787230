"""Sharding annotations: explicit sharding mode (AxisType.Explicit, reshard,
out_sharding, unreduced), with_sharding_constraint, shard_alike, device_put
with memory kinds, uneven shardings, and programs in GSPMD form."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

from common import program, Prog, rng, normal, mesh, jit, MESHES, ns


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None,
        note="", gspmd=False, family="sharding", ctx_mesh=False):
    @program(name, family, note=note, gspmd=gspmd)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r),
                    ctx=jax.set_mesh(m) if ctx_mesh else None)


def explicit(name, f, make_args, mesh_name, in_specs, note=""):
    @program(name, "explicit", note=note)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name], explicit=True)
        args = make_args(r)
        placed = tuple(jax.device_put(a, NamedSharding(m, s)) for a, s in zip(args, in_specs))
        return Prog(jax.jit(f, keep_unused=True), args, ctx=jax.set_mesh(m), call_args=placed)


explicit("explicit_matmul_reshard_2x4",
         lambda x, w: jax.sharding.reshard(jnp.tanh(x @ w), P(None, "model")),
         lambda r: (normal(r, (8, 16)), normal(r, (16, 16))), "2x4",
         (P("data"), P(None, "model")))
explicit("explicit_einsum_out_sharding_2x4",
         lambda x, w: jnp.einsum("bd,df->bf", x, w, out_sharding=P("data", "model")),
         lambda r: (normal(r, (8, 16)), normal(r, (16, 8))), "2x4",
         (P("data"), P(None, "model")))
explicit("explicit_contract_sharded_dim_8",
         lambda x, w: jnp.einsum("bd,df->bf", x, w, out_sharding=P()),
         lambda r: (normal(r, (4, 16)), normal(r, (16, 8))), "8",
         (P(None, "data"), P("data")), note="contraction over a sharded dim")
explicit("explicit_unreduced_2x4",
         lambda x, w: jax.sharding.reshard(
             jnp.einsum("bd,df->bf", x, w, out_sharding=P("data", None, unreduced={"model"})),
             P("data")),
         lambda r: (normal(r, (8, 16)), normal(r, (16, 8))), "2x4",
         (P("data", "model"), P("model")), note="unreduced then reshard (psum)")
explicit("explicit_mlp_train_2x2x2",
         jax.value_and_grad(lambda w, x: jnp.mean(jnp.tanh(x @ w) ** 2)),
         lambda r: (normal(r, (16, 16), scale=0.3), normal(r, (8, 16))), "2x2x2",
         (P(None, "model"), P(("data", "fsdp"))))

reg("wsc_middle_2x4", lambda x, w: jnp.tanh(
    jax.lax.with_sharding_constraint(x @ w, P("model", "data")) * 2.0) @ w.T,
    lambda r: (normal(r, (8, 16)), normal(r, (16, 16))), "2x4", (P("data"), P()),
    out_specs=P("data"), ctx_mesh=True)
reg("wsc_open_dims_4x2", lambda x: jax.lax.with_sharding_constraint(
    jnp.sin(x), P("data", P.UNCONSTRAINED)) + 1.0,
    lambda r: (normal(r, (8, 8)),), "4x2", (P(None, "model"),), ctx_mesh=True)


@jax.jit
def _inner_with_constraint(x):
    return jax.lax.with_sharding_constraint(x * 2.0, NamedSharding(
        mesh(*MESHES["8"]), P("data")))


reg("wsc_in_called_function", lambda x: _inner_with_constraint(x) + 1.0,
    lambda r: (normal(r, (16, 4)),),
    note="unsharded entry calling a function with a sharding constraint (issue 48)")


def _shard_alike(x, y):
    from jax.experimental.shard_alike import shard_alike
    a, b = shard_alike(x * 2.0, y + 1.0)
    return a + b


reg("shard_alike_2x4", _shard_alike, lambda r: (normal(r, (8, 16)), normal(r, (8, 16))), "2x4",
    (P("data"), P()))


def _device_put_host(x):
    m = mesh(*MESHES["8"])
    y = jax.device_put(x * 2.0, NamedSharding(m, P("data"), memory_kind="pinned_host"))
    return jax.device_put(y, NamedSharding(m, P("data"), memory_kind="device")) + 1.0


reg("device_put_memory_kind_8", _device_put_host, lambda r: (normal(r, (16, 4)),), "8",
    (P("data"),), note="annotate_device_placement")

reg("uneven_30_over_4", lambda x, w: jnp.tanh(
    jax.lax.with_sharding_constraint(x, P("model")) @ w),
    lambda r: (normal(r, (30, 8)), normal(r, (8, 6))), "2x4", (P(), P()), ctx_mesh=True,
    note="30 rows constrained over 4 devices (uneven)")
reg("uneven_heads_constraint_2x4", lambda x: jax.lax.with_sharding_constraint(
    x * 3.0, P("model", "data")).sum(1),
    lambda r: (normal(r, (6, 10)),), "2x4", (P(),), ctx_mesh=True)
reg("replicated_everything_2x4", lambda x: jnp.exp(x).sum(0),
    lambda r: (normal(r, (8, 8)),), "2x4", (P(),))
reg("transpose_reshape_2x4", lambda x: (x.T.reshape(4, 32) * 2.0, x.reshape(2, 4, 16).sum(1)),
    lambda r: (normal(r, (8, 16)),), "2x4", (P("data", "model"),))
reg("dp_over_both_axes_2x4", lambda x, w: jax.nn.relu(x @ w),
    lambda r: (normal(r, (16, 8)), normal(r, (8, 8))), "2x4", (P(("data", "model")), P()))

# The same programs as JAX prints them with jax_use_shardy_partitioner=False
# (GSPMD sharding strings; shard_map as a manual region).
for mn, xs, ws in [("2x4", P("data"), P(None, "model")), ("2x2x2", P(("data", "fsdp")),
                                                          P(None, "model"))]:
    reg(f"gspmd_mlp_{mn}", lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2,
        lambda r: (normal(r, (8, 16)), normal(r, (16, 32), scale=0.25), normal(r, (32, 8), scale=0.2)),
        mn, (xs, ws, P("model")), gspmd=True, family="gspmd")
reg("gspmd_wsc_4x2", lambda x: jax.lax.with_sharding_constraint(x * 2, P(None, "data")).sum(0),
    lambda r: (normal(r, (8, 8)),), "4x2", (P("data"),), gspmd=True, family="gspmd",
    ctx_mesh=True)


def _gspmd_shard_map(name, mesh_name, body, in_specs, out_specs, shapes, vma=True):
    @program(name, "gspmd", gspmd=True)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name])
        f = jax.jit(jax.shard_map(body, mesh=m, in_specs=in_specs, out_specs=out_specs,
                                  check_vma=vma), keep_unused=True)
        return Prog(f, tuple(normal(r, s) for s in shapes))


_gspmd_shard_map("gspmd_shard_map_psum_2x4", "2x4", lambda x, w: lax.psum(x @ w, "model"),
                 (P("data", "model"), P("model")), P("data"), [(8, 16), (16, 8)])
_gspmd_shard_map("gspmd_shard_map_ppermute_8", "8",
                 lambda x: lax.ppermute(x, "data", [(i, (i + 3) % 8) for i in range(8)]),
                 (P("data"),), P("data"), [(16, 4)])
_gspmd_shard_map("gspmd_shard_map_all_gather_novma", "2x4",
                 lambda x: lax.all_gather(x, "model", axis=0, tiled=True) * 2,
                 (P("model"),), P(), [(16, 4)], vma=False)


@program("two_meshes_one_module", "sharding", note="two sdy.mesh ops over the same 8 devices")
def _():
    r = rng("two_meshes_one_module")
    m1 = jax.make_mesh((8,), ("x",))
    m2 = jax.make_mesh((2, 4), ("a", "b"))
    f = jax.jit(lambda x, y: (jnp.tanh(x) * 2, y.sum(0) + 1), keep_unused=True,
                in_shardings=(NamedSharding(m1, P("x")), NamedSharding(m2, P("a", "b"))))
    return Prog(f, (normal(r, (8, 4)), normal(r, (8, 4))))


@program("mesh_4x2_device_order", "sharding", note="a mesh with a non-iota device order")
def _():
    r = rng("mesh_4x2_device_order")
    devs = np.array(jax.devices())[[0, 2, 4, 6, 1, 3, 5, 7]].reshape(4, 2)
    m = jax.sharding.Mesh(devs, ("data", "model"))
    f = jax.jit(lambda x, w: jax.nn.relu(x @ w), keep_unused=True,
                in_shardings=(NamedSharding(m, P("data")), NamedSharding(m, P(None, "model"))))
    return Prog(f, (normal(r, (8, 16)), normal(r, (16, 8))))


explicit("explicit_auto_axes_2x4",
         lambda x, w: jax.sharding.auto_axes(lambda a, b: jnp.tanh(a @ b), out_sharding=P("data"))(x, w),
         lambda r: (normal(r, (8, 16)), normal(r, (16, 8))), "2x4", (P("data"), P(None, "model")))
explicit("explicit_reshard_chain_2x2x2",
         lambda x: jax.sharding.reshard(jax.sharding.reshard(x * 2, P("model", "data")) + 1,
                                        P(None, ("data", "fsdp"))),
         lambda r: (normal(r, (8, 8)),), "2x2x2", (P(("data", "fsdp")),))
