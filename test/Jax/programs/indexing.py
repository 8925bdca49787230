"""vmap of indexing (batched gather/scatter), take_along_axis, top_k, sort,
argsort, integer and unsigned arithmetic, bf16/f16 and mixed precision."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, ints, mesh, jit, MESHES


def reg(name, family, f, make_args, mesh_name=None, in_specs=None,
        out_specs=None, note="", tol=None):
    @program(name, family, note=note, tol=tol)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


# --- gather / scatter ---------------------------------------------------
reg("gather_rows_2x4", "indexing", lambda t, i: t[i],
    lambda r: (normal(r, (32, 16)), ints(r, (8,), 0, 32)), "2x4", (P(None, "model"), P()))
reg("gather_vmap", "indexing", jax.vmap(lambda t, i: t[i]),
    lambda r: (normal(r, (4, 10, 6)), ints(r, (4, 3), 0, 10)))
reg("gather_vmap_2x4", "indexing", jax.vmap(lambda t, i: t[i]),
    lambda r: (normal(r, (8, 10, 8)), ints(r, (8, 3), 0, 10)), "2x4",
    (P("data", None, "model"), P("data")))
reg("take_along_axis", "indexing", lambda x, i: jnp.take_along_axis(x, i, axis=1),
    lambda r: (normal(r, (6, 8)), ints(r, (6, 3), 0, 8)))
reg("gather_2d_points", "indexing", lambda x, i, j: x[i, j],
    lambda r: (normal(r, (8, 8)), ints(r, (5,), 0, 8), ints(r, (5,), 0, 8)))
reg("gather_negative_clip", "indexing",
    lambda x, i: (x[i], jnp.take(x, i, axis=0, mode="clip")),
    lambda r: (normal(r, (10, 4)), ints(r, (6,), -10, 10)))
reg("scatter_add", "indexing", lambda x, i, u: x.at[i].add(u),
    lambda r: (normal(r, (10, 4)), ints(r, (6,), 0, 10), normal(r, (6, 4))))
reg("scatter_set_max", "indexing",
    lambda x, i, u: (x.at[i].set(u), x.at[i].max(u), x.at[i].mul(u)),
    lambda r: (normal(r, (10, 4)), np.array([1, 3, 5, 7, 9, 0], np.int32), normal(r, (6, 4))))
reg("scatter_vmap", "indexing", jax.vmap(lambda x, i, u: x.at[i].add(u)),
    lambda r: (normal(r, (4, 10)), ints(r, (4, 3), 0, 10), normal(r, (4, 3))))
reg("scatter_vmap_8", "indexing", jax.vmap(lambda x, i, u: x.at[i].add(u)),
    lambda r: (normal(r, (8, 10)), ints(r, (8, 3), 0, 10), normal(r, (8, 3))), "8",
    (P("data"), P("data"), P("data")))
reg("embedding_grad_8", "indexing",
    jax.grad(lambda e, i: jnp.sum(jnp.tanh(e[i]) ** 2)),
    lambda r: (normal(r, (32, 8)), ints(r, (16,), 0, 32)), "8", (P(None, "data"), P()))
reg("dynamic_slice_update", "indexing",
    lambda x, i, u: (lax.dynamic_slice(x, (i, 2), (3, 4)),
                     lax.dynamic_update_slice(x, u, (i, 1))),
    lambda r: (normal(r, (8, 8)), np.int32(3), normal(r, (2, 5))))
reg("one_hot_argmax_2x4", "indexing",
    lambda x: (jax.nn.one_hot(jnp.argmax(x, -1), x.shape[-1]), jnp.argmin(x, 0)),
    lambda r: (normal(r, (8, 16)),), "2x4", (P("data", "model"),))

# --- top_k / sort -------------------------------------------------------
reg("top_k", "sort", lambda x: lax.top_k(x, 3),
    lambda r: (normal(r, (6, 10)),))
reg("top_k_2x4", "sort", lambda x: lax.top_k(x, 2),
    lambda r: (normal(r, (8, 16)),), "2x4", (P("data"),))
reg("sort_1d", "sort", lambda x: jnp.sort(x), lambda r: (normal(r, (20,)),))
reg("sort_axis0_8", "sort", lambda x: jnp.sort(x, axis=0),
    lambda r: (normal(r, (12, 16)),), "8", (P(None, "data"),))
reg("argsort_stable", "sort", lambda x: jnp.argsort(x, stable=True),
    lambda r: (ints(r, (16,), 0, 4).astype(np.float32),))
reg("sort_multi_operand", "sort",
    lambda k, v: lax.sort((k, v), num_keys=1),
    lambda r: (ints(r, (12,), 0, 5), normal(r, (12,))))
reg("sort_int_descending", "sort", lambda x: -jnp.sort(-x, axis=-1),
    lambda r: (ints(r, (4, 9), -100, 100),))
reg("vmap_top_k", "sort", jax.vmap(lambda x: lax.top_k(x, 2)[1]),
    lambda r: (normal(r, (5, 7)),))
reg("median_quantile", "sort", lambda x: (jnp.median(x, axis=1), jnp.quantile(x, 0.25)),
    lambda r: (normal(r, (4, 9)),))

# --- integers ----------------------------------------------------------
reg("int32_arith", "integer",
    lambda a, b: (a // b, a % b, a * b + 7, jnp.right_shift(a, 3), jnp.left_shift(a, 2),
                  a & b, a | b, a ^ b, jnp.abs(a), jnp.sign(b), lax.div(a, b), lax.rem(a, b),
                  jnp.minimum(a, b), jnp.clip(a, -50, 50)),
    lambda r: (ints(r, (32,), -1000, 1000), np.where(ints(r, (32,), -9, 9) == 0, 3,
                                                     ints(r, (32,), -9, 9)).astype(np.int32)))
reg("int32_arith_2x4", "integer",
    lambda a, b: (a * 3 - b, jnp.sum(a, 0), jnp.max(b, 1), (a > b).astype(jnp.int32)),
    lambda r: (ints(r, (8, 16), -1000, 1000), ints(r, (8, 16), -1000, 1000)), "2x4",
    (P("data", "model"), P("data", "model")))
reg("int_pow_overflow", "integer",
    lambda a: (a ** 3, lax.integer_pow(a, 2), a * 2147483647, a + 2147483600),
    lambda r: (ints(r, (16,), -2000, 2000),))
reg("int8_int16", "integer",
    lambda a, b: ((a * 3).astype(jnp.int16) + b, (a + a), jnp.sum(a.astype(jnp.int32))),
    lambda r: (ints(r, (16,), -128, 128, np.int8), ints(r, (16,), -3000, 3000, np.int16)))
reg("uint32_inside", "integer",
    lambda a: (a.astype(jnp.uint32) * jnp.uint32(2654435761) >> 7).astype(jnp.int32)
    + (a.astype(jnp.uint32) // jnp.uint32(7)).astype(jnp.int32),
    lambda r: (ints(r, (16,), 0, 2 ** 31 - 1),),
    note="unsigned only inside the program")
reg("uint8_image_arg", "integer",
    lambda img: (img.astype(jnp.float32) / 255.0).mean(axis=1),
    lambda r: (ints(r, (16, 64), 0, 256, np.uint8),), note="ui8 argument")
reg("uint32_result", "integer",
    lambda a: a.astype(jnp.uint32) * jnp.uint32(3),
    lambda r: (ints(r, (8,), 0, 1000),), note="ui32 result")
reg("bool_logic", "integer",
    lambda a, b: (jnp.logical_and(a > 0, b < 0), jnp.any(a > 1), jnp.all(b < 2),
                  jnp.where(a > b, a, b), jnp.count_nonzero(a > 0)),
    lambda r: (normal(r, (8, 8)), normal(r, (8, 8))))
reg("isnan_nan_to_num", "integer",
    lambda a: (jnp.isnan(jnp.log(a)), jnp.nan_to_num(jnp.log(a)), jnp.isinf(1.0 / a)),
    lambda r: (np.array([-1.0, 0.0, 1.0, 2.0, np.inf, -np.inf, np.nan, 0.5], np.float32),))

# --- low precision -----------------------------------------------------
BF16 = {"rtol": 2.0 ** -5, "atol": 2.0 ** -5}
reg("bf16_matmul_f32_acc_2x4", "precision",
    lambda x, w: jnp.dot(x, w, preferred_element_type=jnp.float32),
    lambda r: (normal(r, (8, 32), jnp.bfloat16), normal(r, (32, 16), jnp.bfloat16)), "2x4",
    (P("data"), P(None, "model")))
reg("bf16_mlp", "precision",
    lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2,
    lambda r: (normal(r, (8, 32), jnp.bfloat16), normal(r, (32, 32), jnp.bfloat16, 0.2),
               normal(r, (32, 8), jnp.bfloat16, 0.2)), "2x4",
    (P("data"), P(None, "model"), P("model")))
reg("bf16_elementwise", "precision",
    lambda x: (jnp.exp(x), jnp.tanh(x), x * x + 1, jax.nn.softmax(x, -1),
               x.astype(jnp.float32).sum(-1)),
    lambda r: (normal(r, (4, 16), jnp.bfloat16),))
reg("f16_elementwise", "precision",
    lambda x, y: (x * y + x, jnp.sqrt(jnp.abs(x)), (x @ y.T).astype(jnp.float32)),
    lambda r: (normal(r, (8, 8), np.float16), normal(r, (8, 8), np.float16)))
reg("mixed_precision_train", "precision",
    jax.value_and_grad(lambda w, x: jnp.mean(
        (x.astype(jnp.bfloat16) @ w.astype(jnp.bfloat16)).astype(jnp.float32) ** 2)),
    lambda r: (normal(r, (16, 8), scale=0.3), normal(r, (8, 16))), "8",
    (P(), P("data")), tol=BF16, note="bf16 compute, f32 master weights")
reg("convert_round_trip", "precision",
    lambda x: (x.astype(jnp.bfloat16).astype(jnp.float32), x.astype(jnp.float16),
               x.astype(jnp.int32), (x * 100).astype(jnp.int8)),
    lambda r: (normal(r, (32,), scale=4.0),))


# --- 64-bit (jax.enable_x64) ---------------------------------------------
def x64(name, f, make_args, mesh_name=None, in_specs=None):
    @program(name, "precision")
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs), make_args(r), ctx=jax.enable_x64(True))


x64("f64_mlp_2x4", lambda x, w1, w2: (jnp.tanh(x @ w1) @ w2, jnp.sum(x * x)),
    lambda r: (r.standard_normal((8, 16)), r.standard_normal((16, 32)) * 0.25,
               r.standard_normal((32, 8)) * 0.2), "2x4", (P("data"), P(None, "model"), P("model")))
x64("int64_arith", lambda a, b: (a * b + (1 << 40), a // 7, jnp.cumsum(a), a.astype(jnp.int32),
                                 (a > b).sum()),
    lambda r: (r.integers(-2 ** 40, 2 ** 40, (16,)), r.integers(-2 ** 20, 2 ** 20, (16,))))
