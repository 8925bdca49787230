"""Single ops and small numerics JAX prints in its own way: fft,
reduce_precision, negative and interior pad, cholesky, triangular_solve,
softmax/logsumexp, erf, einsum forms, clamp, rev, concatenate, iota."""

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, ints, mesh, jit, MESHES


def reg(name, f, make_args, mesh_name=None, in_specs=None, out_specs=None,
        note="", tol=None, family="ops"):
    @program(name, family, note=note, tol=tol)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs, out_specs), make_args(r))


reg("fft_real", lambda x: (jnp.abs(jnp.fft.rfft(x)), jnp.fft.irfft(jnp.fft.rfft(x), 16)),
    lambda r: (normal(r, (4, 16)),), note="complex intermediates")
reg("reduce_precision", lambda x: (lax.reduce_precision(x, 5, 10), lax.reduce_precision(x, 8, 7)),
    lambda r: (normal(r, (32,), scale=100.0),))
reg("pad_negative_interior", lambda x: (lax.pad(x, 0.0, ((-1, 2, 1), (1, -2, 0))),
                                         jnp.pad(x, ((1, 1), (2, 0)), mode="reflect")),
    lambda r: (normal(r, (5, 6)),))
reg("pad_edge_wrap", lambda x: (jnp.pad(x, 2, mode="edge"), jnp.pad(x, 1, mode="wrap")),
    lambda r: (normal(r, (4, 4)),))


def spd(r, n=6):
    a = normal(r, (n, n))
    return (a @ a.T + n * np.eye(n)).astype(np.float32)


reg("cholesky", lambda a: jnp.linalg.cholesky(a), lambda r: (spd(r),), tol={"rtol": 1e-3, "atol": 1e-4})
reg("triangular_solve", lambda a, b: jax.scipy.linalg.solve_triangular(
    jnp.tril(a) + 4 * jnp.eye(a.shape[0]), b, lower=True),
    lambda r: (normal(r, (6, 6)), normal(r, (6, 3))), tol={"rtol": 1e-3, "atol": 1e-4})
reg("softmax_logsumexp_2x4", lambda x: (jax.nn.softmax(x, -1), jax.nn.logsumexp(x, 0),
                                        jax.nn.log_softmax(x, -1)),
    lambda r: (normal(r, (8, 16), scale=3.0),), "2x4", (P("data", "model"),))
reg("special_functions", lambda x: (jax.scipy.special.erf(x), jax.nn.gelu(x, approximate=False),
                                    jax.nn.sigmoid(x), jax.nn.softplus(x), jnp.arctan2(x, 1.5),
                                    jnp.log1p(jnp.abs(x)), jnp.expm1(x), jnp.cbrt(x),
                                    jax.lax.erf_inv(jnp.tanh(x) * 0.9), jax.scipy.special.erfc(x)),
    lambda r: (normal(r, (64,), scale=2.0),))
reg("lgamma_digamma", lambda x: (jax.scipy.special.gammaln(x), jax.scipy.special.digamma(x)),
    lambda r: (np.abs(normal(r, (16,))) + 0.5,))
reg("einsum_forms_2x4", lambda a, b, c: (jnp.einsum("ij,jk->ik", a, b), jnp.einsum("ij->ji", a),
                                         jnp.einsum("ij,ij->", a, a), jnp.einsum("bij,bjk->bik", c, c),
                                         jnp.einsum("i,j->ij", a[0], b[:, 0]), jnp.dot(a[0], b[:, 1])),
    lambda r: (normal(r, (8, 16)), normal(r, (16, 8)), normal(r, (4, 8, 8))), "2x4",
    (P("data"), P(None, "model"), P("model")))
reg("concat_rev_iota_2x4", lambda x: (jnp.concatenate([x, -x[::-1]], 0), jnp.flip(x, 1),
                                      x + jnp.arange(x.shape[1]), jnp.roll(x, 3, 1),
                                      jnp.tile(x[:2], (2, 1)), jnp.repeat(x[:, :2], 2, 1)),
    lambda r: (normal(r, (8, 16)),), "2x4", (P("data", "model"),))
reg("clamp_round_2x4", lambda x: (jnp.clip(x, -0.5, 0.7), jnp.round(x), jnp.floor(x), jnp.ceil(x),
                                  jnp.rint(x * 2), jnp.sign(x), lax.round(x)),
    lambda r: (normal(r, (8, 8), scale=3.0),), "2x4", (P("data", "model"),))
reg("float_pow_rem", lambda x, y: (jnp.power(jnp.abs(x), y), jnp.fmod(x, 0.7), jnp.remainder(x, 0.7),
                                   x ** 2, x ** 3, 1.0 / x, jnp.sqrt(jnp.abs(x))),
    lambda r: (normal(r, (32,), scale=2.0), normal(r, (32,))))
reg("reductions_2x2x2", lambda x: (x.sum((0, 2)), x.max(1), x.min(), jnp.prod(1 + 0.1 * x, 2),
                                    jnp.mean(x, 0), jnp.var(x, 1), jnp.argmax(x, 2)),
    lambda r: (normal(r, (4, 8, 8)),), "2x2x2", (P("data", "fsdp", "model"),))
reg("linalg_norm_outer", lambda x: (jnp.linalg.norm(x, axis=1), jnp.outer(x[0], x[1]),
                                    jnp.trace(x[:, :8]), jnp.tril(x[:, :8]), jnp.triu(x[:, :8], 1)),
    lambda r: (normal(r, (8, 12)),))
reg("dot_general_batch_dims_8", lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
    lambda r: (normal(r, (8, 4, 6)), normal(r, (8, 6, 5))), "8", (P("data"), P("data")))
reg("select_n_where_2x4", lambda c, x, y: (lax.select_n(c, x, y, x * y), jnp.where(c > 0, x, y)),
    lambda r: (ints(r, (8, 8), 0, 3), normal(r, (8, 8)), normal(r, (8, 8))), "2x4",
    (P("data"), P("data"), P(None, "model")))
reg("bitcast_convert", lambda x: (lax.bitcast_convert_type(x, jnp.int32),
                                   lax.bitcast_convert_type(x.astype(jnp.int32), jnp.float32)),
    lambda r: (normal(r, (16,)),))
reg("reduce_window_variants", lambda x: (
    lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "VALID", window_dilation=(2, 1)),
    lax.reduce_window(x, -jnp.inf, lax.max, (3, 1), (2, 1), ((1, 1), (0, 0)), base_dilation=(2, 1))),
    lambda r: (normal(r, (8, 8)),), note="dilated reduce_window")
