#!/usr/bin/env python3
"""Random-program differential tester for trellis-run.

Usage: difftest.py TRELLIS_RUN WORKDIR COUNT SEED [--long] [--hours H]
                   [--features a,b,...] [--without a,b,...] [--self-test]
                   [--keep-all] [--verbose]

Each generated program (a random mesh of 1 to 5 axes, at most 8 devices) is
one of:
  auto      a global program with auto-sharded arguments
  embedded  a global program with an spmd.shard_map (over every axis) in the
            middle, global ops before and after it
  manual    a program that is one spmd.shard_map with collectives
  uneven    a program whose sharding does not divide a dimension: in a
            shard_map spec or a collective it must be rejected with an error
            message (non-zero exit, no crash); on an argument or a
            constraint the partitioner pads it, and the program is checked
            like the others
The generator evaluates what it emits in numpy (per device inside
shard_maps, so collectives are modelled exactly) and compares that with
`trellis-run --reference --output-dir`: exactly for integers, NaN for NaN,
+-Inf for +-Inf, -0.0 equal to 0.0, and within a tolerance for other floats.
`--reference` (partitioned vs unpartitioned) must report a match too.

A failure is a crash (signal, LLVM ERROR, stack dump, assertion), a timeout,
a valid program rejected, a result that differs from numpy or from the
reference, or an uneven shard_map or collective accepted. The program is kept in WORKDIR
(with its inputs, expected outputs and trellis-run's output) and one line
`FAIL <kind> <path>: <detail>` is printed per failure, then
`difftest: N run, M failed`; exit 1 on any failure.

--features keeps only the listed switches (`--without` drops some); see
FEATURES. --long runs until COUNT programs or --hours (default 1) have
passed. --self-test perturbs the expected outputs of each program that passed
and checks the comparison then fails (it validates the oracle).
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import numpy as np

FEATURES = {
    # program kinds
    "auto": "global program, auto-sharded arguments",
    "embedded": "global program with a shard_map in the middle",
    "manual": "program that is one shard_map",
    "uneven": "non-divisible shardings (rejected in shard_maps and "
              "collectives, padded on arguments and constraints)",
    # meshes
    "mesh5": "meshes of up to 5 axes (else up to 3)",
    "size1": "size-1 mesh axes",
    # element types
    "f32": "", "f64": "", "i32": "", "i64": "", "i8": "",
    "f16": "f16 programs (computed in f32 and rounded per op, sums and "
           "collectives accumulated in f32: docs/Precision.md)",
    "bf16": "arith.truncf/extf round trip through bf16 (f32 programs)",
    # values
    "specials": "NaN, +Inf, -Inf, -0.0 in float inputs",
    "intedge": "integer inputs near the overflow bounds",
    # ops
    "elementwise": "", "div": "arith.divf by an argument", "math": "math.tanh/absf",
    "matmul": "", "reduce": "", "transpose": "", "broadcast": "", "slice": "",
    "concat": "", "constraint": "trellis.sharding_constraint",
    "unreduced": "sharding constraints that make a value a partial sum "
                 "(unreduced axes; the value is unchanged)",
    "gather": "tensor.extract of a captured tensor in a linalg.generic",
    "shard_index": "shardings on the index arguments of gathers in global programs",
    "for": "scf.for", "if": "scf.if",
    "return_arg": "an argument returned unchanged",
    # collectives
    "psum": "", "pmax": "", "pmin": "", "all_gather": "", "psum_scatter": "",
    "ppermute": "", "all_to_all": "", "axis_index": "",
    "loop_collective": "a collective inside an scf.for in a shard_map",
    # passes
    "canonicalize": "trellis-run --passes=canonicalize on a third of the "
                    "programs (folds of collectives; the reference runs "
                    "without them)",
    "overlap": "trellis-run --overlap on a third of the programs: every "
               "collective asynchronous (the size-gated rewrites rarely "
               "match programs this small); on half of those --passes also "
               "forces all_to_all chunking and collective matmul whatever "
               "the size (the reference runs without either)",
}

ELTS = {
    "f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "i8": np.int8,
    "f16": np.float16,
}
AXIS_NAMES = "abcde"


def is_float(elt):
    return elt in ("f32", "f64", "f16")


def tensor_type(shape, elt):
    if not shape:
        return f"tensor<{elt}>"
    return "tensor<" + "x".join(map(str, shape)) + f"x{elt}>"


def same_bits(x, y):
    return x.shape == y.shape and x.tobytes() == y.tobytes()


class Value:
    """A tensor of the program: its SSA name, shape, element type, and its
    value, one array per device inside a shard_map body (one in global
    code). `vary` is the set of mesh axes its type varies over (the
    variance rules of spmd-check-variance); `exact` is true for arguments
    (safe divisors)."""

    def __init__(self, name, shape, elt, arrs, vary=frozenset(), exact=False):
        self.name, self.shape, self.elt, self.arrs = name, tuple(shape), elt, arrs
        self.vary = frozenset(vary)
        self.exact = exact

    @property
    def type(self):
        return tensor_type(self.shape, self.elt)


class Skip(Exception):
    """The op chosen does not apply (no operand, magnitude too large)."""


class Program:
    def __init__(self, rng, feats, index):
        self.rng, self.feats, self.index = rng, feats, index
        self.count = 0
        self.lines = []
        self.args = []        # (text, Value)
        self.inputs = []      # numpy arrays for the arguments
        self.used = set()     # features this program exercised
        self.make_mesh()
        elts = [e for e in ELTS if e in feats] or ["f32"]
        self.elt = rng.choice(elts)
        self.used.add(self.elt)
        self.dtype = ELTS[self.elt]

    # ----------------------------------------------------------------- mesh
    def make_mesh(self):
        r, f = self.rng, self.feats
        maxaxes = 5 if "mesh5" in f else 3
        n = r.randint(1, maxaxes)
        sizes = []
        for _ in range(n):
            choices = [2, 2, 4]
            if "size1" in f:
                choices += [1, 1]
            s = r.choice(choices)
            while s > 1 and int(np.prod(sizes + [s])) > 8:
                s //= 2
            if s == 1 and "size1" not in f:
                break
            sizes.append(s)
        if not sizes:
            sizes = [2]
        self.axes = list(zip(AXIS_NAMES, sizes))
        self.size = dict(self.axes)
        self.ndev = int(np.prod(sizes))
        if len(sizes) > 3:
            self.used.add("mesh5")
        if 1 in sizes:
            self.used.add("size1")
        # coordinates of each device, row-major over the mesh axes
        self.coords = []
        for d in range(self.ndev):
            c, rest = {}, d
            for a, s in reversed(self.axes):
                c[a] = rest % s
                rest //= s
            self.coords.append(c)

    def group_index(self, dev, axes):
        idx = 0
        for a in axes:
            idx = idx * self.size[a] + self.coords[dev][a]
        return idx

    def group(self, dev, axes):
        """The devices of dev's group along axes, in group order."""
        others = [a for a, _ in self.axes if a not in axes]
        members = [d for d in range(self.ndev)
                   if all(self.coords[d][a] == self.coords[dev][a] for a in others)]
        members.sort(key=lambda d: self.group_index(d, axes))
        return members

    def gsize(self, axes):
        return int(np.prod([self.size[a] for a in axes])) if axes else 1

    # ------------------------------------------------------------ utilities
    def name(self, prefix="v"):
        self.count += 1
        return f"%{prefix}{self.count}"

    def emit(self, line):
        self.lines.append("  " * self.depth + line)

    def zero_lit(self):
        return "0.0" if is_float(self.elt) else "0"

    def lowest_lit(self):
        return {"f32": "0xFF800000", "f64": "0xFFF0000000000000", "f16": "0xFC00"}.get(
            self.elt, str(int(np.iinfo(self.dtype).min)) if not is_float(self.elt) else None)

    def highest_lit(self):
        return {"f32": "0x7F800000", "f64": "0x7FF0000000000000", "f16": "0x7C00"}.get(
            self.elt, str(int(np.iinfo(self.dtype).max)) if not is_float(self.elt) else None)

    def check_magnitude(self, arrs):
        if not is_float(self.elt):
            return
        for a in arrs:
            fin = a[np.isfinite(a)]
            if fin.size and float(np.abs(fin).max()) > 1e4:
                raise Skip()

    def pick(self, pred=lambda v: True):
        cands = [v for v in self.scope if v.elt == self.elt and pred(v)]
        if not cands:
            raise Skip()
        # prefer recent values
        if self.rng.random() < 0.5:
            return cands[-1]
        return self.rng.choice(cands)

    def nd(self):
        return len(self.scope[0].arrs) if self.scope else (self.ndev if self.local else 1)

    def apply(self, fn, *vals):
        n = self.ndev if self.local else 1
        with np.errstate(all="ignore"):
            if self.elt != "f16":
                return [np.asarray(fn(*[v.arrs[i] for v in vals])) for i in range(n)]
            # f16 computes in f32 and rounds once per op, sums included
            # (docs/Precision.md): modelled in float64, rounded to f16.
            def wide(a):
                return a.astype(np.float64) if a.dtype == np.float16 else a
            def narrow(a):
                a = np.asarray(a)
                return a.astype(np.float16) if a.dtype == np.float64 else a
            return [narrow(fn(*[wide(v.arrs[i]) for v in vals])) for i in range(n)]

    def add(self, name, shape, arrs, vary, elt=None, exact=False):
        v = Value(name, shape, elt or self.elt, arrs, vary, exact)
        self.scope.append(v)
        return v

    # -------------------------------------------------------------- inputs
    def random_array(self, shape, elt=None):
        elt = elt or self.elt
        dt = ELTS[elt]
        r = self.rng
        nprng = np.random.default_rng(r.randrange(1 << 30))
        if is_float(elt):
            a = np.round(nprng.uniform(-4, 4, size=shape), 2).astype(dt)
            if "specials" in self.feats and r.random() < 0.4 and a.size:
                self.used.add("specials")
                flat = a.reshape(-1)
                for _ in range(r.randint(1, 3)):
                    flat[r.randrange(flat.size)] = r.choice([np.nan, np.inf, -np.inf, -0.0])
        else:
            info = np.iinfo(dt)
            if elt == "i8":
                a = nprng.integers(-128, 128, size=shape).astype(dt)
            else:
                a = nprng.integers(-100, 100, size=shape).astype(dt)
            if "intedge" in self.feats and r.random() < 0.5 and a.size:
                self.used.add("intedge")
                flat = a.reshape(-1)
                for _ in range(r.randint(1, 4)):
                    flat[r.randrange(flat.size)] = r.choice(
                        [info.max, info.max - r.randint(0, 3), info.min, info.min + r.randint(0, 3),
                         info.max // 2 + 1, info.min // 2])
        return a

    def sharding_dims(self, shape, prob=0.5, order=None):
        """A random per-dimension list of axes that divides shape."""
        axes = [a for a, _ in self.axes]
        self.rng.shuffle(axes)
        dims = [[] for _ in shape]
        for a in axes:
            if not shape or self.rng.random() > prob:
                continue
            d = self.rng.randrange(len(shape))
            prod = self.gsize(dims[d])
            if shape[d] % (prod * self.size[a]) == 0:
                dims[d].append(a)
        return dims

    @staticmethod
    def spec_text(dims):
        return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims) + "]"

    def new_arg(self, shape, elt=None, arr=None, sharded=True):
        elt = elt or self.elt
        name = f"%arg{len(self.args)}"
        if arr is None:
            arr = self.random_array(shape, elt)
        attr = ""
        if elt == "index" and "shard_index" not in self.feats:
            sharded = False
        if elt == "index" and sharded:
            self.used.add("shard_index")
        if sharded and self.kind in ("auto", "embedded") and shape:
            dims = self.sharding_dims(shape)
            attr = f" {{trellis.sharding = #trellis.sharding<@m, {self.spec_text(dims)}>}}"
        v = Value(name, shape, elt, [arr], exact=True)
        self.args.append((f"{name}: {tensor_type(shape, elt)}{attr}", v))
        self.inputs.append(arr)
        return v

    # ------------------------------------------------------------ op menu
    def ops(self):
        f = self.feats
        menu = []
        for op in ["elementwise", "elementwise", "matmul", "reduce", "transpose",
                   "broadcast", "slice", "concat", "gather", "for", "if"]:
            if op in f:
                menu.append(op)
        if "math" in f and is_float(self.elt):
            menu.append("math")
        if "bf16" in f and self.elt == "f32":
            menu.append("bf16")
        if self.local:
            for op in ["psum", "pmax", "pmin", "all_gather", "psum_scatter", "ppermute",
                       "all_to_all", "axis_index"]:
                if op in f:
                    menu += [op, op]
            if "if" in f and "axis_index" in f:
                menu.append("if_axis")
            if "for" in f and "loop_collective" in f:
                menu.append("loop_collective")
        elif "constraint" in f and self.kind != "manual":
            menu.append("constraint")
        return menu

    def step(self):
        op = self.rng.choice(self.ops())
        try:
            getattr(self, "op_" + op)()
            self.used.add(op)
        except Skip:
            pass

    # ------------------------------------------------------- elementwise
    def op_elementwise(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        b = self.pick(lambda v: v.shape == a.shape) if self.rng.random() < 0.8 else a
        r = self.rng
        if is_float(self.elt):
            ops = [("addf", np.add), ("subf", np.subtract), ("mulf", np.multiply),
                   ("maximumf", np.maximum), ("minimumf", np.minimum)]
            if "div" in self.feats:
                exact = [v for v in self.scope if v.shape == a.shape and v.exact and v.elt == self.elt]
                if exact and r.random() < 0.3:
                    b = r.choice(exact)
                    ops = [("divf", np.divide)]
                    self.used.add("div")
        else:
            ops = [("addi", np.add), ("subi", np.subtract), ("muli", np.multiply),
                   ("maxsi", np.maximum), ("minsi", np.minimum), ("andi", np.bitwise_and),
                   ("ori", np.bitwise_or), ("xori", np.bitwise_xor)]
        mnem, fn = r.choice(ops)
        arrs = self.apply(fn, a, b)
        self.check_magnitude(arrs)
        n = self.name()
        self.emit(f"{n} = arith.{mnem} {a.name}, {b.name} : {a.type}")
        self.add(n, a.shape, arrs, a.vary | b.vary)

    def op_math(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        mnem, fn = self.rng.choice([("math.tanh", np.tanh), ("math.absf", np.abs),
                                    ("arith.negf", np.negative)])
        arrs = self.apply(fn, a)
        n = self.name()
        self.emit(f"{n} = {mnem} {a.name} : {a.type}")
        self.add(n, a.shape, arrs, a.vary)

    def op_bf16(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        # bf16 rounding (round to nearest even) modelled on the f32 bits
        def to_bf16(x):
            x = np.ascontiguousarray(x, np.float32)
            u = x.view(np.uint32).astype(np.uint64)
            nan = np.isnan(x)
            r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
            out = r.astype(np.uint32).view(np.float32).copy()
            out[nan] = np.nan
            return out
        arrs = self.apply(to_bf16, a)
        self.check_magnitude(arrs)
        t, n = self.name(), self.name()
        bt = tensor_type(a.shape, "bf16")
        self.emit(f"{t} = arith.truncf {a.name} : {a.type} to {bt}")
        self.emit(f"{n} = arith.extf {t} : {bt} to {a.type}")
        self.add(n, a.shape, arrs, a.vary)

    def filled(self, shape, lit, vary=frozenset()):
        e, c, f = self.name(), self.name(), self.name()
        t = tensor_type(shape, self.elt)
        self.emit(f"{e} = tensor.empty() : {t}")
        self.emit(f"{c} = arith.constant {lit} : {self.elt}")
        self.emit(f"{f} = linalg.fill ins({c} : {self.elt}) outs({e} : {t}) -> {t}")
        return f

    def op_matmul(self):
        a = self.pick(lambda v: len(v.shape) == 2)
        m, k = a.shape
        cands = [v for v in self.scope if v.elt == self.elt and len(v.shape) == 2 and v.shape[0] == k]
        if cands:
            b = self.rng.choice(cands)
        elif not self.local:
            b = self.new_arg((k, self.rng.choice([2, 4, 8])))
        else:
            raise Skip()
        out = (m, b.shape[1])
        arrs = self.apply(np.matmul, a, b)
        self.check_magnitude(arrs)
        f = self.filled(out, self.zero_lit())
        n = self.name()
        ot = tensor_type(out, self.elt)
        self.emit(f"{n} = linalg.matmul ins({a.name}, {b.name} : {a.type}, {b.type}) "
                  f"outs({f} : {ot}) -> {ot}")
        self.add(n, out, arrs, a.vary | b.vary)

    def op_reduce(self):
        a = self.pick(lambda v: len(v.shape) >= 2)
        d = self.rng.randrange(len(a.shape))
        out = tuple(s for i, s in enumerate(a.shape) if i != d)
        kind = self.rng.choice(["sum", "max", "min"])
        if kind == "sum":
            lit, comb = self.zero_lit(), "addf" if is_float(self.elt) else "addi"
            arrs = self.apply(lambda x: np.sum(x, axis=d, dtype=x.dtype), a)
        elif kind == "max":
            lit, comb = self.lowest_lit(), "maximumf" if is_float(self.elt) else "maxsi"
            arrs = self.apply(lambda x: np.max(x, axis=d), a)
        else:
            lit, comb = self.highest_lit(), "minimumf" if is_float(self.elt) else "minsi"
            arrs = self.apply(lambda x: np.min(x, axis=d), a)
        self.check_magnitude(arrs)
        f = self.filled(out, lit)
        n, k = self.name(), self.count
        self.emit(f"{n} = linalg.reduce ins({a.name} : {a.type}) outs({f} : {tensor_type(out, self.elt)}) "
                  f"dimensions = [{d}]")
        self.emit(f"  (%in{k}: {self.elt}, %acc{k}: {self.elt}) {{")
        self.emit(f"    %r{k} = arith.{comb} %in{k}, %acc{k} : {self.elt}")
        self.emit(f"    linalg.yield %r{k} : {self.elt}")
        self.emit("  }")
        self.add(n, out, arrs, a.vary)

    def op_transpose(self):
        a = self.pick(lambda v: len(v.shape) >= 2)
        perm = list(range(len(a.shape)))
        self.rng.shuffle(perm)
        out = tuple(a.shape[p] for p in perm)
        arrs = self.apply(lambda x: np.ascontiguousarray(np.transpose(x, perm)), a)
        e, n = self.name(), self.name()
        ot = tensor_type(out, self.elt)
        self.emit(f"{e} = tensor.empty() : {ot}")
        self.emit(f"{n} = linalg.transpose ins({a.name} : {a.type}) outs({e} : {ot}) "
                  f"permutation = [{', '.join(map(str, perm))}]")
        self.add(n, out, arrs, a.vary)

    def op_broadcast(self):
        a = self.pick(lambda v: 1 <= len(v.shape) <= 2)
        d = self.rng.randrange(len(a.shape) + 1)
        size = self.rng.choice([2, 4])
        out = list(a.shape)
        out.insert(d, size)
        arrs = self.apply(lambda x: np.ascontiguousarray(
            np.broadcast_to(np.expand_dims(x, d), out)), a)
        e, n = self.name(), self.name()
        ot = tensor_type(out, self.elt)
        self.emit(f"{e} = tensor.empty() : {ot}")
        self.emit(f"{n} = linalg.broadcast ins({a.name} : {a.type}) outs({e} : {ot}) dimensions = [{d}]")
        self.add(n, out, arrs, a.vary)

    def op_slice(self):
        a = self.pick(lambda v: len(v.shape) >= 1 and max(v.shape) >= 2)
        offs, sizes = [], []
        for x in a.shape:
            s = self.rng.randint(1, x)
            offs.append(self.rng.randint(0, x - s))
            sizes.append(s)
        sl = tuple(slice(o, o + s) for o, s in zip(offs, sizes))
        arrs = self.apply(lambda x: np.ascontiguousarray(x[sl]), a)
        n = self.name()
        self.emit(f"{n} = tensor.extract_slice {a.name}[{', '.join(map(str, offs))}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] "
                  f": {a.type} to {tensor_type(sizes, self.elt)}")
        self.add(n, sizes, arrs, a.vary)

    def op_concat(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        d = self.rng.randrange(len(a.shape))
        b = self.pick(lambda v: len(v.shape) == len(a.shape) and all(
            x == y for i, (x, y) in enumerate(zip(v.shape, a.shape)) if i != d))
        out = list(a.shape)
        out[d] += b.shape[d]
        arrs = self.apply(lambda x, y: np.concatenate([x, y], axis=d), a, b)
        n = self.name()
        self.emit(f"{n} = tensor.concat dim({d}) {a.name}, {b.name} : ({a.type}, {b.type}) "
                  f"-> {tensor_type(out, self.elt)}")
        self.add(n, out, arrs, a.vary | b.vary)

    def op_constraint(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        n = self.name()
        dims = self.sharding_dims(a.shape)
        spec = self.spec_text(dims)
        # A partial sum over axes the split does not use: the value is the
        # same, held as blocks that sum to it.
        free = [x for x, _ in self.axes if not any(x in d for d in dims)]
        if "unreduced" in self.feats and free and self.rng.random() < 0.4:
            self.rng.shuffle(free)
            chosen = free[:self.rng.randint(1, len(free))]
            spec += ", unreduced = {" + ", ".join(f'"{x}"' for x in chosen) + "}"
            self.used.add("unreduced")
        self.emit(f"{n} = trellis.sharding_constraint {a.name} to <@m, {spec}> : {a.type}")
        self.add(n, a.shape, a.arrs, a.vary)

    def op_gather(self):
        idxs = [v for v in self.scope if v.elt == "index"]
        if self.local:
            if not idxs:
                raise Skip()
            idx = self.rng.choice(idxs)
            bound = idx.bound
            t = self.pick(lambda v: 1 <= len(v.shape) <= 2 and v.shape[0] >= bound)
        else:
            t = self.pick(lambda v: 1 <= len(v.shape) <= 2)
            usable = [v for v in idxs if v.bound <= t.shape[0]]
            if usable and self.rng.random() < 0.5:
                idx = self.rng.choice(usable)
            else:
                nn = self.rng.choice([2, 4, 8])
                arr = np.array([self.rng.randrange(t.shape[0]) for _ in range(nn)], np.int64)
                idx = self.new_arg((nn,), elt="index", arr=arr)
                idx.bound = t.shape[0]
                self.scope.append(idx)
        nn = idx.shape[0]
        out = (nn,) + t.shape[1:]
        arrs = [np.ascontiguousarray(t.arrs[i][idx.arrs[i]]) for i in range(len(t.arrs))]
        e, n, k = self.name(), self.name(), self.count
        ot = tensor_type(out, self.elt)
        it = tensor_type(idx.shape, "index")
        self.emit(f"{e} = tensor.empty() : {ot}")
        if len(t.shape) == 1:
            maps = "[affine_map<(n) -> (n)>, affine_map<(n) -> (n)>]"
            iters = '["parallel"]'
        else:
            maps = "[affine_map<(n, c) -> (n)>, affine_map<(n, c) -> (n, c)>]"
            iters = '["parallel", "parallel"]'
        self.emit(f"{n} = linalg.generic {{indexing_maps = {maps}, iterator_types = {iters}}} "
                  f"ins({idx.name} : {it}) outs({e} : {ot}) {{")
        self.emit(f"^bb0(%gi{k}: index, %gu{k}: {self.elt}):")
        if len(t.shape) == 1:
            self.emit(f"  %gv{k} = tensor.extract {t.name}[%gi{k}] : {t.type}")
        else:
            self.emit(f"  %gc{k} = linalg.index 1 : index")
            self.emit(f"  %gv{k} = tensor.extract {t.name}[%gi{k}, %gc{k}] : {t.type}")
        self.emit(f"  linalg.yield %gv{k} : {self.elt}")
        self.emit(f"}} -> {ot}")
        self.add(n, out, arrs, t.vary | idx.vary)

    def binop(self):
        if is_float(self.elt):
            return self.rng.choice([("addf", np.add), ("maximumf", np.maximum), ("mulf", np.multiply)])
        return self.rng.choice([("addi", np.add), ("muli", np.multiply), ("xori", np.bitwise_xor)])

    def op_for(self, collective=None):
        a = self.pick(lambda v: len(v.shape) >= 1)
        b = self.pick(lambda v: v.shape == a.shape)
        trips = self.rng.randint(0, 3)
        mnem, fn = self.binop()
        coll = None
        if collective:
            coll = self.random_reduce_like(a)
        arrs = list(a.arrs)
        for _ in range(trips):
            with np.errstate(all="ignore"):
                arrs = [fn(x, y) for x, y in zip(arrs, b.arrs)]
            if coll:
                arrs = coll[2](arrs)
        self.check_magnitude(arrs)
        n, k = self.name(), self.count
        self.emit(f"%lb{k} = arith.constant 0 : index")
        self.emit(f"%ub{k} = arith.constant {trips} : index")
        self.emit(f"%st{k} = arith.constant 1 : index")
        self.emit(f"{n} = scf.for %iv{k} = %lb{k} to %ub{k} step %st{k} iter_args(%c{k} = {a.name}) "
                  f"-> ({a.type}) {{")
        self.emit(f"  %y{k} = arith.{mnem} %c{k}, {b.name} : {a.type}")
        if coll:
            self.emit(f"  %z{k} = {coll[0]} %y{k} over {coll[1]} : {a.type}")
            self.emit(f"  scf.yield %z{k} : {a.type}")
        else:
            self.emit(f"  scf.yield %y{k} : {a.type}")
        self.emit("}")
        vary = a.vary | b.vary
        if coll:
            vary = vary | set(coll[3])  # conservative (ppermute makes it vary)
        self.add(n, a.shape, arrs, vary)

    def op_loop_collective(self):
        self.op_for(collective=True)

    def op_if(self, on_axis=False):
        a = self.pick(lambda v: len(v.shape) >= 1)
        b = self.pick(lambda v: v.shape == a.shape)
        c = self.pick(lambda v: len(v.shape) >= 1)
        mnem, fn = self.binop()
        k = self.count + 1
        n = self.name()
        cvary = c.vary
        if on_axis:
            axes = self.random_axes()
            g = self.gsize(axes)
            target = self.rng.randrange(g)
            conds = [self.group_index(d, axes) == target for d in range(self.ndev)]
            pre = [f"%ci{k} = spmd.axis_index over {self.axes_text(axes)} : index",
                   f"%ck{k} = arith.constant {target} : index",
                   f"%cond{k} = arith.cmpi eq, %ci{k}, %ck{k} : index"]
            cvary = frozenset(axes)
        else:
            zeros = ", ".join(f"%cz{k}" for _ in c.shape)
            conds = [bool(x.reshape(-1)[0] > 0) for x in c.arrs]
            cmp = "arith.cmpf ogt," if is_float(self.elt) else "arith.cmpi sgt,"
            pre = [f"%cz{k} = arith.constant 0 : index",
                   f"%cs{k} = tensor.extract {c.name}[{zeros}] : {c.type}",
                   f"%c0v{k} = arith.constant {self.zero_lit()} : {self.elt}",
                   f"%cond{k} = {cmp} %cs{k}, %c0v{k} : {self.elt}"]
        with np.errstate(all="ignore"):
            arrs = [fn(x, y) if cd else x for x, y, cd in zip(a.arrs, b.arrs, conds)]
        self.check_magnitude(arrs)
        for line in pre:
            self.emit(line)
        self.emit(f"{n} = scf.if %cond{k} -> ({a.type}) {{")
        self.emit(f"  %t{k} = arith.{mnem} {a.name}, {b.name} : {a.type}")
        self.emit(f"  scf.yield %t{k} : {a.type}")
        self.emit("} else {")
        self.emit(f"  scf.yield {a.name} : {a.type}")
        self.emit("}")
        self.add(n, a.shape, arrs, a.vary | b.vary | cvary)

    def op_if_axis(self):
        self.op_if(on_axis=True)

    # ---------------------------------------------------------- collectives
    def random_axes(self):
        axes = [a for a, _ in self.axes]
        self.rng.shuffle(axes)
        return axes[:self.rng.randint(1, len(axes))]

    @staticmethod
    def axes_text(axes):
        return "[" + ", ".join(f'"{a}"' for a in axes) + "]"

    def reduce_fn(self, kind, axes):
        def run(arrs):
            out = []
            for d in range(self.ndev):
                members = [arrs[m] for m in self.group(d, axes)]
                with np.errstate(all="ignore"):
                    if kind == "psum":
                        # f16 sums accumulate in f32 and round once.
                        wide = members[0].dtype == np.float16
                        acc = members[0].astype(np.float64) if wide else members[0].copy()
                        for x in members[1:]:
                            acc = acc + (x.astype(np.float64) if wide else x)
                    elif kind == "pmax":
                        acc = np.maximum.reduce(members)
                    else:
                        acc = np.minimum.reduce(members)
                out.append(np.asarray(acc, dtype=arrs[0].dtype))
            return out
        return run

    def ppermute_fn(self, axes):
        g = self.gsize(axes)
        srcs = list(range(g))
        tgts = list(range(g))
        self.rng.shuffle(tgts)
        npairs = self.rng.randint(1, g) if g > 1 else 1
        if self.rng.random() < 0.6:
            npairs = g
        pairs = list(zip(srcs, tgts))
        self.rng.shuffle(pairs)
        pairs = pairs[:npairs]
        src_of = {t: s for s, t in pairs}

        def run(arrs):
            out = []
            for d in range(self.ndev):
                members = self.group(d, axes)
                t = self.group_index(d, axes)
                if t in src_of:
                    out.append(arrs[members[src_of[t]]].copy())
                else:
                    out.append(np.zeros_like(arrs[d]))
            return out
        text = "[" + ", ".join(f"[{s}, {t}]" for s, t in pairs) + "]"
        return text, run

    def random_reduce_like(self, a):
        """(op text, axes text, fn, varying axes) for a shape-preserving collective."""
        axes = self.random_axes()
        kinds = [k for k in ["psum", "pmax", "pmin", "ppermute"] if k in self.feats]
        if not kinds:
            raise Skip()
        kind = self.rng.choice(kinds)
        self.used.add(kind)
        if kind == "ppermute":
            pairs, fn = self.ppermute_fn(axes)
            return (f"spmd.ppermute", f"{self.axes_text(axes)} pairs {pairs}", fn, axes)
        return (f"spmd.{kind}", self.axes_text(axes), self.reduce_fn(kind, axes), [])

    def reduce_collective(self, kind):
        a = self.pick(lambda v: len(v.shape) >= 1)
        axes = self.random_axes()
        arrs = self.reduce_fn(kind, axes)(a.arrs)
        self.check_magnitude(arrs)
        n = self.name()
        self.emit(f"{n} = spmd.{kind} {a.name} over {self.axes_text(axes)} : {a.type}")
        self.add(n, a.shape, arrs, a.vary - set(axes))

    def op_psum(self):
        self.reduce_collective("psum")

    def op_pmax(self):
        self.reduce_collective("pmax")

    def op_pmin(self):
        self.reduce_collective("pmin")

    def op_ppermute(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        axes = self.random_axes()
        pairs, fn = self.ppermute_fn(axes)
        arrs = fn(a.arrs)
        n = self.name()
        self.emit(f"{n} = spmd.ppermute {a.name} over {self.axes_text(axes)} pairs {pairs} : {a.type}")
        self.add(n, a.shape, arrs, a.vary | set(axes))

    def op_all_gather(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        axes = self.random_axes()
        g = self.gsize(axes)
        d = self.rng.randrange(len(a.shape))
        out = list(a.shape)
        out[d] *= g
        if int(np.prod(out)) > 4096:
            raise Skip()
        arrs = [np.concatenate([a.arrs[m] for m in self.group(dev, axes)], axis=d)
                for dev in range(self.ndev)]
        n = self.name()
        self.emit(f"{n} = spmd.all_gather {a.name} over {self.axes_text(axes)} dim {d} tiled "
                  f": {a.type} -> {tensor_type(out, self.elt)}")
        self.add(n, out, arrs, a.vary | set(axes))

    def op_psum_scatter(self):
        axes = self.random_axes()
        g = self.gsize(axes)
        a = self.pick(lambda v: any(s % g == 0 for s in v.shape))
        d = self.rng.choice([i for i, s in enumerate(a.shape) if s % g == 0])
        out = list(a.shape)
        out[d] //= g
        summed = self.reduce_fn("psum", axes)(a.arrs)
        arrs = []
        for dev in range(self.ndev):
            k = self.group_index(dev, axes)
            arrs.append(np.ascontiguousarray(np.split(summed[dev], g, axis=d)[k]))
        self.check_magnitude(arrs)
        n = self.name()
        self.emit(f"{n} = spmd.psum_scatter {a.name} over {self.axes_text(axes)} dim {d} tiled "
                  f": {a.type} -> {tensor_type(out, self.elt)}")
        self.add(n, out, arrs, a.vary | set(axes))

    def op_all_to_all(self):
        axes = self.random_axes()
        g = self.gsize(axes)
        a = self.pick(lambda v: any(s % g == 0 for s in v.shape))
        s = self.rng.choice([i for i, x in enumerate(a.shape) if x % g == 0])
        c = self.rng.randrange(len(a.shape))
        out = list(a.shape)
        out[s] //= g
        out[c] *= g
        arrs = []
        for dev in range(self.ndev):
            j = self.group_index(dev, axes)
            blocks = [np.split(a.arrs[m], g, axis=s)[j] for m in self.group(dev, axes)]
            arrs.append(np.ascontiguousarray(np.concatenate(blocks, axis=c)))
        n = self.name()
        self.emit(f"{n} = spmd.all_to_all {a.name} over {self.axes_text(axes)} split {s} concat {c} "
                  f": {a.type} -> {tensor_type(out, self.elt)}")
        self.add(n, out, arrs, a.vary | set(axes))

    def op_axis_index(self):
        a = self.pick(lambda v: len(v.shape) >= 1)
        axes = self.random_axes()
        k = self.count + 1
        n = self.name()
        self.emit(f"%ai{k} = spmd.axis_index over {self.axes_text(axes)} : index")
        if is_float(self.elt):
            self.emit(f"%aj{k} = arith.index_cast %ai{k} : index to i64")
            self.emit(f"%as{k} = arith.sitofp %aj{k} : i64 to {self.elt}")
        else:
            self.emit(f"%as{k} = arith.index_cast %ai{k} : index to {self.elt}")
        self.emit(f"%ae{k} = tensor.empty() : {a.type}")
        self.emit(f"%af{k} = linalg.fill ins(%as{k} : {self.elt}) outs(%ae{k} : {a.type}) -> {a.type}")
        op = "addf" if is_float(self.elt) else "addi"
        self.emit(f"{n} = arith.{op} {a.name}, %af{k} : {a.type}")
        with np.errstate(all="ignore"):
            arrs = [a.arrs[d] + np.asarray(self.group_index(d, axes), dtype=self.dtype)
                    for d in range(self.ndev)]
        self.add(n, a.shape, arrs, a.vary | set(axes))

    # ------------------------------------------------------------ shard_map
    def actual_vary(self, v):
        out = set()
        for a, s in self.axes:
            if s == 1:
                continue
            for d in range(self.ndev):
                if self.coords[d][a] == 0:
                    continue
                c = dict(self.coords[d])
                c[a] = 0
                d0 = self.coords.index(c)
                if not same_bits(v.arrs[d], v.arrs[d0]):
                    out.add(a)
                    break
        return out

    def shard_map(self, inputs, steps, uneven=None):
        """Emits a shard_map over every axis taking `inputs` (global Values);
        returns its results as global Values."""
        specs = []
        for v in inputs:
            dims = self.sharding_dims(v.shape, prob=0.6)
            specs.append(dims)
        if uneven is not None:
            # make input 0's dimension `uneven` not divisible by its axes
            i, d = 0, uneven
            big = [a for a, s in self.axes if s > 1]
            specs[i] = [[x for x in dd if x not in big[:1]] for dd in specs[i]]
            specs[i][d].append(big[0])
        outer_depth = self.depth
        outer_scope = self.scope
        self.local = True
        self.depth += 1
        block_names = []
        self.scope = []
        for i, (v, dims) in enumerate(zip(inputs, specs)):
            bn = self.name("b")
            shape = [s // self.gsize(dd) for s, dd in zip(v.shape, dims)]
            arrs = []
            for dev in range(self.ndev):
                sl = []
                for s, dd, full in zip(shape, dims, v.shape):
                    k = self.group_index(dev, dd)
                    sl.append(slice(k * s, (k + 1) * s))
                arrs.append(np.ascontiguousarray(v.arrs[0][tuple(sl)]) if uneven is None else None)
            vary = {a for dd in dims for a in dd}
            nv = Value(bn, shape, v.elt, arrs, vary, exact=v.exact)
            if v.elt == "index":
                nv.bound = v.bound
            self.scope.append(nv)
            block_names.append(f"{bn}: {tensor_type(shape, v.elt)}")
        body_start = len(self.lines)
        self.emit("^bb0(" + ", ".join(block_names) + "):")
        if uneven is None:
            for _ in range(steps):
                self.step()
        elt_vals = [v for v in self.scope if v.elt == self.elt]
        nres = min(len(elt_vals), self.rng.randint(1, 3))
        results = []
        for _ in range(nres):
            results.append(elt_vals[-1] if self.rng.random() < 0.5 or not results
                           else self.rng.choice(elt_vals))
        out_specs, check_vma = [], True
        outs = []
        for v in results:
            need = sorted(self.actual_vary(v)) if uneven is None else []
            extra = [a for a, _ in self.axes if a not in need and self.rng.random() < 0.25]
            mentioned = need + extra
            self.rng.shuffle(mentioned)
            dims = [[] for _ in v.shape]
            for a in mentioned:
                dims[self.rng.randrange(len(v.shape))].append(a)
            if not v.vary <= set(mentioned):
                check_vma = False
            out_specs.append(dims)
            gshape = [s * self.gsize(dd) for s, dd in zip(v.shape, dims)]
            if uneven is not None:
                outs.append(Value(None, gshape, v.elt, [None]))
                continue
            g = np.zeros(gshape, dtype=self.dtype)
            for dev in range(self.ndev):
                if any(self.coords[dev][a] != 0 for a, _ in self.axes if a not in mentioned):
                    continue
                sl = []
                for s, dd in zip(v.shape, dims):
                    k = self.group_index(dev, dd)
                    sl.append(slice(k * s, (k + 1) * s))
                g[tuple(sl)] = v.arrs[dev]
            outs.append(Value(None, gshape, v.elt, [g]))
        self.emit("spmd.yield " + ", ".join(v.name for v in results) + " : "
                  + ", ".join(v.type for v in results))
        body = self.lines[body_start:]
        del self.lines[body_start:]
        self.depth = outer_depth
        self.scope = outer_scope
        self.local = False
        n = self.name("s")
        lhs = n if len(outs) == 1 else f"{n}:{len(outs)}"
        rtypes = [o.type for o in outs]
        rtext = rtypes[0] if len(rtypes) == 1 else "(" + ", ".join(rtypes) + ")"
        vma = "" if check_vma else " check_vma = false"
        if not check_vma:
            self.used.add("check_vma_false")
        self.emit(f"{lhs} = spmd.shard_map @m in_specs = [{', '.join(self.spec_text(s) for s in specs)}] "
                  f"out_specs = [{', '.join(self.spec_text(s) for s in out_specs)}]{vma} "
                  f"({', '.join(v.name for v in inputs)}) : ({', '.join(v.type for v in inputs)}) -> {rtext} {{")
        self.lines += body
        self.emit("}")
        for i, o in enumerate(outs):
            o.name = n if len(outs) == 1 else f"{n}#{i}"
            self.scope.append(o)
        return outs

    # --------------------------------------------------------------- whole
    def build(self, kind):
        self.kind = kind
        self.used.add(kind)
        self.depth = 1
        self.local = False
        self.scope = []
        r = self.rng
        dims = [2, 4, 8, 8, 16]
        nargs = r.randint(1, 3)
        shapes = []
        base = [r.choice(dims) for _ in range(3)]
        for _ in range(nargs):
            rank = r.randint(1, 3)
            shapes.append(tuple(r.choice(base + dims) for _ in range(rank)))
        if r.random() < 0.5:
            shapes.append(shapes[0])  # same-shape operands for elementwise ops
        if kind == "uneven":
            return self.build_uneven(shapes)
        for s in shapes:
            self.scope.append(self.new_arg(s))
        if kind in ("auto", "embedded"):
            for _ in range(r.randint(1, 6) if kind == "auto" else r.randint(0, 3)):
                self.step()
        if kind in ("embedded", "manual"):
            if kind == "manual":
                inputs = list(self.scope)
            else:
                vals = [v for v in self.scope if v.elt == self.elt]
                inputs = r.sample(vals, min(len(vals), r.randint(1, 3)))
            if "gather" in self.feats and r.random() < 0.5:
                nn = r.choice([4, 8])
                bound = r.choice([1, 2])
                arr = np.array([r.randrange(bound) for _ in range(nn)], np.int64)
                idx = self.new_arg((nn,), elt="index", arr=arr)
                idx.bound = bound
                inputs.append(idx)
            smap_outs = self.shard_map(inputs, r.randint(2, 8))
            if kind == "embedded":
                for _ in range(r.randint(1, 3)):
                    self.step()
        vals = [v for v in self.scope if v.elt == self.elt and v.shape]
        if "return_arg" not in self.feats:
            vals = [v for v in vals if not v.name.startswith("%arg")] or vals
        if kind != "auto":
            # results of the shard_map and what follows it
            vals = vals[-4:]
        outs = r.sample(vals, min(len(vals), r.randint(1, 2)))
        if any(v.name.startswith("%arg") for v in outs):
            self.used.add("return_arg")
        if kind != "auto" and vals[-1] not in outs:
            outs[0] = vals[-1]
        if kind == "manual":
            # trellis-run: a manual program's results come from its shard_map
            outs = r.sample(smap_outs, min(len(smap_outs), r.randint(1, 2)))
        self.outs = outs
        return self.text()

    def build_uneven(self, shapes):
        self.uneven_accepted = False
        big = [a for a, s in self.axes if s > 1]
        if not big:
            self.axes[0] = (self.axes[0][0], 2)
            self.size = dict(self.axes)
            self.make_coords_again()
            big = [self.axes[0][0]]
        # a dimension that no axis of size > 1 divides: odd
        shape = list(shapes[0])
        d = self.rng.randrange(len(shape))
        shape[d] = self.rng.choice([3, 5, 6, 7]) if self.size[big[0]] == 4 else self.rng.choice([3, 5, 7])
        shape = tuple(shape)
        how = self.rng.choice(["arg", "constraint", "shard_map", "shard_map", "collective"])
        if how == "constraint":
            # global program: a sharding constraint does not divide
            v = self.new_arg(shape, sharded=False)
            dims = [[] for _ in shape]
            dims[d] = [big[0]]
            n = self.name()
            self.emit(f"{n} = trellis.sharding_constraint {v.name} to <@m, {self.spec_text(dims)}> : {v.type}")
            m = self.name()
            op = "addf" if is_float(self.elt) else "addi"
            self.emit(f"{m} = arith.{op} {n}, {n} : {v.type}")
            self.outs = [Value(m, shape, self.elt, [v.arrs[0] + v.arrs[0]])]
            self.uneven_accepted = True
            self.used.add("uneven_constraint")
        elif how == "collective":
            # a psum_scatter or all_to_all splitting a dimension unevenly
            v = self.new_arg(shape, sharded=False)
            g = self.size[big[0]]
            out = list(shape)
            out[d] = max(1, shape[d] // g)
            ot = tensor_type(out, self.elt)
            self.emit(f"%s = spmd.shard_map @m in_specs = [[]] out_specs = [[]] check_vma = false "
                      f"({v.name}) : ({v.type}) -> {ot} {{")
            self.emit(f"^bb0(%b: {v.type}):")
            if self.rng.random() < 0.5:
                self.emit(f'  %r = spmd.psum_scatter %b over ["{big[0]}"] dim {d} tiled : {v.type} -> {ot}')
            else:
                self.emit(f'  %r = spmd.all_to_all %b over ["{big[0]}"] split {d} concat {d} : {v.type} -> {ot}')
            self.emit(f"  spmd.yield %r : {ot}")
            self.emit("}")
            self.outs = [Value("%s", out, self.elt, [None])]
            self.used.add("uneven_collective")
        elif how == "arg":
            # global program: argument sharding does not divide
            dims = [[] for _ in shape]
            dims[d] = [big[0]]
            arr = self.random_array(shape)
            name = "%arg0"
            attr = f" {{trellis.sharding = #trellis.sharding<@m, {self.spec_text(dims)}>}}"
            v = Value(name, shape, self.elt, [arr])
            self.args.append((f"{name}: {v.type}{attr}", v))
            self.inputs.append(arr)
            n = self.name()
            op = "addf" if is_float(self.elt) else "addi"
            self.emit(f"{n} = arith.{op} {name}, {name} : {v.type}")
            self.outs = [Value(n, shape, self.elt, [arr + arr])]
            self.uneven_accepted = True
            self.used.add("uneven_global")
        else:
            v = self.new_arg(shape, sharded=False)
            outs = self.shard_map([v], 0, uneven=d)
            self.outs = outs
            self.used.add("uneven_shard_map")
        return self.text()

    def make_coords_again(self):
        self.ndev = int(np.prod([s for _, s in self.axes]))
        self.coords = []
        for d in range(self.ndev):
            c, rest = {}, d
            for a, s in reversed(self.axes):
                c[a] = rest % s
                rest //= s
            self.coords.append(c)

    def text(self):
        mesh = "[" + ", ".join(f'"{a}"={s}' for a, s in self.axes) + "]"
        results = []
        for v in self.outs:
            if self.kind == "auto" and self.rng.random() < 0.3:
                dims = self.sharding_dims(v.shape)
                results.append(f"{v.type} {{trellis.sharding = #trellis.sharding<@m, {self.spec_text(dims)}>}}")
            else:
                results.append(v.type)
        rt = ", ".join(results)
        return (f"// difftest program {self.index}: kind={self.kind} elt={self.elt} "
                f"features={','.join(sorted(self.used))}\n"
                f"trellis.mesh @m = <{mesh}>\n"
                f"func.func @main({', '.join(a for a, _ in self.args)}) -> ({rt}) {{\n"
                + "\n".join(self.lines) + "\n"
                f"  return {', '.join(v.name for v in self.outs)} : {', '.join(v.type for v in self.outs)}\n}}\n")


# ----------------------------------------------------------------- compare
def tolerance(dtype, used):
    if dtype == np.float32:
        return (2e-3, 2e-3) if ("math" in used or "bf16" in used) else (1e-4, 1e-4)
    if dtype == np.float16:
        # One f16 rounding is 2^-11 relative; chains of rounded ops and
        # partial sums in another order drift a few of those.
        return (1e-2, 1e-2) if "math" in used else (5e-3, 5e-3)
    return 1e-9, 1e-9


def compare(expected, actual, used):
    """None if equal, else a description of the first difference."""
    if actual.shape != expected.shape:
        return f"shape {actual.shape} vs expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype} vs expected {expected.dtype}"
    if expected.dtype.kind != "f":
        bad = np.argwhere(actual != expected)
        if bad.size:
            i = tuple(bad[0])
            return f"{len(bad)} of {expected.size} differ; first at {list(i)}: got {actual[i]}, expected {expected[i]}"
        return None
    rtol, atol = tolerance(expected.dtype, used)
    en, an = np.isnan(expected), np.isnan(actual)
    fin = np.isfinite(expected)
    scale = max(1.0, float(np.abs(expected[fin]).max())) if fin.any() else 1.0
    with np.errstate(all="ignore"):
        close = np.abs(actual.astype(np.float64) - expected.astype(np.float64)) <= \
            atol * scale + rtol * np.abs(expected.astype(np.float64))
    ok = np.where(en, an, np.where(fin, close & np.isfinite(actual), actual == expected))
    bad = np.argwhere(~ok)
    if bad.size:
        i = tuple(bad[0])
        return f"{len(bad)} of {expected.size} differ; first at {list(i)}: got {actual[i]!r}, expected {expected[i]!r}"
    return None


def perturb(expected, rng):
    e = expected.copy()
    flat = e.reshape(-1)
    if not flat.size:
        return None
    i = rng.randrange(flat.size)
    if e.dtype.kind == "f":
        x = flat[i]
        if np.isnan(x) or np.isinf(x):
            flat[i] = 0.0
        else:
            fin = np.isfinite(e)
            scale = max(1.0, float(np.abs(e[fin]).max())) if fin.any() else 1.0
            flat[i] = x + e.dtype.type(0.05 * scale + abs(float(x)) * 0.01)
    else:
        with np.errstate(all="ignore"):
            flat[i] = flat[i] + e.dtype.type(1)
    return e


CRASH_RE = re.compile(r"LLVM ERROR|Stack dump|Assertion .* failed|PLEASE submit a bug report|"
                      r"Segmentation fault|AddressSanitizer|terminate called")


def crash_frame(text):
    """The innermost Trellis frame of a stack dump, to tell crashes apart."""
    for line in text.splitlines():
        m = re.match(r"\s*#\d+ 0x[0-9a-f]+ (.*)", line)
        if m and ("trellis" in m.group(1) or "Pass::" in m.group(1)) and "runMain" not in m.group(1):
            return " in " + re.sub(r"\(.*", "", m.group(1)).strip()
    return ""


def run_trellis(run, path, work, inputs, timeout, extra=()):
    outdir = os.path.join(work, "out")
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [run, path, "--quiet", "--reference", "--output-dir", outdir, "--timeout", str(timeout)]
    cmd += list(extra)
    for i, f in enumerate(inputs):
        cmd += ["--input", f"{i}={f}"]
    for attempt in range(20):
        if os.path.exists(run) or (os.sep not in run and shutil.which(run)):
            break
        time.sleep(3)  # trellis-run is being rebuilt
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30)
        return cmd, p.returncode, p.stdout, p.stderr, outdir
    except subprocess.TimeoutExpired as e:
        return cmd, None, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), \
            "", outdir


def check_program(args, i, seed, stats, rng_self):
    rng = random.Random(f"{seed}-{i}")
    feats = args.feats
    kinds = [k for k in ["auto", "embedded", "manual", "uneven"] if k in feats]
    weights = {"auto": 3, "embedded": 3, "manual": 5, "uneven": 1}
    kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
    prog = Program(rng, feats, i)
    text = prog.build(kind)
    pdir = os.path.join(args.workdir, f"p{i}")
    os.makedirs(pdir, exist_ok=True)
    path = os.path.join(pdir, "prog.mlir")
    with open(path, "w") as f:
        f.write(text)
    inputs = []
    for k, arr in enumerate(prog.inputs):
        fn = os.path.join(pdir, f"arg{k}.npy")
        np.save(fn, arr)
        inputs.append(fn)
    for u in prog.used:
        stats[u] = stats.get(u, 0) + 1
    extra = []
    # Drawn from its own stream, so that the programs of a seed stay the
    # same with and without this feature.
    if "canonicalize" in feats and random.Random(f"{seed}-{i}-passes").random() < 1 / 3:
        extra.append("--passes=canonicalize")
        stats["canonicalize"] = stats.get("canonicalize", 0) + 1
    draw = random.Random(f"{seed}-{i}-overlap").random()
    if "overlap" in feats and draw < 1 / 3:
        extra.append("--overlap")
        stats["overlap"] = stats.get("overlap", 0) + 1
        if draw < 1 / 6 and not any(e.startswith("--passes") for e in extra):
            extra.append("--passes=spmd-chunk-all-to-all{chunks=2 threshold-bytes=0},"
                         "spmd-collective-matmul{force}")
            stats["overlap-forced"] = stats.get("overlap-forced", 0) + 1
    cmd, rc, out, err, outdir = run_trellis(args.trellis_run, path, pdir, inputs, args.timeout, extra)
    both = (out or "") + (err or "")
    with open(os.path.join(pdir, "command.txt"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    with open(os.path.join(pdir, "log.txt"), "w") as f:
        f.write(f"rc={rc}\n{both}")
    fail = None
    if rc is None:
        fail = ("timeout", "no exit")
    elif rc < 0 or rc >= 128 or CRASH_RE.search(both):
        m = CRASH_RE.search(both)
        fail = ("crash", f"rc={rc} " + (m.group(0) if m else "") + crash_frame(both))
    elif kind == "uneven" and not prog.uneven_accepted:
        if rc == 0:
            fail = ("uneven-accepted", "exit 0")
        elif "error" not in both:
            fail = ("uneven-no-message", f"rc={rc}")
        elif "divisible" not in both and "divide" not in both:
            lines = [l for l in both.splitlines() if "error" in l]
            fail = ("uneven-other-error", lines[0][:300])
    else:
        refs = [l for l in out.splitlines() if re.match(r"reference: out\d+ ", l)]
        mism = [l for l in refs if ": match" not in l]
        if mism:
            m = re.search(r"expected (\S+), got (\S+)", mism[0])
            kind_ = "reference-mismatch"
            if m and m.group(1) == m.group(2).rstrip(","):
                kind_ = "reference-mismatch-equal-values"  # the comparator, not the run
            fail = (kind_, mism[0])
        elif rc != 0:
            lines = [l for l in both.splitlines() if "error" in l] or both.splitlines()[-1:]
            fail = ("rejected", (lines[0] if lines else f"rc={rc}")[:300])
        elif len(refs) != len(prog.outs):
            fail = ("reference-missing", f"{len(refs)} reference lines for {len(prog.outs)} results")
    rejected = kind == "uneven" and not prog.uneven_accepted
    if (fail is None or fail[0].startswith("reference-mismatch")) and not rejected:
        for k, v in enumerate(prog.outs):
            fn = os.path.join(outdir, f"out{k}.npy")
            if not os.path.exists(fn):
                fail = ("missing-output", f"out{k}.npy")
                break
            actual = np.load(fn)
            expected = v.arrs[0]
            np.save(os.path.join(pdir, f"expected{k}.npy"), expected)
            d = compare(expected, actual, prog.used)
            if d:
                fail = ("numpy-mismatch" + ("+" + fail[0] if fail else ""), f"out{k}: {d}" +
                        (f" [{fail[1]}]" if fail else ""))
                break
            if args.self_test and not fail:
                bad = perturb(expected, rng_self)
                if bad is not None and compare(bad, actual, prog.used) is None:
                    fail = ("self-test", f"out{k}: perturbed expected value still compared equal")
                    break
                stats["self_test_checks"] = stats.get("self_test_checks", 0) + 1
    if fail:
        with open(os.path.join(pdir, "failure.txt"), "w") as f:
            f.write(f"{fail[0]}: {fail[1]}\n")
        return fail, path
    if not args.keep_all:
        shutil.rmtree(pdir, ignore_errors=True)
    return None, path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trellis_run")
    ap.add_argument("workdir")
    ap.add_argument("count", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--long", action="store_true")
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--features", default="")
    ap.add_argument("--without", default="")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--keep-all", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--stats", action="store_true", help="print how many programs used each feature")
    args = ap.parse_args()
    feats = set(FEATURES)
    if args.features:
        feats = set(x for x in args.features.split(",") if x)
        unknown = feats - set(FEATURES)
        if unknown:
            ap.error(f"unknown features: {', '.join(sorted(unknown))}")
    feats -= set(x for x in args.without.split(",") if x)
    if not feats & {"auto", "embedded", "manual", "uneven"}:
        feats |= {"auto", "embedded", "manual"}
    if not feats & set(ELTS):
        feats.add("f32")
    if not feats & {"elementwise", "math", "reduce", "transpose", "broadcast", "slice", "matmul"}:
        feats.add("elementwise")
    args.feats = feats
    os.makedirs(args.workdir, exist_ok=True)
    deadline = time.time() + args.hours * 3600 if args.long else None
    stats, failures, ran = {}, 0, 0
    rng_self = random.Random(args.seed)
    i = 0
    while i < args.count:
        if deadline and time.time() > deadline:
            break
        fail, path = check_program(args, i, args.seed, stats, rng_self)
        ran += 1
        if fail:
            failures += 1
            print(f"FAIL {fail[0]} {path}: {fail[1]}", flush=True)
        elif args.verbose:
            print(f"ok {path}", flush=True)
        i += 1
    if args.stats:
        print("features: " + ", ".join(f"{k}={stats[k]}" for k in sorted(stats)))
    print(f"difftest: {ran} run, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
