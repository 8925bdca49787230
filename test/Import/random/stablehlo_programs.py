#!/usr/bin/env python3
"""Random StableHLO programs, run by Trellis and by numpy.

Usage: stablehlo_programs.py TRELLIS_RUN WORKDIR COUNT SEED [--round-trip]

Each program is what JAX could print: an sdy.mesh, arguments with random
Shardy shardings, a random chain of elementwise ops, broadcasts,
transposes, reshapes, reductions, dot_generals, slices, concatenations,
selects, sharding constraints, gathers (x[ids] with out-of-range ids),
cumsums (reduce_window), fori_loops (counted whiles) and bf16 round trips. This script computes every value with
numpy as it writes the op (from the StableHLO specification, not from
Trellis), runs the program partitioned with `trellis-run --reference`, and
compares each result with both the unpartitioned run and numpy. Prints one
line per program; exits 1 on the first failure and leaves its files in
WORKDIR.

With --round-trip every program is written in Shardy's round-trip form
instead (what XLA dumps: the mesh and each sharding printed into xla.sdy.*
strings under mhlo.frontend_attributes, constraints as @Sharding custom
calls), so the same programs check that reader.
"""
import os
import random
import subprocess
import sys

import numpy as np

MESHES = [[("a", 2)], [("a", 4)], [("a", 2), ("b", 2)], [("a", 2), ("b", 4)]]


def ttype(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def to_bf16(x):
    """Round to the nearest bf16, ties to even, as float64."""
    x = np.asarray(x, np.float32)
    bits = np.atleast_1d(x).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64) \
        .reshape(x.shape)


