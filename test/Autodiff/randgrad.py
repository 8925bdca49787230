#!/usr/bin/env python3
"""Random differential tester for trellis-grad (reverse and forward mode).

Usage: randgrad.py TRELLIS_OPT TRELLIS_RUN WORKDIR [--programs N]
                   [--batch-size K] [--seed S] [--hours H] [--repeat-prob P]
                   [--self-test] [--max-minimize M] [--progress B]

Generates random f64 sub-programs (func + linalg/arith/math/tensor on
tensors), each with its own arguments and a scalar loss (a sum of squares
of its last value), and a numpy model of each built alongside its IR. About
half the ops take THE SAME VALUE in two or more operand positions
(matmul(x, x), mulf(y, y), generic ins(%a, %a, %b), concat(%x, %x),
insert_slice %x into %x, select(%c, %p, %p), a matmul accumulating into
one of its inputs, ...).

K sub-programs make one batch: a module with one function @pI per
sub-program and @all(every argument) -> the sum of their losses.
trellis-opt builds @all_grad (reverse mode, `--inline --trellis-grad=
funcs=all`) and @pI_jvp (forward mode, `--trellis-grad=funcs=p0,... jvp=true`);
a wrapper @main calls them all, and ONE trellis-run (the JIT costs most of
the time) gives every sub-program's loss, the gradient of each of its
arguments and its directional derivative along random tangents. Each
argument belongs to one sub-program, so a wrong value names its sub-program.
K is small (default 4): trellis-run inlines everything into the entry, and
LLVM's time on one function grows faster than its size (measured: 0.63 CPU
s per sub-program at K=40, 0.37 at K=16, about 0.2 at K=2..4; a trivial
program costs 0.1 s).

Checks, per sub-program, against the numpy model only (the finite
differences never touch trellis's gradient machinery):
  * the loss from @all_grad (summed) and from @pI_jvp equal numpy's;
  * reverse: for each argument a, <grad_a, v_a> equals the central finite
    difference (4-point stencil) of the numpy loss along v_a;
  * forward: the jvp tangent equals the finite difference along all v_a.
A mismatch is confirmed with a smaller step (a finite difference that moves
with the step, e.g. across a kink, is reported as fd-unstable, not as a
finding), then re-run alone and minimized (the loss moved to an earlier
value, inputs of ops cut into arguments) and saved as WORK/fail-*.mlir
with its inputs (.npz) and printed.

Failures: refusals (trellis-opt exits with an error: every generated program
is differentiable, so each is a finding; counted by normalized message),
crashes (signal, LLVM ERROR, assertion, stack dump), run failures,
mismatches (wrong answers). Batches that fail to compile or run are
bisected down to the sub-programs that fail alone.

Prints per-op counts (and how many took a repeated operand), programs per
second, and `randgrad: N programs, M failed` at the end; exit 1 on any
failure. --self-test also checks, on each batch, that a perturbed gradient
and a perturbed tangent are caught by the comparison.
"""
import argparse
import collections
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import zlib

import numpy as np

MAXV = 20.0          # |value| bound for intermediate values
MARGIN = 1e-2        # distance from a kink (max, select, abs) we require
H = 5e-5             # finite-difference step
TOL = 1e-6           # relative tolerance of gradient checks
PRIMAL_RTOL = 1e-9

CRASH_RE = re.compile(r"LLVM ERROR|Stack dump|Assertion .* failed|PLEASE submit a bug report|"
                      r"Segmentation fault|AddressSanitizer|terminate called|UNREACHABLE")


class Skip(Exception):
    pass


def ty(shape):
    if len(shape) == 0:
        return "tensor<f64>"
    return "tensor<" + "x".join(map(str, shape)) + "xf64>"


def amap(nloops, dims):
    ds = ", ".join(f"d{i}" for i in range(nloops))
    return f"affine_map<({ds}) -> ({', '.join(f'd{d}' for d in dims)})>"


def lit(x):
    return repr(float(x)) if np.isfinite(x) else ("0xFFF0000000000000" if x < 0 else "0x7FF0000000000000")


class Node:
    """One op of a sub-program. `ops` are operand node ids (repeated ids:
    the same value in several operand positions); `fn` computes the value
    from the operands' arrays; `emit(out, ins, tmp)` returns IR lines."""

    def __init__(self, nid, kind, shape, ops, fn, emit, rep=False):
        self.id, self.kind, self.shape = nid, kind, tuple(shape)
        self.ops, self.fn, self.emit, self.rep = list(ops), fn, emit, rep


# --------------------------------------------------------------- body exprs
# A scalar expression over block arguments, used in linalg.generic bodies:
# ('arg', k) | ('add'|'sub'|'mul'|'max'|'min', l, r) | ('tanh'|'sin'|'cos'|'neg', x)
# | ('sel', x, y, p, q): select(x > y, p, q)

def expr_eval(e, args):
    k = e[0]
    if k == "arg":
        return args[e[1]]
    if k == "cst":
        return np.float64(e[1])
    v = [expr_eval(x, args) for x in e[1:]]
    return {
        "add": lambda: v[0] + v[1], "sub": lambda: v[0] - v[1], "mul": lambda: v[0] * v[1],
        "max": lambda: np.maximum(v[0], v[1]), "min": lambda: np.minimum(v[0], v[1]),
        "tanh": lambda: np.tanh(v[0]), "sin": lambda: np.sin(v[0]), "cos": lambda: np.cos(v[0]),
        "neg": lambda: -v[0], "sel": lambda: np.where(v[0] > v[1], v[2], v[3]),
    }[k]()


def expr_margin(e, args):
    """Smallest distance from a kink over the expression (inf if none)."""
    k = e[0]
    if k in ("arg", "cst"):
        return np.inf
    m = min(expr_margin(x, args) for x in e[1:])
    if k in ("max", "min", "sel"):
        a, b = expr_eval(e[1], args), expr_eval(e[2], args)
        if e[1] != e[2]:
            d = np.abs(np.asarray(a - b))
            d = d[d != 0]
            if d.size:
                m = min(m, float(d.min()))
    return m


def expr_emit(e, names, fresh, lines):
    k = e[0]
    if k == "arg":
        return names[e[1]]
    if k == "cst":
        n = fresh()
        lines.append(f"{n} = arith.constant {lit(e[1])} : f64")
        return n
    v = [expr_emit(x, names, fresh, lines) for x in e[1:]]
    n = fresh()
    if k in ("add", "sub", "mul"):
        lines.append(f"{n} = arith.{k}f {v[0]}, {v[1]} : f64")
    elif k in ("max", "min"):
        lines.append(f"{n} = arith.{k}imumf {v[0]}, {v[1]} : f64")
    elif k in ("tanh", "sin", "cos"):
        lines.append(f"{n} = math.{k} {v[0]} : f64")
    elif k == "neg":
        lines.append(f"{n} = arith.negf {v[0]} : f64")
    elif k == "sel":
        c = fresh()
        lines.append(f"{c} = arith.cmpf ogt, {v[0]}, {v[1]} : f64")
        lines.append(f"{n} = arith.select {c}, {v[2]}, {v[3]} : f64")
    return n


def expr_has_kink(e):
    if e[0] in ("arg", "cst"):
        return False
    return e[0] in ("max", "min", "sel") or any(expr_has_kink(x) for x in e[1:])


def expr_uses(e, acc=None):
    acc = set() if acc is None else acc
    if e[0] == "arg":
        acc.add(e[1])
    elif e[0] != "cst":
        for x in e[1:]:
            expr_uses(x, acc)
    return acc


def random_expr(rng, nargs, depth, must=()):
    """A random body expression over args 0..nargs-1 using each in `must`."""
    def gen(d):
        if d == 0 or rng.random() < 0.3:
            return ("arg", rng.randrange(nargs))
        r = rng.random()
        if r < 0.5:
            return (rng.choice(["add", "sub", "mul", "mul"]), gen(d - 1), gen(d - 1))
        if r < 0.75:
            return (rng.choice(["tanh", "sin", "cos", "neg"]), gen(d - 1))
        if r < 0.88:
            return (rng.choice(["max", "min"]), gen(d - 1), gen(d - 1))
        return ("sel", gen(d - 1), gen(d - 1), gen(d - 1), gen(d - 1))
    e = gen(depth)
    for k in must:
        if k not in expr_uses(e):
            e = (rng.choice(["add", "mul"]), e, ("arg", k))
    return e


def expand(x, dims, loops):
    """x indexed by loop dims `dims` (a projected permutation) broadcast to
    the whole loop nest."""
    order = np.argsort(dims)
    xt = np.transpose(x, order) if x.ndim else x
    sd = sorted(dims)
    shape = [loops[l] if l in sd else 1 for l in range(len(loops))]
    return np.broadcast_to(np.reshape(xt, shape), loops)


