#!/usr/bin/env python3
"""Random well-formed explicit-sharding programs for trellis-infer-shardings.

Usage: random_programs.py TRELLIS_OPT COUNT SEED
Generates COUNT programs (random meshes, shapes, shardings and ops: linalg
elementwise, matmul, transpose, reductions, broadcasts, slices, concats,
reshapes), runs `trellis-opt --trellis-infer-shardings` on each and checks it
either succeeds or reports located errors: never a crash, a hang or an
unlocated failure. Prints a summary line.
"""
import random
import subprocess
import sys


def sharding(mesh, dims):
    body = ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims)
    return f'#trellis.sharding<@mesh, [{body}]>'


class Program:
    def __init__(self, rng):
        self.rng = rng
        n = rng.randint(1, 3)
        self.axes = [(chr(ord("X") + i) if i < 3 else f"a{i}", rng.choice([1, 2, 4]))
                     for i in range(n)]
        self.lines = []
        self.values = []  # (name, shape, dims or None)
        self.count = 0

    def type(self, shape, dims):
        t = "tensor<" + "x".join(map(str, shape)) + "xf32"
        if dims is not None and any(dims):
            t += ", " + sharding(self.axes, dims)
        return t + ">"

    def random_dims(self, shape):
        free = [a for a in self.axes]
        self.rng.shuffle(free)
        dims = []
        for size in shape:
            d = []
            if free and self.rng.random() < 0.5:
                name, s = free[0]
                if size % s == 0:
                    d.append(name)
                    free.pop(0)
            dims.append(d)
        return dims

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def empty(self, shape, annotate):
        v = self.fresh()
        dims = self.random_dims(shape) if annotate else None
        self.lines.append(f"  {v} = tensor.empty() : {self.type(shape, dims)}")
        return v, dims

    def add(self, value):
        self.values.append(value)

    def emit_op(self):
        rng = self.rng
        name, shape, dims = rng.choice(self.values)
        kind = rng.choice(["ew", "matmul", "transpose", "reduce", "slice",
                           "concat", "collapse", "expand", "broadcast"])
        t = self.type(shape, dims)
        annotate = rng.random() < 0.2
        if kind == "ew":
            other = [v for v in self.values if v[1] == shape]
            o = rng.choice(other)
            e, ed = self.empty(shape, annotate)
            r = self.fresh()
            op = rng.choice(["add", "mul", "sub", "max"])
            rt = self.type(shape, ed)
            self.lines.append(f"  {r} = linalg.{op} ins({name}, {o[0]} : {t}, {self.type(o[1], o[2])}) outs({e} : {rt}) -> {rt}")
            self.add((r, shape, None if not annotate else ed))
        elif kind == "matmul" and len(shape) == 2:
            k = shape[1]
            n = rng.choice([2, 4, 8])
            wd = self.random_dims([k, n])
            w = self.fresh()
            self.lines.append(f"  {w} = tensor.empty() : {self.type([k, n], wd)}")
            e, ed = self.empty([shape[0], n], annotate)
            r = self.fresh()
            rt = self.type([shape[0], n], ed)
            self.lines.append(f"  {r} = linalg.matmul ins({name}, {w} : {t}, {self.type([k, n], wd)}) outs({e} : {rt}) -> {rt}")
            self.add((r, [shape[0], n], None if not annotate else ed))
        elif kind == "transpose" and len(shape) == 2:
            e, ed = self.empty([shape[1], shape[0]], annotate)
            r = self.fresh()
            rt = self.type([shape[1], shape[0]], ed)
            self.lines.append(f"  {r} = linalg.transpose ins({name} : {t}) outs({e} : {rt}) permutation = [1, 0]")
            self.add((r, [shape[1], shape[0]], None if not annotate else ed))
        elif kind == "reduce" and len(shape) == 2:
            e, ed = self.empty([shape[0]], annotate)
            r = self.fresh()
            rt = self.type([shape[0]], ed)
            self.lines.append(f"  {r} = linalg.reduce ins({name} : {t}) outs({e} : {rt}) dimensions = [1]\n"
                              f"    (%in: f32, %acc: f32) {{\n      %s = arith.addf %in, %acc : f32\n      linalg.yield %s : f32\n    }}")
            self.add((r, [shape[0]], None if not annotate else ed))
        elif kind == "slice":
            d = rng.randrange(len(shape))
            size = max(1, shape[d] // 2)
            out = list(shape)
            out[d] = size
            offsets = ", ".join("0" for _ in shape)
            sizes = ", ".join(map(str, out))
            strides = ", ".join("1" for _ in shape)
            r = self.fresh()
            self.lines.append(f"  {r} = tensor.extract_slice {name}[{offsets}] [{sizes}] [{strides}] : {t} to {self.type(out, None)}")
            self.add((r, out, None))
        elif kind == "concat":
            d = rng.randrange(len(shape))
            out = list(shape)
            out[d] *= 2
            r = self.fresh()
            self.lines.append(f"  {r} = tensor.concat dim({d}) {name}, {name} : ({t}, {t}) -> {self.type(out, None)}")
            self.add((r, out, None))
        elif kind == "collapse" and len(shape) == 2:
            r = self.fresh()
            out = [shape[0] * shape[1]]
            self.lines.append(f"  {r} = tensor.collapse_shape {name} [[0, 1]] : {t} into {self.type(out, None)}")
            self.add((r, out, None))
        elif kind == "expand" and len(shape) == 1 and shape[0] % 2 == 0:
            r = self.fresh()
            out = [2, shape[0] // 2]
            self.lines.append(f"  {r} = tensor.expand_shape {name} [[0, 1]] output_shape [{out[0]}, {out[1]}] : {t} into {self.type(out, None)}")
            self.add((r, out, None))
        elif kind == "broadcast" and len(shape) == 1:
            e, ed = self.empty([4, shape[0]], annotate)
            r = self.fresh()
            rt = self.type([4, shape[0]], ed)
            self.lines.append(f"  {r} = linalg.broadcast ins({name} : {t}) outs({e} : {rt}) dimensions = [0]")
            self.add((r, [4, shape[0]], None if not annotate else ed))

    def text(self, ops):
        args = []
        for i in range(self.rng.randint(1, 3)):
            shape = [self.rng.choice([4, 8, 16]) for _ in range(self.rng.randint(1, 2))]
            dims = self.random_dims(shape)
            args.append((f"%a{i}", shape, dims))
        self.values = list(args)
        for _ in range(ops):
            self.emit_op()
        axes = ", ".join(f'"{n}"={s}' for n, s in self.axes)
        types = ", ".join(["explicit"] * len(self.axes))
        sig = ", ".join(f"{n}: {self.type(s, d)}" for n, s, d in args)
        return (f"trellis.mesh @mesh = <[{axes}], types = [{types}]>\n"
                f"func.func @f({sig}) {{\n" + "\n".join(self.lines) + "\n  return\n}\n")


def main():
    opt, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    outcomes = {"inferred": 0, "rejected": 0, "unparsed": 0}
    for i in range(count):
        source = Program(rng).text(rng.randint(1, 8))
        try:
            proc = subprocess.run([opt, "-", "--trellis-infer-shardings", "-o", "/dev/null"],
                                  input=source, capture_output=True, text=True, timeout=20)
        except subprocess.TimeoutExpired:
            print(f"FAIL: program {i} hung\n{source}")
            return 1
        if proc.returncode == 0:
            outcomes["inferred"] += 1
        elif proc.returncode == 1 and "<stdin>:" in proc.stderr and "error:" in proc.stderr:
            key = "unparsed" if "custom op" in proc.stderr or "expected" in proc.stderr.split("error:")[1][:40] else "rejected"
            outcomes[key] += 1
        else:
            print(f"FAIL: program {i} exited with {proc.returncode}\n{source}\n{proc.stderr}")
            return 1
    print(f"random programs: {count} run, {outcomes['inferred']} inferred, "
          f"{outcomes['rejected']} rejected with located errors, "
          f"{outcomes['unparsed']} rejected by the parser; no crash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
