"""Shared helpers for the JAX corpus (test/Jax/programs/*.py).

Each family module registers programs with @program(...). A registered
builder returns a Prog: a jitted function and the numpy arguments it is
called with (a pytree; its leaves, in order, are the module's arguments).
test/Jax/generate.py lowers each one to StableHLO, runs it in JAX on 8 CPU
devices and saves the text, the inputs and JAX's outputs.
"""

import dataclasses
import zlib
from typing import Any, Callable, Optional

import numpy as np

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

REGISTRY = {}


@dataclasses.dataclass
class Prog:
    fn: Callable  # a jax.jit-wrapped function
    args: Any  # pytree of numpy arrays
    # A context to lower and run in (e.g. jax.set_mesh(mesh) for explicit
    # sharding mode), or None.
    ctx: Any = None
    # The arrays passed to fn, if they must differ from args (e.g. placed
    # with jax.device_put on an explicit mesh); args are what is saved.
    call_args: Any = None


@dataclasses.dataclass
class Entry:
    name: str
    family: str
    build: Callable[[], Prog]
    long: bool = False  # realistic size: only with generate.py --long
    # Per-program float tolerances {"rtol": .., "atol": ..} when the default
    # for the dtype is too tight for a legitimate reason (say why in note).
    tol: Optional[dict] = None
    note: str = ""
    # How the module is printed: "shardy" (jax.jit(f).lower(...).as_text()),
    # "gspmd" (the same with jax_use_shardy_partitioner=False: GSPMD
    # strings, shard_map as a manual region), "roundtrip" (the Shardy module
    # converted to HLO and back, as XLA's dumps print it: Shardy in
    # round-trip strings, `dot` for dot_general, no `public`) or "export"
    # (jax.export's module: locations, default attributes left out).
    form: str = "shardy"


def program(name, family, long=False, tol=None, note="", gspmd=False,
            form=None):
    def deco(build):
        assert name not in REGISTRY, name
        REGISTRY[name] = Entry(name, family, build, long, tol, note,
                               form or ("gspmd" if gspmd else "shardy"))
        return build
    return deco


def variant(base, form, family=None):
    """Registers BASE_FORM: the program BASE printed in another form."""
    e = REGISTRY[base]
    name = f"{base}_{form}"
    assert name not in REGISTRY, name
    REGISTRY[name] = Entry(name, family or form, e.build, e.long, e.tol,
                           e.note, form)


def rng(name):
    """A generator seeded by the program's name (stable across runs)."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def normal(r, shape, dtype=np.float32, scale=1.0):
    x = (r.standard_normal(shape) * scale).astype(np.float32)
    if dtype == jnp.bfloat16 or dtype == "bfloat16":
        return x.astype(jnp.bfloat16)
    return x.astype(dtype)


def uniform(r, shape, lo=0.0, hi=1.0, dtype=np.float32):
    return r.uniform(lo, hi, shape).astype(dtype)


def ints(r, shape, lo, hi, dtype=np.int32):
    return r.integers(lo, hi, shape).astype(dtype)


def mesh(shape, names, explicit=False):
    types = (AxisType.Explicit if explicit else AxisType.Auto,) * len(shape)
    return jax.make_mesh(tuple(shape), tuple(names), axis_types=types)


def ns(m, *spec):
    return NamedSharding(m, P(*spec))


def jit(f, m=None, in_specs=None, out_specs=None, **kw):
    """jax.jit with keep_unused (every argument stays in the module) and the
    given PartitionSpecs (a pytree of P, or None) as shardings."""
    def to_sh(specs):
        if specs is None or m is None:
            return None
        return jax.tree.map(lambda s: NamedSharding(m, s), specs,
                            is_leaf=lambda s: isinstance(s, P))
    if in_specs is not None:
        kw["in_shardings"] = to_sh(in_specs)
    if out_specs is not None:
        kw["out_shardings"] = to_sh(out_specs)
    return jax.jit(f, keep_unused=True, **kw)


# Meshes the corpus uses (8 devices each): name -> (shape, axis names).
MESHES = {
    "1x8": ((1, 8), ("data", "model")),
    "2x4": ((2, 4), ("data", "model")),
    "4x2": ((4, 2), ("data", "model")),
    "8": ((8,), ("data",)),
    "2x2x2": ((2, 2, 2), ("data", "fsdp", "model")),
}