# --------------------------------------------------------------- programs
class Prog:
    """A sub-program: a DAG of Nodes ending in a scalar loss."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.nodes = {}      # id -> Node
        self.order = []      # ids in program order
        self.args = []       # ids of argument nodes
        self.inputs = {}     # arg id -> array
        self.vals = {}       # id -> array at the inputs
        self.outs = []       # ids of the values whose squares the loss sums
        self.styles = []     # how each is squared and summed
        self.next = 0

    def name(self, nid):
        return f"%{self.prefix}{nid}"

    # ---- evaluation
    def evaluate(self, inputs, keep=None):
        vals = {}
        live = self.live()
        for nid in self.order:
            if nid not in live:
                continue
            n = self.nodes[nid]
            if n.kind == "arg":
                vals[nid] = inputs[nid]
            else:
                vals[nid] = n.fn(*[vals[o] for o in n.ops])
        return vals

    def loss(self, inputs):
        vals = self.evaluate(inputs)
        return float(sum(np.sum(vals[o] * vals[o]) for o in self.outs))

    def live(self):
        need, stack = set(), list(self.outs)
        while stack:
            x = stack.pop()
            if x in need:
                continue
            need.add(x)
            stack.extend(self.nodes[x].ops)
        return need

    def used_args(self):
        live = self.live()
        return [a for a in self.args if a in live]

    # ---- IR
    def func_text(self, fname, args=None):
        live = self.live()
        args = self.used_args() if args is None else args
        sig = ", ".join(f"{self.name(a)}: {ty(self.nodes[a].shape)}" for a in args)
        lines = [f"func.func @{fname}({sig}) -> tensor<f64> {{"]
        body = []
        for nid in self.order:
            n = self.nodes[nid]
            if n.kind == "arg" or nid not in live:
                continue
            cnt = [0]

            def tmp(nid=nid, cnt=cnt):
                cnt[0] += 1
                return f"%{self.prefix}{nid}_t{cnt[0]}"
            body += n.emit(self.name(nid), [self.name(o) for o in n.ops], tmp)
        body += self.loss_lines()
        body.append(f"return %{self.prefix}L : tensor<f64>")
        lines += ["  " + l for l in body]
        lines.append("}")
        return "\n".join(lines)

    def loss_lines(self):
        lines, terms = [], []
        one = len(self.outs) == 1
        for j, (o, st) in enumerate(zip(self.outs, self.styles)):
            p = f"%{self.prefix}L" if one else f"%{self.prefix}L{j}"
            lines += self.square_sum(self.name(o), self.nodes[o].shape, st, p)
            terms.append(p)
        acc = terms[0]
        for j, t in enumerate(terms[1:]):
            n = f"%{self.prefix}L" if j == len(terms) - 2 else f"%{self.prefix}La{j}"
            lines.append(f"{n} = arith.addf {acc}, {t} : tensor<f64>")
            acc = n
        return lines

    @staticmethod
    def square_sum(v, s, style, p):
        """sum(v * v) as `p`, written three ways (two read v twice)."""
        t = ty(s)
        r = len(s)
        if r == 0:
            return [f"{p} = arith.mulf {v}, {v} : tensor<f64>"]
        if style == "generic":
            maps = f"[{amap(r, range(r))}, {amap(r, range(r))}, {amap(r, [])}]"
            its = ", ".join(['"reduction"'] * r)
            return [f"{p}_z = arith.constant dense<0.0> : tensor<f64>",
                    f"{p} = linalg.generic {{indexing_maps = {maps}, iterator_types = [{its}]}} "
                    f"ins({v}, {v} : {t}, {t}) outs({p}_z : tensor<f64>) {{",
                    f"^bb0({p}_a: f64, {p}_b: f64, {p}_c: f64):",
                    f"  {p}_m = arith.mulf {p}_a, {p}_b : f64",
                    f"  {p}_s = arith.addf {p}_c, {p}_m : f64",
                    f"  linalg.yield {p}_s : f64",
                    "} -> tensor<f64>"]
        if style == "dot":
            n = int(np.prod(s))
            lines = []
            flat = v
            if r != 1:
                flat = f"{p}_f"
                lines.append(f"{flat} = tensor.collapse_shape {v} [[{', '.join(map(str, range(r)))}]] "
                             f": {t} into tensor<{n}xf64>")
            lines += [f"{p}_z = arith.constant dense<0.0> : tensor<f64>",
                      f"{p} = linalg.dot ins({flat}, {flat} : tensor<{n}xf64>, tensor<{n}xf64>) "
                      f"outs({p}_z : tensor<f64>) -> tensor<f64>"]
            return lines
        return [f"{p}_q = arith.mulf {v}, {v} : {t}",
                f"{p}_z = arith.constant dense<0.0> : tensor<f64>",
                f"{p} = linalg.reduce ins({p}_q : {t}) outs({p}_z : tensor<f64>) dimensions = "
                f"[{', '.join(map(str, range(r)))}]",
                f"  ({p}_a: f64, {p}_b: f64) {{",
                f"    {p}_s = arith.addf {p}_a, {p}_b : f64",
                f"    linalg.yield {p}_s : f64",
                "  }"]

    # ---- reduction helpers
    def copy(self):
        c = Prog(self.prefix)
        c.nodes = dict(self.nodes)
        c.order = list(self.order)
        c.args = list(self.args)
        c.inputs = dict(self.inputs)
        c.vals = dict(self.vals)
        c.outs, c.styles, c.next = list(self.outs), list(self.styles), self.next
        return c

    def cut(self, nid):
        """Node `nid` becomes an argument holding its value."""
        c = self.copy()
        n = self.nodes[nid]
        c.nodes[nid] = Node(nid, "arg", n.shape, [], None, None)
        c.inputs[nid] = self.vals[nid]
        c.args = sorted(c.args + [nid], key=c.order.index)
        return c

    def with_out(self, nid):
        c = self.copy()
        c.outs, c.styles = [nid], [self.styles[0]]
        return c

    def op_kinds(self):
        live = self.live()
        return sorted({self.nodes[i].kind + ("*" if self.nodes[i].rep else "")
                       for i in live if self.nodes[i].kind != "arg"})


class Gen:
    def __init__(self, rng, prefix, rep_prob, steps):
        self.rng = rng
        self.p = Prog(prefix)
        self.rep_prob = rep_prob
        self.steps = steps

    # ---- scope
    def new_id(self):
        self.p.next += 1
        return self.p.next

    def new_arg(self, shape):
        nid = self.new_id()
        arr = self.rng_np.uniform(-1.5, 1.5, size=shape)
        node = Node(nid, "arg", shape, [], None, None)
        self.p.nodes[nid] = node
        self.p.order.append(nid)
        self.p.args.append(nid)
        self.p.inputs[nid] = arr
        self.p.vals[nid] = arr
        return nid

    def add(self, kind, shape, ops, fn, emit, rep=None, margin=None, pos=False):
        arrs = [self.p.vals[o] for o in ops]
        val = np.asarray(fn(*arrs), dtype=np.float64)
        if val.shape != tuple(shape):
            raise AssertionError(f"{kind}: model shape {val.shape} != {shape}")
        if not np.all(np.isfinite(val)) or (val.size and np.max(np.abs(val)) > MAXV):
            raise Skip()
        if margin is not None and margin(*arrs) < MARGIN:
            raise Skip()
        if rep is None:
            rep = len(set(ops)) < len(ops)
        nid = self.new_id()
        self.p.nodes[nid] = Node(nid, kind, shape, ops, fn, emit, rep)
        self.p.order.append(nid)
        self.p.vals[nid] = val
        return nid

    def scope(self, pred=lambda s: True):
        return [i for i in self.p.order if pred(self.p.nodes[i].shape)]

    def pick(self, pred=lambda s: True):
        c = self.scope(pred)
        if not c:
            raise Skip()
        # favour the last value and values no op reads yet, so that most
        # ops feed the loss
        used = {o for n in self.p.nodes.values() for o in n.ops}
        last = self.p.order[-1]
        w = [1.0 + 8.0 * (i == last) + 3.0 * (i not in used) for i in c]
        return self.rng.choices(c, w)[0]

    def shape_of(self, nid):
        return self.p.nodes[nid].shape

    def val(self, nid):
        return self.p.vals[nid]

    def rep(self):
        return self.rng.random() < self.rep_prob

    def same_shape(self, a, allow_new=True):
        s = self.shape_of(a)
        if self.rep():
            return a
        c = [i for i in self.scope(lambda t: t == s) if i != a]
        if c and self.rng.random() < 0.7:
            return self.rng.choice(c)
        if allow_new:
            return self.new_arg(s)
        raise Skip()

    def positive(self, a):
        """A positive value built from `a` (a*a + 0.5), or `a` if it is."""
        if np.min(self.val(a)) > 0.2:
            return a
        s = self.shape_of(a)
        t = ty(s)

        def emit(o, ins, tmp):
            q, c = tmp(), tmp()
            return [f"{q} = arith.mulf {ins[0]}, {ins[1]} : {t}",
                    f"{c} = arith.constant dense<0.5> : {t}",
                    f"{o} = arith.addf {q}, {c} : {t}"]
        return self.add("arith.sqplus", s, [a, a], lambda x, y: x * y + 0.5, emit)

    def fill(self, tmp, shape, value=0.0):
        z = tmp()
        return z, [f"{z} = arith.constant dense<{lit(value)}> : {ty(shape)}"]

    # ---- ops
    def op_binary(self):
        a = self.pick(lambda s: True)
        s = self.shape_of(a)
        t = ty(s)
        m = self.rng.choice(["addf", "subf", "mulf", "mulf", "divf", "maximumf", "minimumf"])
        if m == "divf":
            b = self.same_shape(a)
            if b == a:
                if np.min(np.abs(self.val(a))) < 0.3:
                    raise Skip()
            else:
                b = self.positive(b)
        else:
            b = self.same_shape(a)
        if self.rng.random() < 0.5:
            a, b = b, a
            if m == "divf":
                raise Skip()
        fn = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide,
              "maximumf": np.maximum, "minimumf": np.minimum}[m]
        margin = None
        if m in ("maximumf", "minimumf") and a != b:
            def margin(x, y):
                d = np.abs(x - y)
                d = d[d != 0]
                return float(d.min()) if d.size else np.inf
        named = {"addf": "add", "subf": "sub", "mulf": "mul", "divf": "div",
                 "maximumf": "max", "minimumf": "min"}[m]
        if len(s) and self.rng.random() < 0.3:
            def emit(o, ins, tmp):
                e = tmp()
                return [f"{e} = tensor.empty() : {t}",
                        f"{o} = linalg.{named} ins({ins[0]}, {ins[1]} : {t}, {t}) outs({e} : {t}) -> {t}"]
            return self.add(f"linalg.{named}", s, [a, b], fn, emit, margin=margin)

        def emit(o, ins, tmp):
            return [f"{o} = arith.{m} {ins[0]}, {ins[1]} : {t}"]
        return self.add(f"arith.{m}", s, [a, b], fn, emit, margin=margin)

    def op_unary(self):
        a = self.pick()
        s = self.shape_of(a)
        t = ty(s)
        m = self.rng.choice(["negf", "exp", "tanh", "tanh", "sin", "cos", "log", "sqrt", "absf"])
        if m in ("log", "sqrt"):
            a = self.positive(a)
        if m == "exp" and np.max(self.val(a), initial=-np.inf) > 2.5:
            raise Skip()
        fn = {"negf": np.negative, "exp": np.exp, "tanh": np.tanh, "sin": np.sin, "cos": np.cos,
              "log": np.log, "sqrt": np.sqrt, "absf": np.abs}[m]
        margin = None
        if m == "absf":
            def margin(x):
                d = np.abs(x)
                d = d[d != 0]
                return float(d.min()) if d.size else np.inf
        d = "arith" if m == "negf" else "math"
        named = {"negf": "negf", "exp": "exp", "tanh": "tanh", "log": "log", "sqrt": "sqrt",
                 "absf": "abs"}.get(m)
        if named and len(s) and self.rng.random() < 0.25:
            def emit(o, ins, tmp):
                e = tmp()
                return [f"{e} = tensor.empty() : {t}",
                        f"{o} = linalg.{named} ins({ins[0]} : {t}) outs({e} : {t}) -> {t}"]
            return self.add(f"linalg.{named}", s, [a], fn, emit, margin=margin)

        def emit(o, ins, tmp):
            return [f"{o} = {d}.{m} {ins[0]} : {t}"]
        return self.add(f"{d}.{m}", s, [a], fn, emit, margin=margin)

    def op_square(self):
        a = self.pick(lambda s: len(s) >= 1)
        t = ty(self.shape_of(a))

        def emit(o, ins, tmp):
            e = tmp()
            return [f"{e} = tensor.empty() : {t}",
                    f"{o} = linalg.square ins({ins[0]} : {t}) outs({e} : {t}) -> {t}"]
        return self.add("linalg.square", self.shape_of(a), [a], lambda x: x * x, emit)

    def op_matmul(self):
        a = self.pick(lambda s: len(s) == 2)
        m, k = self.shape_of(a)
        if m == k and self.rep():
            b = a
        else:
            c = [i for i in self.scope(lambda s: len(s) == 2 and s[0] == k) if i != a]
            b = self.rng.choice(c) if c and self.rng.random() < 0.6 else \
                self.new_arg((k, self.rng.choice([1, 2, 3])))
        if self.rng.random() < 0.3:
            a, b = b, a
            if self.shape_of(a)[1] != self.shape_of(b)[0]:
                raise Skip()
        m, n = self.shape_of(a)[0], self.shape_of(b)[1]
        out = (m, n)
        ops = [a, b]
        acc = self.rng.random() < 0.3
        if acc:
            c = self.scope(lambda s: s == out)
            if not c:
                acc = False
            else:
                # prefer an operand as the accumulator: three positions
                pref = [i for i in c if i in ops]
                ops.append(self.rng.choice(pref) if pref and self.rep() else self.rng.choice(c))
        ta, tb, to = ty(self.shape_of(a)), ty(self.shape_of(b)), ty(out)

        def emit(o, ins, tmp):
            if len(ins) == 3:
                init, pre = ins[2], []
            else:
                init, pre = self.fill(tmp, out)
            return pre + [f"{o} = linalg.matmul ins({ins[0]}, {ins[1]} : {ta}, {tb}) "
                          f"outs({init} : {to}) -> {to}"]
        fn = (lambda x, y, z: z + x @ y) if acc else (lambda x, y: x @ y)
        return self.add("linalg.matmul", out, ops, fn, emit)

    def op_batch_matmul(self):
        a = self.pick(lambda s: len(s) == 3)
        bs, m, k = self.shape_of(a)
        if m == k and self.rep():
            b = a
        else:
            c = [i for i in self.scope(lambda s: len(s) == 3 and s[0] == bs and s[1] == k) if i != a]
            b = self.rng.choice(c) if c and self.rng.random() < 0.6 else \
                self.new_arg((bs, k, self.rng.choice([2, 3])))
        n = self.shape_of(b)[2]
        out = (bs, m, n)
        ops = [a, b]
        acc = self.rng.random() < 0.25
        if acc:
            c = self.scope(lambda s: s == out)
            if c:
                pref = [i for i in c if i in ops]
                ops.append(self.rng.choice(pref) if pref and self.rep() else self.rng.choice(c))
        ta, tb, to = ty(self.shape_of(a)), ty(self.shape_of(b)), ty(out)

        def emit(o, ins, tmp):
            if len(ins) == 3:
                init, pre = ins[2], []
            else:
                init, pre = self.fill(tmp, out)
            return pre + [f"{o} = linalg.batch_matmul ins({ins[0]}, {ins[1]} : {ta}, {tb}) "
                          f"outs({init} : {to}) -> {to}"]
        fn = (lambda x, y, z: z + x @ y) if len(ops) == 3 else (lambda x, y: x @ y)
        return self.add("linalg.batch_matmul", out, ops, fn, emit)

    def op_named_vec(self):
        kind = self.rng.choice(["dot", "matvec", "vecmat"])
        if kind == "dot":
            a = self.pick(lambda s: len(s) == 1)
            b = self.same_shape(a)
            out, fn = (), lambda x, y: np.dot(x, y)
        elif kind == "matvec":
            a = self.pick(lambda s: len(s) == 2)
            n = self.shape_of(a)[1]
            c = self.scope(lambda s: s == (n,))
            b = self.rng.choice(c) if c else self.new_arg((n,))
            out, fn = (self.shape_of(a)[0],), lambda x, y: x @ y
        else:
            b = self.pick(lambda s: len(s) == 2)
            m = self.shape_of(b)[0]
            c = self.scope(lambda s: s == (m,))
            a = self.rng.choice(c) if c else self.new_arg((m,))
            out, fn = (self.shape_of(b)[1],), lambda x, y: x @ y
        ta, tb, to = ty(self.shape_of(a)), ty(self.shape_of(b)), ty(out)

        def emit(o, ins, tmp):
            init, pre = self.fill(tmp, out)
            return pre + [f"{o} = linalg.{kind} ins({ins[0]}, {ins[1]} : {ta}, {tb}) "
                          f"outs({init} : {to}) -> {to}"]
        return self.add(f"linalg.{kind}", out, [a, b], fn, emit)

    def generic(self, kind, ins, maps, loops, iters, out_dims, expr, combine, init_op):
        """A linalg.generic over `loops` reading `ins` through `maps` (lists
        of loop dims), computing `combine` of acc and expr (None: a map),
        writing through `out_dims` (the parallel loops, in some order)."""
        red = [l for l in range(len(loops)) if iters[l] == "reduction"]
        par = [l for l in range(len(loops)) if iters[l] == "parallel"]
        out_shape = tuple(loops[d] for d in out_dims)
        shapes = [self.shape_of(i) for i in ins]
        nin = len(ins)
        plain = expr == "plain"

        def fn(*arrs):
            xs = [expand(x, m, loops) for x, m in zip(arrs[:nin], maps)]
            g = xs[0] * xs[1] if plain else expr_eval(expr, xs)
            g = np.broadcast_to(g, loops)
            if combine is None:
                r = g
            elif combine == "add":
                r = np.sum(g, axis=tuple(red))
            else:
                r = (np.max if combine == "max" else np.min)(g, axis=tuple(red))
            # r is indexed by the parallel loops in order
            perm = [par.index(d) for d in out_dims]
            r = np.transpose(r, perm) if r.ndim else r
            if init_op is not None and combine == "add":
                r = r + arrs[nin]
            elif init_op is not None:
                r = (np.maximum if combine == "max" else np.minimum)(r, arrs[nin])
            return r

        margin = None
        if not plain and (combine in ("max", "min") or expr_has_kink(expr)):
            def margin(*arrs):
                xs = [expand(x, m, loops) for x, m in zip(arrs[:nin], maps)]
                mg = expr_margin(expr, xs)
                if combine in ("max", "min"):
                    g = np.broadcast_to(expr_eval(expr, xs), loops)
                    mv = np.moveaxis(g, red, list(range(len(loops) - len(red), len(loops))))
                    mv = mv.reshape(mv.shape[:len(par)] + (-1,))
                    srt = np.sort(mv, axis=-1)
                    if combine == "min":
                        srt = srt[..., ::-1]
                    if srt.shape[-1] > 1:
                        d = np.abs(srt[..., -1:] - srt[..., :-1])
                        d = d[d != 0]
                        if d.size:
                            mg = min(mg, float(d.min()))
                return mg
        nl = len(loops)
        map_txt = ", ".join([amap(nl, m) for m in maps] + [amap(nl, out_dims)])
        it_txt = ", ".join(f'"{i}"' for i in iters)
        tys = [ty(s) for s in shapes]
        to = ty(out_shape)
        ops = list(ins) + ([init_op] if init_op is not None else [])
        fill_value = {"add": 0.0, "max": -np.inf, "min": np.inf, None: 0.0}[combine]

        def emit(o, names, tmp):
            pre = []
            if init_op is not None:
                init = names[nin]
            elif combine is None:
                init = tmp()
                pre.append(f"{init} = tensor.empty() : {to}")
            else:
                init, pre = self.fill(tmp, out_shape, fill_value)
            b = [tmp() for _ in range(nin + 1)]
            lines = [f"{o} = linalg.generic {{indexing_maps = [{map_txt}], iterator_types = [{it_txt}]}} "
                     f"ins({', '.join(names[:nin])} : {', '.join(tys)}) outs({init} : {to}) {{",
                     "^bb0(" + ", ".join(f"{x}: f64" for x in b) + "):"]
            body = []
            if plain:
                p, s = tmp(), tmp()
                body.append(f"{p} = arith.mulf {b[0]}, {b[1]} : f64")
                body.append(f"{s} = arith.addf {b[nin]}, {p} : f64" if self.rng_emit(o)
                            else f"{s} = arith.addf {p}, {b[nin]} : f64")
                res = s
            else:
                g = expr_emit(expr, b, tmp, body)
                if combine is None:
                    res = g
                else:
                    res = tmp()
                    op = {"add": "arith.addf", "max": "arith.maximumf", "min": "arith.minimumf"}[combine]
                    body.append(f"{res} = {op} {b[nin]}, {g} : f64")
            body.append(f"linalg.yield {res} : f64")
            return pre + lines + ["  " + x for x in body] + [f"}} -> {to}"]
        return self.add(kind, out_shape, ops, fn, emit, margin=margin)

    def rng_emit(self, o):
        # a deterministic choice of `acc + p` or `p + acc` per op name
        return zlib.crc32(o.encode()) % 2 == 0

    def op_contract(self):
        """A generic contraction (einsum) of two or three inputs."""
        specs = ["i,i->", "ij,ij->i", "ij,ij->j", "ij,jk->ik", "ij,kj->ik", "ji,jk->ik",
                 "bij,bjk->bik", "bij,bkj->bik", "ij,ij->", "ij,i->j", "ijk,ik->ij", "ij,ij,ij->i",
                 "ij,ji->i"]
        spec = self.rng.choice(specs)
        lhs, res = spec.split("->")
        terms = lhs.split(",")
        letters = sorted(set(lhs) - {","})
        a = self.pick(lambda s: len(s) == len(terms[0]))
        size = dict(zip(terms[0], self.shape_of(a)))
        ins = [a]
        for tm in terms[1:]:
            want = [size.get(c) for c in tm]
            cands = [i for i in self.scope(lambda s: len(s) == len(tm) and all(
                w is None or w == x for w, x in zip(want, s)))]
            if a in cands and self.rep():
                x = a
            elif cands and self.rng.random() < 0.5:
                x = self.rng.choice(cands)
            else:
                shp = tuple(w if w is not None else self.rng.choice([1, 2, 3]) for w in want)
                x = self.new_arg(shp)
            for c, n in zip(tm, self.shape_of(x)):
                size.setdefault(c, n)
            ins.append(x)
        for tm, x in zip(terms, ins):
            if any(size[c] != n for c, n in zip(tm, self.shape_of(x))):
                raise Skip()
        loops_l = [c for c in letters if c in res] + [c for c in letters if c not in res]
        # loop order: output letters first (some permutation), then reductions
        if self.rng.random() < 0.3:
            self.rng.shuffle(loops_l)
        loops = tuple(size[c] for c in loops_l)
        iters = ["parallel" if c in res else "reduction" for c in loops_l]
        maps = [[loops_l.index(c) for c in tm] for tm in terms]
        out_dims = [loops_l.index(c) for c in res]
        r = self.rng.random()
        if len(terms) == 2 and r < 0.6:
            expr = "plain"
        else:
            expr = ("mul", ("arg", 0), ("arg", 1))
            for k in range(2, len(terms)):
                expr = ("mul", expr, ("arg", k))
            if r > 0.8:
                expr = ("mul", ("arg", 0), random_expr(self.rng, len(terms), 1, must=range(1, len(terms))))
        init = None
        out_shape = tuple(loops[d] for d in out_dims)
        if self.rng.random() < 0.25:
            c = self.scope(lambda s: s == out_shape)
            if c:
                init = self.rng.choice(c)
        return self.generic("generic.contract", ins, maps, loops, iters, out_dims, expr, "add", init)

    def op_map(self):
        """A generic map (or reduction) with one to three inputs, read
        through identity, transposed or broadcasting maps."""
        a = self.pick(lambda s: len(s) >= 1)
        loops = self.shape_of(a)
        nl = len(loops)
        ins, maps = [a], [list(range(nl))]
        for _ in range(self.rng.choice([1, 1, 2])):
            r = self.rng.random()
            if r < self.rep_prob:
                # the same value again: same map, or transposed if square
                perm = list(range(nl))
                if nl >= 2 and loops[0] == loops[1] and self.rng.random() < 0.5:
                    perm[0], perm[1] = perm[1], perm[0]
                src = self.rng.choice(ins)
                if self.shape_of(src) != loops:
                    src, perm = a, list(range(nl))
                ins.append(src)
                maps.append(perm)
                continue
            sub = sorted(self.rng.sample(range(nl), self.rng.randint(1, nl)))
            if self.rng.random() < 0.3 and len(sub) >= 2:
                sub[0], sub[1] = sub[1], sub[0]
            shp = tuple(loops[d] for d in sub)
            c = self.scope(lambda s: s == shp)
            x = self.rng.choice(c) if c and self.rng.random() < 0.6 else self.new_arg(shp)
            ins.append(x)
            maps.append(sub)
        expr = random_expr(self.rng, len(ins), self.rng.choice([1, 2, 2, 3]), must=range(len(ins)))
        kind = self.rng.random()
        if kind < 0.6 or nl == 1 and kind < 0.8:
            iters = ["parallel"] * nl
            out_dims = list(range(nl))
            if nl >= 2 and self.rng.random() < 0.3:
                self.rng.shuffle(out_dims)
            return self.generic("generic.map", ins, maps, loops, iters, out_dims, expr, None, None)
        red = self.rng.sample(range(nl), self.rng.randint(1, nl))
        iters = ["reduction" if l in red else "parallel" for l in range(nl)]
        out_dims = [l for l in range(nl) if l not in red]
        comb = "add" if kind < 0.85 else self.rng.choice(["max", "min"])
        return self.generic(f"generic.{'sum' if comb == 'add' else comb}", ins, maps, loops, iters,
                            out_dims, expr, comb, None)

    def op_reduce(self):
        a = self.pick(lambda s: len(s) >= 1)
        s = self.shape_of(a)
        dims = sorted(self.rng.sample(range(len(s)), self.rng.randint(1, len(s))))
        out = tuple(x for i, x in enumerate(s) if i not in dims)
        kind = self.rng.choice(["add", "add", "max", "min"])
        np_fn = {"add": np.sum, "max": np.max, "min": np.min}[kind]
        fn = lambda x: np_fn(x, axis=tuple(dims))
        margin = None
        if kind != "add":
            def margin(x):
                mv = np.moveaxis(x, dims, list(range(len(s) - len(dims), len(s))))
                mv = mv.reshape(mv.shape[:len(s) - len(dims)] + (-1,))
                srt = np.sort(mv, axis=-1)
                if kind == "min":
                    srt = srt[..., ::-1]
                d = np.abs(srt[..., -1:] - srt[..., :-1])
                d = d[d != 0]
                return float(d.min()) if d.size else np.inf
        t, to = ty(s), ty(out)
        comb = {"add": "addf", "max": "maximumf", "min": "minimumf"}[kind]
        fill = {"add": 0.0, "max": -np.inf, "min": np.inf}[kind]

        def emit(o, ins, tmp):
            init, pre = self.fill(tmp, out, fill)
            x, y, r = tmp(), tmp(), tmp()
            return pre + [f"{o} = linalg.reduce ins({ins[0]} : {t}) outs({init} : {to}) "
                          f"dimensions = [{', '.join(map(str, dims))}]",
                          f"  ({x}: f64, {y}: f64) {{",
                          f"    {r} = arith.{comb} {x}, {y} : f64",
                          f"    linalg.yield {r} : f64",
                          "  }"]
        return self.add(f"linalg.reduce.{kind}", out, [a], fn, emit, margin=margin)

    def op_transpose(self):
        a = self.pick(lambda s: len(s) >= 2)
        s = self.shape_of(a)
        perm = list(range(len(s)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        out = tuple(s[p] for p in perm)
        t, to = ty(s), ty(out)

        def emit(o, ins, tmp):
            e = tmp()
            return [f"{e} = tensor.empty() : {to}",
                    f"{o} = linalg.transpose ins({ins[0]} : {t}) outs({e} : {to}) "
                    f"permutation = [{', '.join(map(str, perm))}]"]
        return self.add("linalg.transpose", out, [a], lambda x: np.transpose(x, perm), emit)

    def op_broadcast(self):
        a = self.pick(lambda s: len(s) <= 2)
        s = list(self.shape_of(a))
        d = self.rng.randint(0, len(s))
        n = self.rng.choice([2, 3])
        out = s[:d] + [n] + s[d:]
        t, to = ty(s), ty(out)

        def emit(o, ins, tmp):
            e = tmp()
            return [f"{e} = tensor.empty() : {to}",
                    f"{o} = linalg.broadcast ins({ins[0]} : {t}) outs({e} : {to}) dimensions = [{d}]"]
        return self.add("linalg.broadcast", out, [a],
                        lambda x: np.broadcast_to(np.expand_dims(x, d), out), emit)

    def op_concat(self):
        a = self.pick(lambda s: len(s) >= 1)
        s = self.shape_of(a)
        d = self.rng.randrange(len(s))
        ins = [a]
        for _ in range(self.rng.choice([1, 1, 2])):
            if self.rep():
                ins.append(self.rng.choice(ins))
            else:
                c = [i for i in self.scope(lambda t: len(t) == len(s) and all(
                    x == y for k, (x, y) in enumerate(zip(t, s)) if k != d))]
                ins.append(self.rng.choice(c))
        if self.rng.random() < 0.5:
            self.rng.shuffle(ins)
        out = list(s)
        out[d] = sum(self.shape_of(i)[d] for i in ins)
        if out[d] > 8:
            raise Skip()
        tys = [ty(self.shape_of(i)) for i in ins]
        to = ty(out)

        def emit(o, names, tmp):
            return [f"{o} = tensor.concat dim({d}) {', '.join(names)} : ({', '.join(tys)}) -> {to}"]
        return self.add("tensor.concat", out, ins, lambda *xs: np.concatenate(xs, axis=d), emit)

    def op_extract_slice(self):
        a = self.pick(lambda s: len(s) >= 1 and max(s) >= 2)
        s = self.shape_of(a)
        offs, sizes, strides = [], [], []
        for x in s:
            st = 2 if x >= 3 and self.rng.random() < 0.2 else 1
            n = self.rng.randint(1, (x - 1) // st + 1)
            o = self.rng.randint(0, x - 1 - (n - 1) * st)
            offs.append(o)
            sizes.append(n)
            strides.append(st)
        out = list(sizes)
        drop = False
        if 1 in sizes and self.rng.random() < 0.4:
            # rank-reducing: drop one unit dimension
            k = sizes.index(1)
            out = sizes[:k] + sizes[k + 1:]
            drop = True
        sl = tuple(slice(o, o + (n - 1) * st + 1, st) for o, n, st in zip(offs, sizes, strides))
        t, to = ty(s), ty(out)

        def fn(x):
            r = x[sl]
            return r.reshape(out)

        def emit(o, ins, tmp):
            return [f"{o} = tensor.extract_slice {ins[0]}[{', '.join(map(str, offs))}] "
                    f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}] : {t} to {to}"]
        return self.add("tensor.extract_slice" + (".rr" if drop else ""), out, [a], fn, emit)

    def op_insert_slice(self):
        d = self.pick(lambda s: len(s) >= 1)
        s = self.shape_of(d)
        if self.rep():
            src = d
            offs, sizes = [0] * len(s), list(s)
        else:
            c = [i for i in self.scope(lambda t: len(t) == len(s) and all(
                x <= y for x, y in zip(t, s))) if i != d]
            src = self.rng.choice(c) if c and self.rng.random() < 0.7 else \
                self.new_arg(tuple(self.rng.randint(1, x) for x in s))
            sizes = list(self.shape_of(src))
            offs = [self.rng.randint(0, x - n) for x, n in zip(s, sizes)]
        sl = tuple(slice(o, o + n) for o, n in zip(offs, sizes))
        t, ts = ty(s), ty(sizes)

        def fn(x, y):
            r = np.array(y, copy=True)
            r[sl] = x
            return r

        def emit(o, ins, tmp):
            return [f"{o} = tensor.insert_slice {ins[0]} into {ins[1]}[{', '.join(map(str, offs))}] "
                    f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] : {ts} into {t}"]
        return self.add("tensor.insert_slice", s, [src, d], fn, emit)

    def op_reshape(self):
        a = self.pick()
        s = list(self.shape_of(a))
        t = ty(s)
        r = len(s)
        if r >= 2 and self.rng.random() < 0.5:
            k = self.rng.randrange(r - 1)
            groups = [[i] for i in range(k)] + [[k, k + 1]] + [[i] for i in range(k + 2, r)]
            out = s[:k] + [s[k] * s[k + 1]] + s[k + 2:]
            to = ty(out)

            def emit(o, ins, tmp):
                return [f"{o} = tensor.collapse_shape {ins[0]} {groups} : {t} into {to}"]
            return self.add("tensor.collapse_shape", out, [a], lambda x: x.reshape(out), emit)
        if r == 0:
            out, groups = [1], []
        else:
            k = self.rng.randrange(r)
            n = s[k]
            f = [x for x in (1, 2, 3) if n % x == 0]
            p = self.rng.choice(f)
            parts = [p, n // p]
            out = s[:k] + parts + s[k + 1:]
            groups = [[i] for i in range(k)] + [[k, k + 1]] + [[i + 1] for i in range(k + 1, r)]
        if len(out) > 4:
            raise Skip()
        to = ty(out)

        def emit(o, ins, tmp):
            return [f"{o} = tensor.expand_shape {ins[0]} {groups} output_shape "
                    f"[{', '.join(map(str, out))}] : {t} into {to}"]
        return self.add("tensor.expand_shape", out, [a], lambda x: x.reshape(out), emit)

    def op_select(self):
        a = self.pick()
        s = self.shape_of(a)
        t = ty(s)
        b = self.same_shape(a)
        # data operands: often the same value, or the condition's operands
        pool = [a, b]
        p = self.rng.choice(pool) if self.rng.random() < 0.5 else self.same_shape(a)
        q = p if self.rep() else self.rng.choice(pool + [self.same_shape(a)])
        pred = self.rng.choice(["ogt", "olt"])

        def fn(x, y, u, v):
            c = x > y if pred == "ogt" else x < y
            return np.where(c, u, v)

        def margin(x, y, u, v):
            dd = np.abs(x - y)
            dd = dd[dd != 0]
            return float(dd.min()) if dd.size else np.inf
        ti = t.replace("f64>", "i1>")

        def emit(o, ins, tmp):
            c = tmp()
            return [f"{c} = arith.cmpf {pred}, {ins[0]}, {ins[1]} : {t}",
                    f"{o} = arith.select {c}, {ins[2]}, {ins[3]} : {ti}, {t}"]
        return self.add("arith.select", s, [a, b, p, q], fn, emit,
                        rep=(p == q or a == b or p in (a, b) or q in (a, b)), margin=margin)

    def op_pad(self):
        a = self.pick(lambda s: len(s) >= 1)
        s = self.shape_of(a)
        lo = [self.rng.randint(0, 1) for _ in s]
        hi = [self.rng.randint(0, 2) for _ in s]
        out = [x + l + h for x, l, h in zip(s, lo, hi)]
        cst = self.rng.choice([0.0, 1.5])
        t, to = ty(s), ty(out)

        def emit(o, ins, tmp):
            c = tmp()
            idx = [tmp() for _ in s]
            return [f"{c} = arith.constant {lit(cst)} : f64",
                    f"{o} = tensor.pad {ins[0]} low[{', '.join(map(str, lo))}] high[{', '.join(map(str, hi))}] {{",
                    f"^bb0({', '.join(f'{i}: index' for i in idx)}):",
                    f"  tensor.yield {c} : f64",
                    f"}} : {t} to {to}"]
        return self.add("tensor.pad", out, [a],
                        lambda x: np.pad(x, list(zip(lo, hi)), constant_values=cst), emit)

    OPS = [("binary", 6), ("unary", 4), ("square", 1), ("matmul", 3), ("batch_matmul", 1),
           ("named_vec", 1), ("contract", 3), ("map", 4), ("reduce", 2), ("transpose", 1),
           ("broadcast", 1), ("concat", 2), ("extract_slice", 1), ("insert_slice", 2),
           ("reshape", 1), ("select", 2), ("pad", 1)]

    def build(self, rng_np):
        self.rng_np = rng_np
        r = self.rng
        nargs = r.choice([1, 1, 2])
        for _ in range(nargs):
            rank = r.choice([1, 2, 2, 2, 3])
            shape = tuple(r.choice([1, 2, 2, 3, 3]) for _ in range(rank))
            if rank == 2 and r.random() < 0.5:
                shape = (shape[0], shape[0])
            if rank == 3 and r.random() < 0.5:
                shape = (shape[0], shape[1], shape[1])
            self.new_arg(shape)
        names = [o for o, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        done = tries = 0
        while done < self.steps and tries < self.steps * 20:
            tries += 1
            op = r.choices(names, weights)[0]
            saved = (dict(self.p.nodes), list(self.p.order), list(self.p.args),
                     dict(self.p.inputs), dict(self.p.vals), self.p.next)
            try:
                getattr(self, "op_" + op)()
                done += 1
            except Skip:
                (self.p.nodes, self.p.order, self.p.args, self.p.inputs, self.p.vals,
                 self.p.next) = saved
        # the loss sums the squares of every value no op reads
        used = {o for n in self.p.nodes.values() for o in n.ops}
        self.p.outs = [i for i in self.p.order if i not in used and self.p.nodes[i].kind != "arg"]
        if not self.p.outs:
            self.p.outs = [self.p.order[-1]]
        self.p.styles = [r.choice(["reduce", "reduce", "generic", "dot"]) for _ in self.p.outs]
        return self.p


# --------------------------------------------------------------- checks
def fd(prog, x0, dirs, h):
    """4-point central difference of prog's loss along `dirs` (arg -> array)."""
    def at(t):
        return prog.loss({a: x0[a] + t * dirs[a] if a in dirs else x0[a] for a in x0})
    return (8 * (at(h) - at(-h)) - (at(2 * h) - at(-2 * h))) / (12 * h)