class Program:
    def __init__(self, rng):
        self.rng = rng
        self.mesh = rng.choice(MESHES)
        self.args = []   # (name, shape, sharding text, value)
        self.lines = []
        self.values = []  # (name, shape, value)
        self.count = 0

    def sharding(self, shape):
        used = set()
        dims = []
        for size in shape:
            axes = []
            for name, n in self.mesh:
                if name not in used and size % (n * max(1, np.prod(
                        [m for a, m in self.mesh if a in axes]))) == 0 \
                        and self.rng.random() < 0.35:
                    axes.append(name)
                    used.add(name)
            dims.append("{" + ", ".join(f'"{a}"' for a in axes) + "}")
        return f"<@mesh, [{', '.join(dims)}]>"

    def new_arg(self, shape):
        name = f"%arg{len(self.args)}"
        value = np.array([self.rng.uniform(-1, 1) for _ in range(int(np.prod(shape)))],
                         np.float32).reshape(shape)
        self.args.append((name, shape, self.sharding(shape), value))
        self.values.append((name, shape, value.astype(np.float64)))
        return self.values[-1]

    def emit(self, text, shape, value):
        name = f"%v{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {text}")
        self.values.append((name, tuple(shape), value))
        return self.values[-1]

    def pick(self):
        # Prefer recent values, so chains grow deep.
        k = min(len(self.values), 4)
        return self.rng.choice(self.values[-k:])

    def step(self):
        r = self.rng
        x = self.pick()
        name, shape, v = x
        t = ttype(shape)
        kind = r.choice(["unary", "binary", "binary", "broadcast", "transpose",
                         "reshape", "reduce", "dot", "slice", "concat",
                         "select", "constraint", "take", "cumsum", "fori",
                         "bf16"])
        if kind == "unary":
            op = r.choice(["tanh", "sine", "cosine", "abs", "negate", "logistic"])
            f = {"tanh": np.tanh, "sine": np.sin, "cosine": np.cos, "abs": np.abs,
                 "negate": np.negative, "logistic": lambda a: 1 / (1 + np.exp(-a))}[op]
            return self.emit(f"stablehlo.{op} {name} : {t}", shape, f(v))
        if kind in ("binary", "select"):
            same = [y for y in self.values if y[1] == shape]
            y = r.choice(same)
            if kind == "select":
                p = f"%p{self.count}"
                self.lines.append(f"    {p} = stablehlo.compare  GT, {name}, {y[0]},  FLOAT : "
                                  f"({t}, {t}) -> {t.replace('f32>', 'i1>')}")
                return self.emit(f"stablehlo.select {p}, {name}, {y[0]} : "
                                 f"{t.replace('f32>', 'i1>')}, {t}", shape,
                                 np.where(v > y[2], v, y[2]))
            op = r.choice(["add", "subtract", "multiply", "maximum", "minimum"])
            f = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
                 "maximum": np.maximum, "minimum": np.minimum}[op]
            return self.emit(f"stablehlo.{op} {name}, {y[0]} : {t}", shape, f(v, y[2]))
        if kind == "broadcast" and len(shape) < 3:
            pos = r.randrange(len(shape) + 1)
            new = list(shape)
            new.insert(pos, r.choice([2, 4]))
            dims = [d if d < pos else d + 1 for d in range(len(shape))]
            value = np.broadcast_to(np.expand_dims(v, pos), new).copy()
            return self.emit(f"stablehlo.broadcast_in_dim {name}, dims = {dims} : "
                             f"({t}) -> {ttype(new)}", new, value)
        if kind == "transpose" and len(shape) >= 2:
            perm = list(range(len(shape)))
            r.shuffle(perm)
            new = [shape[p] for p in perm]
            return self.emit(f"stablehlo.transpose {name}, dims = {perm} : "
                             f"({t}) -> {ttype(new)}", new, np.transpose(v, perm))
        if kind == "reshape":
            if len(shape) >= 2:
                new = [shape[0] * shape[1]] + list(shape[2:])
            elif shape and shape[0] % 2 == 0 and shape[0] >= 4:
                new = [2, shape[0] // 2]
            else:
                return None
            return self.emit(f"stablehlo.reshape {name} : ({t}) -> {ttype(new)}",
                             new, v.reshape(new))
        if kind == "reduce" and len(shape) >= 1:
            d = r.randrange(len(shape))
            new = [s for i, s in enumerate(shape) if i != d]
            add = r.random() < 0.6
            init = "0.000000e+00" if add else "0xFF800000"
            c = f"%c{self.count}"
            self.lines.append(f"    {c} = stablehlo.constant dense<{init}> : tensor<f32>")
            op = "add" if add else "maximum"
            value = v.sum(d) if add else v.max(d)
            return self.emit(f"stablehlo.reduce({name} init: {c}) applies stablehlo.{op} "
                             f"across dimensions = [{d}] : ({t}, tensor<f32>) -> {ttype(new)}",
                             new, value)
        if kind == "dot" and len(shape) == 2:
            k = shape[1]
            n = r.choice([2, 4, 8])
            w = self.new_arg((k, n))
            new = [shape[0], n]
            return self.emit(f"stablehlo.dot_general {name}, {w[0]}, contracting_dims = [1] x [0], "
                             f"precision = [DEFAULT, DEFAULT] : ({t}, {ttype(w[1])}) -> {ttype(new)}",
                             new, v @ w[2])
        if kind == "slice" and shape:
            d = r.randrange(len(shape))
            if shape[d] < 2:
                return None
            stride = r.choice([1, 2])
            start = r.randrange(shape[d] // 2)
            limit = r.randrange(start + 1, shape[d] + 1)
            size = (limit - start + stride - 1) // stride
            new = list(shape)
            new[d] = size
            ranges = ", ".join(
                (f"{start}:{limit}" + (f":{stride}" if stride != 1 else "")) if i == d
                else f"0:{s}" for i, s in enumerate(shape))
            index = tuple(slice(start, limit, stride) if i == d else slice(None)
                          for i in range(len(shape)))
            return self.emit(f"stablehlo.slice {name} [{ranges}] : ({t}) -> {ttype(new)}",
                             new, v[index])
        if kind == "concat" and shape:
            d = r.randrange(len(shape))
            new = list(shape)
            new[d] *= 2
            return self.emit(f"stablehlo.concatenate {name}, {name}, dim = {d} : "
                             f"({t}, {t}) -> {ttype(new)}", new, np.concatenate([v, v], d))
        if kind == "take" and shape:
            # x[idx] along dimension 0 with constant ids, some out of range
            # (gather clamps them).
            n = r.choice([2, 3])
            ids = [r.randrange(-2, shape[0] + 2) for _ in range(n)]
            new = [n] + list(shape[1:])
            c = f"%i{self.count}"
            self.lines.append(f"    {c} = stablehlo.constant dense<{[[i] for i in ids]}> : "
                              f"tensor<{n}x1xi32>")
            offset = list(range(1, len(shape)))
            sizes = [1] + list(shape[1:])
            value = v[np.clip(ids, 0, shape[0] - 1)]
            return self.emit(
                f'"stablehlo.gather"({name}, {c}) <{{dimension_numbers = #stablehlo.gather<'
                + (f"offset_dims = {offset}, " if offset else "")
                + f"collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
                f"indices_are_sorted = false, slice_sizes = array<i64: {', '.join(map(str, sizes))}>}}> : "
                f"({t}, tensor<{n}x1xi32>) -> {ttype(new)}", new, value)
        if kind == "cumsum" and shape:
            d = r.randrange(len(shape))
            window = [shape[d] if i == d else 1 for i in range(len(shape))]
            pad = [[shape[d] - 1, 0] if i == d else [0, 0] for i in range(len(shape))]
            c = f"%c{self.count}"
            self.lines.append(f"    {c} = stablehlo.constant dense<0.000000e+00> : tensor<f32>")
            return self.emit(
                f'"stablehlo.reduce_window"({name}, {c}) <{{padding = dense<{pad}> : '
                f"tensor<{len(shape)}x2xi64>, window_dimensions = array<i64: "
                f"{', '.join(map(str, window))}>}}> ({{\n    ^bb0(%ra: tensor<f32>, %rb: tensor<f32>):\n"
                f"      %rs = stablehlo.add %ra, %rb : tensor<f32>\n"
                f"      stablehlo.return %rs : tensor<f32>\n    }}) : ({t}, tensor<f32>) -> {t}",
                shape, np.cumsum(v, d))
        if kind == "fori":
            # fori_loop(0, n, lambda i, x: x * 0.5 + 0.25, v)
            n = r.randrange(0, 4)
            k = self.count
            value = v.copy()
            for _ in range(n):
                value = value * 0.5 + 0.25
            self.lines.append(f"    %z{k} = stablehlo.constant dense<0> : tensor<i32>")
            text = (f"stablehlo.while(%it{k} = %z{k}, %ix{k} = {name}) : tensor<i32>, {t}\n"
                    f"     cond {{\n"
                    f"      %n{k} = stablehlo.constant dense<{n}> : tensor<i32>\n"
                    f"      %p{k} = stablehlo.compare  LT, %it{k}, %n{k},  SIGNED : "
                    f"(tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                    f"      stablehlo.return %p{k} : tensor<i1>\n"
                    f"    }} do {{\n"
                    f"      %h{k} = stablehlo.constant dense<5.000000e-01> : {t}\n"
                    f"      %q{k} = stablehlo.constant dense<2.500000e-01> : {t}\n"
                    f"      %m{k} = stablehlo.multiply %ix{k}, %h{k} : {t}\n"
                    f"      %a{k} = stablehlo.add %m{k}, %q{k} : {t}\n"
                    f"      %o{k} = stablehlo.constant dense<1> : tensor<i32>\n"
                    f"      %j{k} = stablehlo.add %it{k}, %o{k} : tensor<i32>\n"
                    f"      stablehlo.return %j{k}, %a{k} : tensor<i32>, {t}\n"
                    f"    }}")
            name2 = f"%v{self.count}"
            self.count += 1
            self.lines.append(f"    {name2}:2 = {text}")
            self.values.append((f"{name2}#1", tuple(shape), value))
            return self.values[-1]
        if kind == "bf16":
            tb = t.replace("f32>", "bf16>")
            b = f"%b{self.count}"
            self.lines.append(f"    {b} = stablehlo.convert {name} : ({t}) -> {tb}")
            return self.emit(f"stablehlo.convert {b} : ({tb}) -> {t}", shape, to_bf16(v))
        if kind == "constraint":
            return self.emit(f"sdy.sharding_constraint {name} {self.sharding(shape)} : {t}",
                             shape, v)
        return None

    def text(self, results):
        devices = int(np.prod([n for _, n in self.mesh]))
        axes = ", ".join(f'"{a}"={n}' for a, n in self.mesh)
        params = ", ".join(f"{n}: {ttype(s)} {{sdy.sharding = #sdy.sharding{sh[0:]}}}"
                           .replace("#sdy.sharding<", "#sdy.sharding<", 1)
                           for n, s, sh, _ in self.args)
        rtypes = ", ".join(ttype(s) for _, s, _ in results)
        out = [f"module @jit_random attributes {{mhlo.num_partitions = {devices} : i32, "
               "mhlo.num_replicas = 1 : i32} {",
               f"  sdy.mesh @mesh = <[{axes}]>",
               f"  func.func public @main({params}) -> ({rtypes}) {{"]
        out += self.lines
        out.append(f"    return {', '.join(n for n, _, _ in results)} : {rtypes}")
        out += ["  }", "}"]
        return "\n".join(out) + "\n"

    def round_trip_text(self, results):
        """The program in Shardy's round-trip form."""
        def hidden(attr):
            return '"' + attr.replace('"', "\\22") + '"'
        text = self.text(results)
        axes = ", ".join(f'"{a}"={n}' for a, n in self.mesh)
        meshes = hidden(f"{{mesh = #sdy.mesh<[{axes}]>}}")
        text = text.replace(f"  sdy.mesh @mesh = <[{axes}]>\n", "")
        text = text.replace("module @jit_random attributes {",
                            "module @jit_random attributes {mhlo.frontend_attributes = "
                            f"{{xla.sdy.meshes = {meshes}}}, ", 1)
        for _, _, sh, _ in self.args:
            text = text.replace(f"{{sdy.sharding = #sdy.sharding{sh}}}",
                                "{mhlo.frontend_attributes = {xla.sdy.sharding = "
                                f"{hidden('#sdy.sharding' + sh)}}}}}")
        lines = []
        for line in text.split("\n"):
            if "sdy.sharding_constraint" in line:
                lhs, rest = line.split(" = sdy.sharding_constraint ")
                operand, rest = rest.split(" ", 1)
                sharding, t = rest.rsplit(" : ", 1)
                per_value = hidden(f"#sdy.sharding_per_value<[{sharding}]>")
                line = (f"{lhs} = stablehlo.custom_call @Sharding({operand}) "
                        f"{{mhlo.frontend_attributes = {{xla.sdy.sharding = {per_value}}}}}"
                        f" : ({t}) -> {t}")
            lines.append(line)
        text = "\n".join(lines)
        assert "sdy.sharding<" not in text.replace("#sdy.sharding<", "") and \
            "sdy.mesh @" not in text and "{sdy.sharding =" not in text
        return text


def generate(seed):
    rng = random.Random(seed)
    p = Program(rng)
    rank = rng.choice([1, 2, 2, 3])
    p.new_arg(tuple(rng.choice([2, 4, 8]) for _ in range(rank)))
    steps = 0
    while steps < rng.randrange(4, 14):
        if p.step() is not None:
            steps += 1
    results = [p.values[-1]]
    if len(p.values) > 2 and rng.random() < 0.5:
        results.append(p.values[rng.randrange(1, len(p.values) - 1)])
    # Sharding attributes as written by sharding(): `<@mesh, [...]>`.
    p.args = [(n, s, sh.replace("<@mesh", "<@mesh"), v) for n, s, sh, v in p.args]
    return p, results


def main():
    run, work, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    round_trip = "--round-trip" in sys.argv[5:]
    os.makedirs(work, exist_ok=True)
    for i in range(count):
        p, results = generate(seed * 100003 + i)
        d = os.path.join(work, f"p{i}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "prog.mlir")
        open(path, "w").write(p.round_trip_text(results) if round_trip else p.text(results))
        inputs = []
        for k, (_, _, _, value) in enumerate(p.args):
            np.save(os.path.join(d, f"in{k}.npy"), value)
            inputs += ["--input", f"arg{k}={os.path.join(d, f'in{k}.npy')}"]
        proc = subprocess.run([run, path, "--reference", "--quiet", "--output-dir", d] + inputs,
                              capture_output=True, text=True)
        if proc.returncode != 0 or proc.stdout.count(": match") != len(results):
            print(f"FAIL program {i}: trellis-run exited {proc.returncode}\n{proc.stdout}{proc.stderr}")
            print(f"files in {d}")
            sys.exit(1)
        for j, (_, shape, expected) in enumerate(results):
            got = np.load(os.path.join(d, f"out{j}.npy")).astype(np.float64)
            scale = max(1.0, float(np.abs(expected).max()) if expected.size else 1.0)
            if got.shape != tuple(shape) or not np.allclose(got, expected, rtol=1e-4,
                                                            atol=1e-5 * scale):
                diff = np.abs(got - expected) if got.shape == expected.shape else None
                print(f"FAIL program {i}: out{j} differs from numpy"
                      + (f" (max abs error {diff.max()})" if diff is not None else
                         f" (shape {got.shape}, expected {tuple(shape)})"))
                print(f"files in {d}")
                sys.exit(1)
        print(f"program {i}: {len(p.lines)} ops, {len(results)} results, mesh "
              f"{'x'.join(str(n) for _, n in p.mesh)}: ok")


if __name__ == "__main__":
    main()
