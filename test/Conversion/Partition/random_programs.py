#!/usr/bin/env python3
"""Random auto-sharded global programs, partitioned and run against the
unpartitioned program.

Usage: random_programs.py [--uneven] TRELLIS_RUN WORKDIR COUNT SEED

Each program has a random mesh of 1-3 axes (sizes 2 or 4, at most 8
devices), random argument shardings, and a random chain of ops (elementwise
arith/math, matmul, transpose, sum and max reductions, broadcasts,
expand/collapse reshapes, slices, insert_slice, pad, concats, scf.for loops
and sharding constraints) on f32 or i32 values. `trellis-run --random --reference` must partition it, run it
on the mesh and match the one-device result. With --uneven, sizes are
mostly ones the axes do not divide (3, 5, 6, 7, 10, 15) and shardings split
them anyway (the partitioner pads them). Prints one line per failure
(with the program kept in WORKDIR) and a summary; exits 1 on any failure.
"""
import os
import random
import subprocess
import sys


class Program:
    def __init__(self, rng, index, uneven=False):
        self.rng = rng
        self.uneven = uneven
        self.sizes = [3, 5, 6, 7, 10, 15, 8] if uneven else [4, 8, 16]
        self.index = index
        n = rng.randint(1, 3)
        sizes = []
        for _ in range(n):
            s = rng.choice([2, 4])
            if eval("*".join(map(str, sizes + [s]))) > 8:
                s = 2
            if eval("*".join(map(str, sizes + [s]))) > 8:
                break
            sizes.append(s)
        self.axes = list(zip("abc", sizes))
        self.elt = rng.choice(["f32", "f32", "i32"])
        self.args = []
        self.body = []
        self.values = []  # (name, shape)
        self.count = 0

    def name(self):
        self.count += 1
        return f"%v{self.count}"

    def ty(self, shape):
        return "tensor<" + "x".join(map(str, shape)) + f"x{self.elt}>" if shape \
            else f"tensor<{self.elt}>"

    def sharding(self, shape):
        axes = [a for a, _ in self.axes]
        self.rng.shuffle(axes)
        dims = [[] for _ in shape]
        for a in axes:
            if not shape or self.rng.random() < 0.35:
                continue
            d = self.rng.randrange(len(shape))
            size = dict(self.axes)[a]
            prod = 1
            for b in dims[d]:
                prod *= dict(self.axes)[b]
            if shape[d] % (prod * size) == 0 or (self.uneven and shape[d] >= 2):
                dims[d].append(a)
        return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims) + "]"

    def arg(self, shape):
        n = f"%arg{len(self.args)}"
        attr = f' {{trellis.sharding = #trellis.sharding<@mesh, {self.sharding(shape)}>}}'
        self.args.append(f"{n}: {self.ty(shape)}{attr}")
        self.values.append((n, shape))
        return n

    def pick(self, pred=lambda s: True):
        cands = [v for v in self.values if pred(v[1])]
        return self.rng.choice(cands) if cands else None

    def zero(self):
        return "0.0" if self.elt == "f32" else "0"

    def lowest(self):
        return "0xFF800000" if self.elt == "f32" else "-2147483648"

    def filled(self, shape, value):
        e, f = self.name(), self.name()
        self.body.append(f"  {e} = tensor.empty() : {self.ty(shape)}")
        c = self.name()
        self.body.append(f"  {c} = arith.constant {value} : {self.elt}")
        self.body.append(f"  {f} = linalg.fill ins({c} : {self.elt}) outs({e} : {self.ty(shape)}) -> {self.ty(shape)}")
        return f

    def step(self):
        r = self.rng
        kind = r.choice(["elementwise", "elementwise", "matmul", "transpose", "reduce",
                         "broadcast", "reshape", "slice", "concat", "constraint",
                         "pad", "insert", "loop"])
        if kind == "elementwise":
            a = self.pick(lambda s: len(s) > 0)
            if not a:
                return
            b = self.pick(lambda s: s == a[1])
            op = r.choice(["addf", "mulf", "subf", "maximumf"] if self.elt == "f32"
                          else ["addi", "muli", "subi", "maxsi"])
            n = self.name()
            self.body.append(f"  {n} = arith.{op} {a[0]}, {b[0]} : {self.ty(a[1])}")
            if self.elt == "f32" and r.random() < 0.5:
                m = self.name()
                self.body.append(f"  {m} = math.tanh {n} : {self.ty(a[1])}")
                n = m
            self.values.append((n, a[1]))
        elif kind == "matmul":
            a = self.pick(lambda s: len(s) == 2)
            if not a:
                return
            m, k = a[1]
            b = self.pick(lambda s: len(s) == 2 and s[0] == k) or (self.arg([k, r.choice(self.sizes)]), None)
            bshape = [v for v in self.values if v[0] == b[0]][0][1]
            out = [m, bshape[1]]
            f = self.filled(out, self.zero())
            n = self.name()
            self.body.append(f"  {n} = linalg.matmul ins({a[0]}, {b[0]} : {self.ty(a[1])}, {self.ty(bshape)}) "
                             f"outs({f} : {self.ty(out)}) -> {self.ty(out)}")
            self.values.append((n, out))
        elif kind == "transpose":
            a = self.pick(lambda s: len(s) >= 2)
            if not a:
                return
            perm = list(range(len(a[1])))
            r.shuffle(perm)
            out = [a[1][p] for p in perm]
            e, n = self.name(), self.name()
            self.body.append(f"  {e} = tensor.empty() : {self.ty(out)}")
            self.body.append(f"  {n} = linalg.transpose ins({a[0]} : {self.ty(a[1])}) outs({e} : {self.ty(out)}) "
                             f"permutation = [{', '.join(map(str, perm))}]")
            self.values.append((n, out))
        elif kind == "reduce":
            a = self.pick(lambda s: len(s) >= 1)
            if not a:
                return
            d = r.randrange(len(a[1]))
            out = [s for i, s in enumerate(a[1]) if i != d]
            use_max = r.random() < 0.4
            f = self.filled(out, self.lowest() if use_max else self.zero())
            comb = ("maximumf" if use_max else "addf") if self.elt == "f32" else ("maxsi" if use_max else "addi")
            n = self.name()
            self.body.append(f"  {n} = linalg.reduce ins({a[0]} : {self.ty(a[1])}) outs({f} : {self.ty(out)}) dimensions = [{d}]")
            self.body.append(f"    (%in{self.count}: {self.elt}, %acc{self.count}: {self.elt}) {{")
            self.body.append(f"      %r{self.count} = arith.{comb} %in{self.count}, %acc{self.count} : {self.elt}")
            self.body.append(f"      linalg.yield %r{self.count} : {self.elt}")
            self.body.append("    }")
            self.values.append((n, out))
        elif kind == "broadcast":
            a = self.pick(lambda s: 1 <= len(s) <= 2)
            if not a:
                return
            d = r.randrange(len(a[1]) + 1)
            out = list(a[1])
            out.insert(d, r.choice([3, 5, 2] if self.uneven else [2, 4, 8]))
            e, n = self.name(), self.name()
            self.body.append(f"  {e} = tensor.empty() : {self.ty(out)}")
            self.body.append(f"  {n} = linalg.broadcast ins({a[0]} : {self.ty(a[1])}) outs({e} : {self.ty(out)}) dimensions = [{d}]")
            self.values.append((n, out))
        elif kind == "reshape":
            a = self.pick(lambda s: len(s) >= 1)
            if not a:
                return
            s = a[1]
            n = self.name()
            if len(s) >= 2 and r.random() < 0.5:
                d = r.randrange(len(s) - 1)
                out = s[:d] + [s[d] * s[d + 1]] + s[d + 2:]
                groups = [[i] for i in range(d)] + [[d, d + 1]] + [[i] for i in range(d + 2, len(s))]
                g = ", ".join("[" + ", ".join(map(str, x)) + "]" for x in groups)
                self.body.append(f"  {n} = tensor.collapse_shape {a[0]} [{g}] : {self.ty(s)} into {self.ty(out)}")
            else:
                d = r.randrange(len(s))
                if s[d] % 2:
                    return
                out = s[:d] + [2, s[d] // 2] + s[d + 1:]
                groups, j = [], 0
                for i in range(len(s)):
                    if i == d:
                        groups.append([j, j + 1])
                        j += 2
                    else:
                        groups.append([j])
                        j += 1
                g = ", ".join("[" + ", ".join(map(str, x)) + "]" for x in groups)
                self.body.append(f"  {n} = tensor.expand_shape {a[0]} [{g}] output_shape [{', '.join(map(str, out))}] "
                                 f": {self.ty(s)} into {self.ty(out)}")
            self.values.append((n, out))
        elif kind == "slice":
            a = self.pick(lambda s: len(s) >= 1 and max(s) >= 4)
            if not a:
                return
            s = a[1]
            offs, sizes = [], []
            for x in s:
                size = r.randint(1, x)
                offs.append(r.randint(0, x - size))
                sizes.append(size)
            n = self.name()
            self.body.append(f"  {n} = tensor.extract_slice {a[0]}[{', '.join(map(str, offs))}] "
                             f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in s)}] : {self.ty(s)} to {self.ty(sizes)}")
            self.values.append((n, sizes))
        elif kind == "concat":
            a = self.pick(lambda s: len(s) >= 1)
            if not a:
                return
            b = self.pick(lambda s: len(s) == len(a[1]))
            d = r.randrange(len(a[1]))
            if any(x != y for i, (x, y) in enumerate(zip(a[1], b[1])) if i != d):
                return
            out = list(a[1])
            out[d] += b[1][d]
            n = self.name()
            self.body.append(f"  {n} = tensor.concat dim({d}) {a[0]}, {b[0]} : ({self.ty(a[1])}, {self.ty(b[1])}) -> {self.ty(out)}")
            self.values.append((n, out))
        elif kind == "pad":
            a = self.pick(lambda s: len(s) >= 1)
            if not a:
                return
            lo = [r.randint(0, 2) for _ in a[1]]
            hi = [r.randint(0, 2) for _ in a[1]]
            out = [x + l + h for x, l, h in zip(a[1], lo, hi)]
            n, c = self.name(), self.name()
            idx = ", ".join(f"%i{self.count}_{k}: index" for k in range(len(a[1])))
            self.body.append(f"  {c} = arith.constant {self.zero()} : {self.elt}")
            self.body.append(f"  {n} = tensor.pad {a[0]} low[{', '.join(map(str, lo))}] high[{', '.join(map(str, hi))}] {{")
            self.body.append(f"  ^bb0({idx}):")
            self.body.append(f"    tensor.yield {c} : {self.elt}")
            self.body.append(f"  }} : {self.ty(a[1])} to {self.ty(out)}")
            self.values.append((n, out))
        elif kind == "insert":
            dst = self.pick(lambda s: len(s) >= 1)
            if not dst:
                return
            src = self.pick(lambda s: len(s) == len(dst[1]) and all(x <= y for x, y in zip(s, dst[1])))
            offs = [r.randint(0, y - x) for x, y in zip(src[1], dst[1])]
            n = self.name()
            self.body.append(f"  {n} = tensor.insert_slice {src[0]} into {dst[0]}[{', '.join(map(str, offs))}] "
                             f"[{', '.join(map(str, src[1]))}] [{', '.join('1' for _ in src[1])}] "
                             f": {self.ty(src[1])} into {self.ty(dst[1])}")
            self.values.append((n, dst[1]))
        elif kind == "loop":
            a = self.pick(lambda s: len(s) >= 1)
            if not a:
                return
            b = self.pick(lambda s: s == a[1])
            n, k = self.name(), self.count
            op = "addf" if self.elt == "f32" else "addi"
            self.body.append(f"  %lb{k} = arith.constant 0 : index")
            self.body.append(f"  %ub{k} = arith.constant {r.randint(1, 3)} : index")
            self.body.append(f"  %st{k} = arith.constant 1 : index")
            self.body.append(f"  {n} = scf.for %iv{k} = %lb{k} to %ub{k} step %st{k} iter_args(%c{k} = {a[0]}) -> ({self.ty(a[1])}) {{")
            self.body.append(f"    %y{k} = arith.{op} %c{k}, {b[0]} : {self.ty(a[1])}")
            self.body.append(f"    scf.yield %y{k} : {self.ty(a[1])}")
            self.body.append("  }")
            self.values.append((n, a[1]))
        elif kind == "constraint":
            a = self.pick(lambda s: len(s) >= 1)
            if not a:
                return
            n = self.name()
            self.body.append(f"  {n} = trellis.sharding_constraint {a[0]} to <@mesh, {self.sharding(a[1])}> : {self.ty(a[1])}")
            self.values.append((n, a[1]))

    def text(self):
        for _ in range(self.rng.randint(1, 3)):
            rank = self.rng.randint(1, 3)
            self.arg([self.rng.choice(self.sizes) for _ in range(rank)])
        for _ in range(self.rng.randint(3, 10)):
            self.step()
        outs = self.rng.sample(self.values, min(len(self.values), self.rng.randint(1, 2)))
        results = []
        for n, s in outs:
            if self.rng.random() < 0.5:
                results.append(f"{self.ty(s)} {{trellis.sharding = #trellis.sharding<@mesh, {self.sharding(s)}>}}")
            else:
                results.append(self.ty(s))
        mesh = "[" + ", ".join(f'"{a}"={s}' for a, s in self.axes) + "]"
        return (f"trellis.mesh @mesh = <{mesh}>\n"
                f"func.func @main({', '.join(self.args)}) -> ({', '.join(results)}) {{\n"
                + "\n".join(self.body) + "\n"
                f"  return {', '.join(n for n, _ in outs)} : {', '.join(self.ty(s) for _, s in outs)}\n}}\n")


def main():
    args = sys.argv[1:]
    uneven = args[0] == "--uneven"
    if uneven:
        args = args[1:]
    run, work, count, seed = args[0], args[1], int(args[2]), int(args[3])
    os.makedirs(work, exist_ok=True)
    rng = random.Random(seed)
    failures = 0
    for i in range(count):
        text = Program(rng, i, uneven).text()
        path = os.path.join(work, f"prog{i}.mlir")
        with open(path, "w") as f:
            f.write(text)
        try:
            proc = subprocess.run([run, path, "--random", str(i), "--reference", "--quiet",
                                   "--timeout", "60"],
                                  capture_output=True, text=True, timeout=120)
            lines = [l for l in proc.stdout.splitlines() if l.startswith("reference:")]
            ok = proc.returncode == 0 and lines and all(": match" in l for l in lines)
            detail = (proc.stdout + proc.stderr)[-1500:]
        except subprocess.TimeoutExpired:
            ok, detail = False, "timed out"
        if not ok:
            failures += 1
            print(f"FAIL {path}\n{detail}")
    print(f"random {'uneven ' if uneven else ''}programs: {count} run, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
