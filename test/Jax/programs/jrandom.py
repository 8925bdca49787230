"""jax.random inside the program: threefry (the default) and the rbg
implementation (rng_bit_generator); dropout in a training step."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from common import program, Prog, rng, normal, mesh, jit, MESHES


def reg(name, f, make_args, mesh_name=None, in_specs=None, note=""):
    @program(name, "random", note=note)
    def build():
        r = rng(name)
        m = mesh(*MESHES[mesh_name]) if mesh_name else None
        return Prog(jit(f, m, in_specs), make_args(r))


def sample(seed):
    k = jax.random.key(seed)
    k1, k2, k3 = jax.random.split(k, 3)
    return (jax.random.normal(k1, (4, 8)), jax.random.uniform(k2, (16,)),
            jax.random.randint(k3, (8,), 0, 100), jax.random.bernoulli(k1, 0.3, (8,)))


reg("threefry_sample", sample, lambda r: (np.int32(42),))
reg("threefry_permutation", lambda s: jax.random.permutation(jax.random.key(s), 16),
    lambda r: (np.int32(7),))
reg("threefry_categorical", lambda s, l: jax.random.categorical(jax.random.key(s), l, -1),
    lambda r: (np.int32(3), normal(r, (6, 5))))


def dropout(seed, x, rate=0.25):
    keep = jax.random.bernoulli(jax.random.key(seed), 1 - rate, x.shape)
    return jnp.where(keep, x / (1 - rate), 0.0)


reg("threefry_dropout_2x4", dropout, lambda r: (np.int32(1), normal(r, (8, 16))), "2x4",
    (P(), P("data", "model")))
reg("threefry_normal_sharded_8", lambda s: jax.random.normal(jax.random.key(s), (16, 8)) * 2,
    lambda r: (np.int32(5),), "8", (P(),))


def rbg(seed):
    k = jax.random.key(seed, impl="rbg")
    return jax.random.normal(k, (4, 8)), jax.random.bits(jax.random.fold_in(k, 3), (8,))


reg("rbg_sample", rbg, lambda r: (np.int32(11),), note="rng_bit_generator")
reg("rbg_dropout_unsafe", lambda s, x: jnp.where(
    jax.random.bernoulli(jax.random.key(s, impl="unsafe_rbg"), 0.5, x.shape), x, 0.0),
    lambda r: (np.int32(2), normal(r, (8, 8))))


def train_dropout(w, x, seed):
    def loss(w):
        h = jnp.tanh(x @ w)
        return jnp.mean(dropout(seed, h) ** 2)
    return jax.value_and_grad(loss)(w)


reg("threefry_dropout_train_8", train_dropout,
    lambda r: (normal(r, (16, 16), scale=0.25), normal(r, (8, 16)), np.int32(9)), "8",
    (P(), P("data"), P()))