WORST = [0.0]


def close(fdv, ad, scale, tol=TOL):
    ok = abs(fdv - ad) <= tol * scale
    if ok and tol == TOL:
        WORST[0] = max(WORST[0], abs(fdv - ad) / scale)
    return ok


class Case:
    """A sub-program with its inputs, tangents and expected values."""

    def __init__(self, prog, seed_np):
        self.prog = prog
        rng = np.random.default_rng(seed_np)
        self.args = prog.used_args()
        self.x = {a: prog.inputs[a] for a in self.args}
        self.v = {a: rng.standard_normal(prog.nodes[a].shape) for a in self.args}
        self.loss = prog.loss(self.x)


def check_case(case, loss_rev, grads, loss_fwd, tangent):
    """Returns a list of (kind, detail) problems (empty: ok)."""
    p = case.prog
    probs = []
    sc_l = max(1.0, abs(case.loss))
    for tag, got in (("reverse", loss_rev), ("forward", loss_fwd)):
        if got is not None and not abs(got - case.loss) <= PRIMAL_RTOL * sc_l:
            probs.append(("primal", f"{tag} loss {got!r}, numpy {case.loss!r}"))
    # reverse: per argument
    for a, g in zip(case.args, grads):
        v = case.v[a]
        if g.shape != v.shape:
            probs.append(("shape", f"gradient of {p.name(a)} has shape {g.shape}, want {v.shape}"))
            continue
        ad = float(np.vdot(g, v))
        f1 = fd(p, case.x, {a: v}, H)
        scale = max(1.0, abs(case.loss), float(np.abs(g).ravel() @ np.abs(v).ravel()))
        if not close(f1, ad, scale):
            kind = confirm(p, case.x, {a: v}, f1, ad, scale)
            probs.append((kind, f"reverse: d/d{p.name(a)} along v: gradient gives {ad!r}, "
                                f"finite difference {f1!r}"))
    # forward: all tangents at once
    if tangent is not None:
        f1 = fd(p, case.x, case.v, H)
        scale = max(1.0, abs(case.loss), abs(tangent), abs(f1))
        if not close(f1, tangent, scale):
            kind = confirm(p, case.x, case.v, f1, tangent, scale)
            probs.append((kind, f"forward: tangent {tangent!r}, finite difference {f1!r}"))
    return probs


def confirm(p, x, dirs, f1, ad, scale):
    """A mismatch, or fd-unstable when the finite difference moves with the
    step (a kink crossed, or rounding)."""
    f2 = fd(p, x, dirs, H / 8)
    if not close(f1, f2, scale, TOL / 4):
        return "fd-unstable"
    return "mismatch"


# --------------------------------------------------------------- running
def normalize(msg):
    m = re.sub(r"%[\w#]+", "%v", msg)
    m = re.sub(r"tensor<[^>]*>", "tensor<T>", m)
    m = re.sub(r"affine_map<[^>]*>", "map", m)
    m = re.sub(r"@\w+", "@f", m)
    m = re.sub(r"\b\d+\b", "N", m)
    return m.strip()[:200]


class Runner:
    def __init__(self, args):
        self.a = args
        self.stats = collections.Counter()
        self.kinds = collections.Counter()
        self.rep_kinds = collections.Counter()
        self.refusals = collections.Counter()
        self.failures = []           # (kind, key, path)
        self.classes = collections.Counter()
        self.mismatch_kinds = collections.Counter()
        self.nfail = 0
        self.worst = 0.0

    # ---- one batch on trellis
    def module_text(self, cases):
        parts, sigs, line_of = [], [], {}
        line = 1
        for k, c in enumerate(cases):
            txt = c.prog.func_text(f"p{k}", c.args)
            line_of[k] = (line, line + txt.count("\n"))
            line += txt.count("\n") + 1
            parts.append(txt)
        # @all: the sum of the losses
        allargs = [(k, a) for k, c in enumerate(cases) for a in c.args]
        sig = ", ".join(f"%a{k}_{a}: {ty(cases[k].prog.nodes[a].shape)}" for k, a in allargs)
        body = []
        for k, c in enumerate(cases):
            names = ", ".join(f"%a{k}_{a}" for a in c.args)
            tys = ", ".join(ty(c.prog.nodes[a].shape) for a in c.args)
            body.append(f"  %l{k} = func.call @p{k}({names}) : ({tys}) -> tensor<f64>")
        acc = "%l0"
        for k in range(1, len(cases)):
            body.append(f"  %s{k} = arith.addf {acc}, %l{k} : tensor<f64>")
            acc = f"%s{k}"
        parts.append(f"func.func @all({sig}) -> tensor<f64> {{\n" + "\n".join(body) +
                     f"\n  return {acc} : tensor<f64>\n}}")
        return "\n".join(parts) + "\n", line_of

    def main_text(self, cases):
        allargs = [(k, a) for k, c in enumerate(cases) for a in c.args]
        xs = [f"%x{k}_{a}: {ty(cases[k].prog.nodes[a].shape)}" for k, a in allargs]
        vs = [f"%v{k}_{a}: {ty(cases[k].prog.nodes[a].shape)}" for k, a in allargs]
        gt = ["tensor<f64>"] + [ty(cases[k].prog.nodes[a].shape) for k, a in allargs]
        body = [f"  %g:{len(gt)} = func.call @all_grad({', '.join(f'%x{k}_{a}' for k, a in allargs)}) "
                f": ({', '.join(gt[1:])}) -> ({', '.join(gt)})"]
        rets = [f"%g#{i}" for i in range(len(gt))]
        rtys = list(gt)
        for k, c in enumerate(cases):
            t = [ty(c.prog.nodes[a].shape) for a in c.args]
            body.append(f"  %j{k}:2 = func.call @p{k}_jvp({', '.join([f'%x{k}_{a}' for a in c.args] + [f'%v{k}_{a}' for a in c.args])}) "
                        f": ({', '.join(t + t)}) -> (tensor<f64>, tensor<f64>)")
            rets += [f"%j{k}#0", f"%j{k}#1"]
            rtys += ["tensor<f64>", "tensor<f64>"]
        return (f"func.func @main({', '.join(xs + vs)}) -> ({', '.join(rtys)}) {{\n" + "\n".join(body) +
                f"\n  return {', '.join(rets)} : {', '.join(rtys)}\n}}\n")

    def run(self, cmd, timeout):
        try:
            # one process: trellis-run's re-execution for huge-page malloc
            # tunables costs more than these small programs gain from it
            env = dict(os.environ, TRELLIS_RUN_NO_REEXEC="1")
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
            return p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            return "timeout", ""

    def trellis(self, cases, d):
        """Runs one batch. Returns ('ok', outputs) or (failure kind, text,
        sub-program index or None)."""
        os.makedirs(d, exist_ok=True)
        text, line_of = self.module_text(cases)
        src = os.path.join(d, "batch.mlir")
        with open(src, "w") as f:
            f.write(text)
        g = os.path.join(d, "grad.mlir")
        funcs = ",".join(f"p{k}" for k in range(len(cases)))
        cmd = [self.a.trellis_opt, src, "--inline", "--trellis-grad=funcs=all",
               f"--trellis-grad=funcs={funcs} jvp=true", "-o", g]
        self.stats["trellis-opt runs"] += 1
        rc, out = self.run(cmd, 120)
        if rc != 0:
            if rc == "timeout":
                return ("timeout-opt", "trellis-opt timed out", None)
            if (isinstance(rc, int) and rc < 0) or CRASH_RE.search(out):
                return ("crash-opt", out, None)
            m = re.search(r"batch\.mlir:(\d+):\d+: error: (.*)", out)
            if m:
                ln = int(m.group(1))
                who = next((k for k, (s, e) in line_of.items() if s <= ln <= e), None)
                return ("refusal", m.group(2), who)
            return ("refusal", out.strip().splitlines()[-1] if out.strip() else "no message", None)
        with open(g) as f:
            gt = f.read().rstrip()
        assert gt.endswith("}")
        gt = gt[:-1] + self.main_text(cases) + "}\n"
        with open(g, "w") as f:
            f.write(gt)
        cmd = [self.a.trellis_run, g, "--entry", "main", "--quiet", "--output-dir",
               os.path.join(d, "out"), "--timeout", "60"]
        allargs = [(k, a) for k, c in enumerate(cases) for a in c.args]
        inputs = [cases[k].x[a] for k, a in allargs] + [cases[k].v[a] for k, a in allargs]
        for i, x in enumerate(inputs):
            path = os.path.join(d, f"in{i}.npy")
            np.save(path, x)
            cmd += ["--input", f"arg{i}={path}"]
        self.stats["trellis-run runs"] += 1
        rc, out = self.run(cmd, 180)
        if rc != 0:
            if rc == "timeout":
                return ("timeout-run", "trellis-run timed out", None)
            if (isinstance(rc, int) and rc < 0) or CRASH_RE.search(out):
                return ("crash-run", out, None)
            return ("run-error", out.strip()[-2000:], None)
        n = 1 + len(allargs) + 2 * len(cases)
        outs = []
        for i in range(n):
            p = os.path.join(d, "out", f"out{i}.npy")
            if not os.path.exists(p):
                return ("run-error", f"missing {p}", None)
            outs.append(np.load(p).astype(np.float64))
        return ("ok", outs, None)

    def evaluate(self, cases, outs, self_test=False):
        """Per case problems from the outputs of a batch."""
        total = float(outs[0])
        pos = 1
        grads = []
        for c in cases:
            grads.append(outs[pos:pos + len(c.args)])
            pos += len(c.args)
        res = []
        want_total = sum(c.loss for c in cases)
        total_ok = abs(total - want_total) <= PRIMAL_RTOL * max(1.0, sum(abs(c.loss) for c in cases))
        for k, c in enumerate(cases):
            lf, tf = float(outs[pos + 2 * k]), float(outs[pos + 2 * k + 1])
            probs = check_case(c, None, grads[k], lf, tf)
            res.append(probs)
        if not total_ok and not any(res):
            res[0] = [("primal", f"@all_grad's loss {total!r}, numpy {want_total!r}")]
        if self_test and cases:
            # a perturbed gradient and a perturbed tangent must be caught
            c = cases[0]
            g = [x.copy() for x in grads[0]]
            v = c.v[c.args[0]]
            s0 = max(1.0, abs(c.loss), float(np.abs(g[0]).ravel() @ np.abs(v).ravel()))
            g[0] = g[0] + 1e-3 * s0 * v / float(np.vdot(v, v))
            p1 = check_case(c, None, g, None, None)
            tf = float(outs[pos + 1])
            p2 = check_case(c, None, grads[0], None, tf + 1e-3 * max(1.0, abs(c.loss), abs(tf)))
            for probs in (p1, p2):
                if not any(k in ("mismatch", "fd-unstable") for k, _ in probs):
                    print("FAIL self-test: a perturbed gradient or tangent was not caught")
                    self.nfail += 1
            self.stats["self-tests"] += 1
        return res

    # ---- failures
    def locate(self, cases, d, depth=0):
        """Bisects a failing batch: returns [(index, kind, text)] of the
        sub-programs that fail alone (and the outputs of good halves are
        checked as usual)."""
        found = []
        if len(cases) == 1:
            r = self.trellis(cases, d)
            if r[0] == "ok":
                probs = self.evaluate(cases, r[1])[0]
                self.record_case(cases[0], probs, d)
                return []
            return [(0, r[0], r[1])]
        half = len(cases) // 2
        for part, off in ((cases[:half], 0), (cases[half:], half)):
            dd = os.path.join(d, f"b{off}")
            r = self.trellis(part, dd)
            if r[0] == "ok":
                for c, probs in zip(part, self.evaluate(part, r[1])):
                    self.record_case(c, probs, dd)
                continue
            found += [(off + k, kind, txt) for k, kind, txt in self.locate(part, dd, depth + 1)]
        return found

    def record_case(self, case, probs, d):
        for kind, detail in probs:
            if kind == "fd-unstable":
                self.stats["fd-unstable"] += 1
                continue
            self.fail(kind, detail, case, d)

    def fail(self, kind, detail, case, d):
        if kind in ("refusal", "run-error"):
            key = normalize(detail)
        elif kind.startswith("crash"):
            key = crash_key(detail)
        elif kind in ("mismatch", "primal", "shape"):
            key = detail.split()[0].rstrip(":")   # reverse / forward
            for k in case.prog.op_kinds():
                self.mismatch_kinds[k] += 1
        else:
            key = kind
        self.nfail += 1
        self.classes[(kind, key)] += 1
        n = sum(1 for f in self.failures if f[0] == kind and f[1] == key and f[2])
        path = None
        if n < self.a.max_minimize:
            prog = self.minimize(case, kind, key)
            path = self.save(prog, case, kind, detail)
        self.failures.append((kind, key, path))
        first = key if kind.startswith("crash") else \
            detail.strip().splitlines()[0][:300] if detail.strip() else ""
        print(f"FAIL {kind}: {first} [ops: {', '.join(case.prog.op_kinds())}]"
              + (f" -> {path}" if path else ""), flush=True)

    def reproduces(self, prog, kind, key, d):
        c = Case(prog, 7)
        r = self.trellis([c], d)
        if r[0] == "ok":
            if kind not in ("mismatch", "primal"):
                return False
            probs = self.evaluate([c], r[1])[0]
            return any(k == kind for k, _ in probs)
        if r[0] != kind:
            return False
        if kind == "refusal":
            return normalize(r[1]) == key
        if kind.startswith("crash"):
            return crash_key(r[1]) == key
        return True

    def minimize(self, case, kind, key):
        """Moves the loss to earlier values and cuts op inputs into
        arguments while the failure reproduces."""
        d = os.path.join(self.a.work, "minimize")
        prog = case.prog
        t0 = time.time()
        if not self.reproduces(prog, kind, key, d):
            self.stats["failures that do not reproduce alone"] += 1
            return prog
        budget = 60
        # the earliest value whose loss still fails
        for nid in prog.order:
            if time.time() - t0 > budget:
                break
            if prog.nodes[nid].kind == "arg":
                continue
            if nid not in prog.live():
                continue
            cand = prog.with_out(nid)
            if self.reproduces(cand, kind, key, d):
                prog = cand
                break
        changed = True
        while changed and time.time() - t0 < budget:
            changed = False
            for nid in sorted(prog.live(), key=prog.order.index):
                if time.time() - t0 > budget:
                    break
                n = prog.nodes[nid]
                if n.kind == "arg" or nid in prog.outs:
                    continue
                cand = prog.cut(nid)
                if self.reproduces(cand, kind, key, d):
                    prog = cand
                    changed = True
                    break
        return prog

    def save(self, prog, case, kind, detail):
        k = sum(1 for f in self.failures if f[2]) + 1
        base = os.path.join(self.a.work, f"fail-{k:03d}-{kind}")
        c = Case(prog, 7)
        args = c.args
        text = prog.func_text("f", args)
        first = crash_key(detail) if kind.startswith("crash") else \
            detail.strip().splitlines()[0][:300] if detail.strip() else ''
        hdr = [f"// randgrad {kind}: {first}",
               f"// ops: {', '.join(prog.op_kinds())}",
               f"// inputs and tangents: {os.path.basename(base)}.npz (x<k>, v<k> for argument k);",
               f"// trellis-opt F --trellis-grad=funcs=f        (reverse)",
               f"// trellis-opt F '--trellis-grad=funcs=f jvp=true' (forward)",
               f"// numpy loss {c.loss!r}"]
        for i, a in enumerate(args):
            g = fd(prog, c.x, {a: c.v[a]}, H)
            hdr.append(f"// finite difference along v{i} (argument #{i}): {g!r}")
        hdr.append(f"// finite difference along all v: {fd(prog, c.x, c.v, H)!r}")
        with open(base + ".mlir", "w") as f:
            f.write("\n".join(hdr) + "\n" + text + "\n")
        np.savez(base + ".npz", **{f"x{i}": c.x[a] for i, a in enumerate(args)},
                 **{f"v{i}": c.v[a] for i, a in enumerate(args)})
        print("---- " + base + ".mlir\n" + "\n".join(hdr) + "\n" + text + "\n----", flush=True)
        return base + ".mlir"

    # ---- main loop
    def batch(self, cases, d):
        r = self.trellis(cases, d)
        live = list(range(len(cases)))
        retries = 0
        while r[0] == "refusal" and r[2] is not None and retries < 8:
            k = live[r[2]]
            self.refusals[normalize(r[1])] += 1
            self.fail("refusal", r[1], cases[k], d)
            live = [i for i in live if i != k]
            if not live:
                return
            retries += 1
            r = self.trellis([cases[i] for i in live], d)
        sub = [cases[i] for i in live]
        if r[0] == "ok":
            for c, probs in zip(sub, self.evaluate(sub, r[1], self.a.self_test)):
                self.record_case(c, probs, d)
            return
        self.stats["batches bisected"] += 1
        for k, kind, txt in self.locate(sub, os.path.join(d, "bisect")):
            if kind == "refusal":
                self.refusals[normalize(txt)] += 1
            self.fail(kind, txt, sub[k], d)

    def main(self):
        a = self.a
        os.makedirs(a.work, exist_ok=True)
        t0, c0 = time.time(), cpu()
        nprog = 0
        b = 0
        deadline = t0 + a.hours * 3600 if a.hours else None
        self.stop = False

        def stop(signum, frame):
            self.stop = True
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while nprog < a.programs and (deadline is None or time.time() < deadline) and not self.stop:
            cases = []
            for k in range(min(a.batch_size, a.programs - nprog)):
                idx = nprog + k
                rng = random.Random(f"{a.seed}-{idx}")
                g = Gen(rng, f"s{idx}_", a.repeat_prob, rng.randint(2, 7))
                prog = g.build(np.random.default_rng([a.seed, idx]))
                c = Case(prog, [a.seed, idx, 1])
                cases.append(c)
            d = os.path.join(a.work, f"batch{b % 2}")
            shutil.rmtree(d, ignore_errors=True)
            saved = (self.nfail, list(self.failures), self.classes.copy())
            self.batch(cases, d)
            if self.stop:
                # SIGTERM/SIGINT (e.g. from `timeout`) may have killed this
                # batch's trellis-run: it does not count
                self.nfail, self.failures, self.classes = saved
                break
            for c in cases:
                self.count(c.prog)
            nprog += len(cases)
            b += 1
            if a.progress and b % a.progress == 0:
                el = time.time() - t0
                print(f"randgrad: {nprog} programs, {b} batches, {el:.0f} s, "
                      f"{nprog / el:.2f} programs/s, {(cpu() - c0) / nprog:.3f} CPU s/program, "
                      f"{self.nfail} failed", flush=True)
        el = time.time() - t0
        self.report(nprog, b, el, cpu() - c0)
        return 1 if self.nfail else 0

    def count(self, prog):
        live = prog.live()
        for nid in live:
            n = prog.nodes[nid]
            if n.kind != "arg":
                self.kinds[n.kind] += 1
                if n.rep:
                    self.rep_kinds[n.kind] += 1
        for o, st in zip(prog.outs, prog.styles):
            st = st if prog.nodes[o].shape else "scalar"
            self.kinds[f"loss.{st}"] += 1
            self.rep_kinds[f"loss.{st}"] += 1
        self.rep_kinds["(programs with a repeated operand)"] += any(
            prog.nodes[i].rep for i in live if prog.nodes[i].kind != "arg")

    def report(self, nprog, nbatch, el, cpus):
        print(f"randgrad: seed {self.a.seed}, {nbatch} batches of up to {self.a.batch_size}, "
              f"{el:.1f} s, {nprog / max(el, 1e-9):.2f} programs/s; CPU (this process and "
              f"trellis) {cpus:.1f} s, {cpus / max(nprog, 1):.3f} s/program")
        print("op kind: ops (with a repeated operand)")
        for k in sorted(self.kinds):
            print(f"  {k}: {self.kinds[k]} ({self.rep_kinds[k]})")
        print(f"  programs with a repeated operand: {self.rep_kinds['(programs with a repeated operand)']}")
        for k in sorted(self.stats):
            print(f"{k}: {self.stats[k]}")
        for m, n in self.refusals.most_common():
            print(f"refusal x{n}: {m}")
        for (kind, key), n in self.classes.most_common():
            print(f"failure class x{n}: {kind}: {key}")
        for k, n in self.mismatch_kinds.most_common():
            print(f"op kind in mismatching programs x{n}: {k}")
        print(f"worst relative error of a passing check: {WORST[0]:.2e} (tolerance {TOL:g})")
        for kind, key, path in self.failures:
            if path:
                print(f"reproducer: {path} ({kind})")
        cnt = collections.Counter(f[0] for f in self.failures)
        print(f"refusals: {cnt['refusal']}, crashes: {cnt['crash-opt'] + cnt['crash-run']}, "
              f"run errors: {cnt['run-error'] + cnt['timeout-opt'] + cnt['timeout-run']}, "
              f"mismatches: {cnt['mismatch'] + cnt['primal'] + cnt['shape']}")
        print(f"randgrad: {nprog} programs, {self.nfail} failed")


def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def crash_key(text):
    """The innermost named frame of a stack dump (past the signal
    handlers), else the crash message."""
    for line in text.splitlines():
        m = re.match(r"\s*#\d+ 0x[0-9a-f]+ ([^(/][^(]*)", line)
        if m and not re.search(r"llvm::sys::|SignalHandler|__libc|libc\.so|nptl|^__|^raise|^abort",
                               m.group(1)):
            return m.group(1).strip()
    m = CRASH_RE.search(text)
    if m:
        return normalize(text[m.start():].splitlines()[0])
    return "signal"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("trellis_opt")
    p.add_argument("trellis_run")
    p.add_argument("work")
    p.add_argument("--programs", type=int, default=200)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hours", type=float, default=0)
    p.add_argument("--repeat-prob", type=float, default=0.5)
    p.add_argument("--self-test", action="store_true")
    p.add_argument("--max-minimize", type=int, default=2,
                   help="minimize and save at most this many failures per class")
    p.add_argument("--progress", type=int, default=0, help="print a line every N batches")
    a = p.parse_args()
    return Runner(a).main()


if __name__ == "__main__":
    sys.exit(main())
