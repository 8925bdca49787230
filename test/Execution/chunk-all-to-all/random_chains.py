#!/usr/bin/env python3
"""Random shard_map programs for spmd-chunk-all-to-all: up to two random
ops computing an all_to_all's operand (also rows mixed by an outside
matrix, as an MoE dispatch does, and a value scaled by its own sums over
one dimension, read both along the chunk and whole), the all_to_all, and a random chain
of ops (elementwise ops, contractions by a
weight as linalg.generic or as collapse + linalg.matmul + expand, a second
all_to_all, a scale along one dimension, a final reduction), each run
with the pass and spmd-async-collectives{kinds=all} and compared by
trellis-run --reference with the program as written (which runs without
the passes).

Usage: random_chains.py TRELLIS_RUN TRELLIS_OPT WORKDIR COUNT SEED [MPIRUN M]

With MPIRUN (the mpirun command line, one string), the first M programs
the pass rewrites also run with one device per MPI rank (their all_to_all
chunks as MPI_Ialltoall), and their outputs must equal the in-process
ones.

Prints one line per program that does not match (and exits 1), then
"K of COUNT chunked (P with their producers, S into a chunked sum), all
match", where K counts the programs the pass rewrote (trellis-opt's
output has slices), P those whose compute before the all_to_all was
chunked too and S those whose final sum over dimension 1 runs once per
chunk (a reduction along the chunk, accumulated chunk after chunk), so
that a rewrite that never fires shows.
"""
import os
import random
import subprocess
import sys


def ty(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


class Program:
    def __init__(self, rng, n):
        self.rng, self.n = rng, n
        self.args = []  # (name, local shape, spec)
        self.lines = []
        self.count = 0

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def weight(self, shape):
        name = f"%w{len(self.args)}"
        self.args.append((name, shape, "[" + ", ".join("{}" for _ in shape) + "]"))
        return name

    def zeros(self, shape):
        e, z = self.fresh(), self.fresh()
        self.lines.append(f"{e} = tensor.empty() : {ty(shape)}")
        self.lines.append(f"{z} = linalg.fill ins(%zero : f32) outs({e} : {ty(shape)}) -> {ty(shape)}")
        return z

    def all_to_all(self, v, shape):
        n = self.n
        choices = [(s, c) for s in range(3) for c in range(3) if shape[s] % n == 0]
        s, c = self.rng.choice(choices)
        out = list(shape)
        out[s] //= n
        out[c] *= n
        r = self.fresh()
        self.lines.append(f'{r} = spmd.all_to_all {v} over ["X"] split {s} concat {c} : {ty(shape)} -> {ty(out)}')
        return r, out

    def step(self, v, shape, last, before=False):
        kinds = ["tanh", "square", "contract", "matmul", "scale", "normalize"]
        if not before:
            kinds.append("a2a")
        else:
            kinds.append("mix")
        if last:
            kinds.append("reduce")
        kind = self.rng.choice(kinds)
        r = self.fresh()
        if kind == "tanh":
            self.lines.append(f"{r} = math.tanh {v} : {ty(shape)}")
            return r, shape
        if kind == "square":
            self.lines.append(f"{r} = arith.mulf {v}, {v} : {ty(shape)}")
            return r, shape
        if kind == "contract":
            k = self.rng.choice([4, 8])
            w = self.weight([shape[2], k])
            out = [shape[0], shape[1], k]
            z = self.zeros(out)
            self.lines.append(
                f"{r} = linalg.generic {{indexing_maps = [affine_map<(a, b, k, l) -> (a, b, l)>, "
                f"affine_map<(a, b, k, l) -> (l, k)>, affine_map<(a, b, k, l) -> (a, b, k)>], "
                f'iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} '
                f"ins({v}, {w} : {ty(shape)}, {ty([shape[2], k])}) outs({z} : {ty(out)}) {{\n"
                f"    ^bb0(%x: f32, %y: f32, %acc: f32):\n"
                f"      %p = arith.mulf %x, %y : f32\n      %s = arith.addf %acc, %p : f32\n"
                f"      linalg.yield %s : f32\n    }} -> {ty(out)}")
            return r, out
        if kind == "matmul":
            k = self.rng.choice([4, 8])
            w = self.weight([shape[2], k])
            rows = shape[0] * shape[1]
            flat, mm = self.fresh(), self.fresh()
            self.lines.append(f"{flat} = tensor.collapse_shape {v} [[0, 1], [2]] : {ty(shape)} into {ty([rows, shape[2]])}")
            z = self.zeros([rows, k])
            self.lines.append(f"{mm} = linalg.matmul ins({flat}, {w} : {ty([rows, shape[2]])}, {ty([shape[2], k])}) "
                              f"outs({z} : {ty([rows, k])}) -> {ty([rows, k])}")
            out = [shape[0], shape[1], k]
            self.lines.append(f"{r} = tensor.expand_shape {mm} [[0, 1], [2]] output_shape [{out[0]}, {out[1]}, {out[2]}] "
                              f": {ty([rows, k])} into {ty(out)}")
            return r, out
        if kind == "normalize":
            # v[a, b, c] * sum_n v[n, b, c]: v read along a and whole.
            z = self.zeros(shape)
            self.lines.append(
                f"{r} = linalg.generic {{indexing_maps = [affine_map<(a, b, c, n) -> (a, b, c)>, "
                f"affine_map<(a, b, c, n) -> (n, b, c)>, affine_map<(a, b, c, n) -> (a, b, c)>], "
                f'iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} '
                f"ins({v}, {v} : {ty(shape)}, {ty(shape)}) outs({z} : {ty(shape)}) {{\n"
                f"    ^bb0(%x: f32, %y: f32, %acc: f32):\n"
                f"      %p = arith.mulf %x, %y : f32\n      %s = arith.addf %acc, %p : f32\n"
                f"      linalg.yield %s : f32\n    }} -> {ty(shape)}")
            return r, shape
        if kind == "mix":
            # Rows mixed by an outside matrix indexed by the collapsed rows
            # (an MoE dispatch, mask^T @ tokens): chunking its rows slices
            # that matrix's columns through their factors.
            rows = shape[0] * shape[1]
            m = self.weight([rows, rows])
            flat, mm = self.fresh(), self.fresh()
            self.lines.append(f"{flat} = tensor.collapse_shape {v} [[0, 1], [2]] : {ty(shape)} into {ty([rows, shape[2]])}")
            z = self.zeros([rows, shape[2]])
            self.lines.append(
                f"{mm} = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, "
                f"affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] "
                f"ins({m}, {flat} : {ty([rows, rows])}, {ty([rows, shape[2]])}) "
                f"outs({z} : {ty([rows, shape[2]])}) -> {ty([rows, shape[2]])}")
            self.lines.append(f"{r} = tensor.expand_shape {mm} [[0, 1], [2]] output_shape [{shape[0]}, {shape[1]}, {shape[2]}] "
                              f": {ty([rows, shape[2]])} into {ty(shape)}")
            return r, shape
        if kind == "a2a":
            self.count -= 1
            return self.all_to_all(v, shape)
        if kind == "scale":
            d = self.rng.randrange(3)
            w = self.weight([shape[d]])
            dims = ["a", "b", "c"]
            e = self.fresh()
            self.lines.append(f"{e} = tensor.empty() : {ty(shape)}")
            self.lines.append(
                f"{r} = linalg.generic {{indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, "
                f"affine_map<(a, b, c) -> ({dims[d]})>, affine_map<(a, b, c) -> (a, b, c)>], "
                f'iterator_types = ["parallel", "parallel", "parallel"]}} '
                f"ins({v}, {w} : {ty(shape)}, {ty([shape[d]])}) outs({e} : {ty(shape)}) {{\n"
                f"    ^bb0(%x: f32, %y: f32, %o: f32):\n      %p = arith.mulf %x, %y : f32\n"
                f"      linalg.yield %p : f32\n    }} -> {ty(shape)}")
            return r, shape
        # reduce: sum over dimension 1
        out = [shape[0], shape[2]]
        z = self.zeros(out)
        self.lines.append(
            f"{r} = linalg.generic {{indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, "
            f"affine_map<(a, b, c) -> (a, c)>], "
            f'iterator_types = ["parallel", "reduction", "parallel"]}} '
            f"ins({v} : {ty(shape)}) outs({z} : {ty(out)}) {{\n"
            f"    ^bb0(%x: f32, %acc: f32):\n      %s = arith.addf %acc, %x : f32\n"
            f"      linalg.yield %s : f32\n    }} -> {ty(out)}")
        return r, out

    def text(self):
        n = self.n
        shape = [self.rng.choice([4, 8]) for _ in range(3)]
        shape[0] = n * self.rng.choice([1, 2])
        self.args.append(("%d", shape, '[{"X"}, {}, {}]'))
        # Up to two ops compute the all_to_all's operand (the pass chunks
        # them too).
        v, cur = "%d", shape
        for _ in range(self.rng.randint(0, 2)):
            v, cur = self.step(v, cur, False, before=True)
        v, cur = self.all_to_all(v, cur)
        steps = self.rng.randint(1, 4)
        for i in range(steps):
            v, cur = self.step(v, cur, i == steps - 1)
        glob = lambda s, spec: [x * n if '"X"' in spec.split(",")[0] and i == 0 else x
                                for i, x in enumerate(s)]
        out_global = [cur[0] * n] + cur[1:]
        out_spec = "[" + ", ".join(['{"X"}'] + ["{}"] * (len(cur) - 1)) + "]"
        params = ", ".join(f"{a}g: {ty(glob(s, sp))}" for a, s, sp in self.args)
        operands = ", ".join(f"{a}g" for a, _, _ in self.args)
        in_types = ", ".join(ty(glob(s, sp)) for _, s, sp in self.args)
        in_specs = ", ".join(sp for _, _, sp in self.args)
        block = ", ".join(f"{a}: {ty(s)}" for a, s, _ in self.args)
        body = "\n".join("    " + l for l in self.lines)
        return f'''trellis.mesh @mesh = <["X"={n}]>
func.func @main({params}) -> {ty(out_global)} {{
  %out = spmd.shard_map @mesh in_specs = [{in_specs}] out_specs = [{out_spec}]
      ({operands}) : ({in_types}) -> {ty(out_global)} {{
  ^bb0({block}):
    %zero = arith.constant 0.0 : f32
{body}
    spmd.yield {v} : {ty(cur)}
  }}
  return %out : {ty(out_global)}
}}
'''


def main():
    run, opt, work, count, seed = sys.argv[1:6]
    mpirun = sys.argv[6] if len(sys.argv) > 6 else None
    mpi_left = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    mpi_checked = 0
    os.makedirs(work, exist_ok=True)
    rng = random.Random(int(seed))
    passes = "spmd-chunk-all-to-all{chunks=%d threshold-bytes=0},spmd-async-collectives{kinds=all}"
    chunked = failed = producers = sinks = 0

    def compute_before(text, nth):
        """Compute ops before the nth spmd.all_to_all of `text`."""
        count = 0
        for line in text.splitlines():
            if "spmd.all_to_all" in line:
                nth -= 1
                if nth == 0:
                    break
            count += "linalg.generic" in line or "linalg.matmul" in line
        return count
    for i in range(int(count)):
        n = rng.choice([2, 4])
        path = os.path.join(work, f"p{i}.mlir")
        with open(path, "w") as f:
            f.write(Program(rng, n).text())
        p = passes % rng.choice([2, 3, 4])
        ir = subprocess.run([opt, path, f"--pass-pipeline=builtin.module({p})"],
                            capture_output=True, text=True)
        if ir.returncode != 0:
            print(f"{path}: trellis-opt failed:\n{ir.stderr}")
            failed += 1
            continue
        chunked += "tensor.extract_slice" in ir.stdout
        with open(path) as f:
            before = compute_before(f.read(), 1)
        # Chunk 1's copy of the producer comes after chunk 0's all_to_all.
        producers += before > 0 and compute_before(ir.stdout, 2) > before
        # The final sum over dimension 1, when the chunk is that dimension,
        # runs once per chunk, each accumulating into the one before.
        sinks += ir.stdout.count('["parallel", "reduction", "parallel"]') > 1
        threads = os.path.join(work, f"p{i}.threads")
        res = subprocess.run([run, path, "--random", str(i + 1), "--reference",
                              "--quiet", f"--passes={p}", "--output-dir", threads],
                             capture_output=True, text=True, timeout=300)
        if res.returncode != 0 or "reference: out0" not in res.stdout + res.stderr \
                or ": match" not in res.stdout + res.stderr:
            print(f"{path} with {p}: NO MATCH\n{res.stdout[-2000:]}{res.stderr[-2000:]}")
            failed += 1
            continue
        if mpirun and mpi_checked < mpi_left and "tensor.extract_slice" in ir.stdout:
            import numpy as np
            ranks = os.path.join(work, f"p{i}.mpi")
            res = subprocess.run(mpirun.split() + ["-np", str(n), run, "--backend=mpi", path,
                                                   "--random", str(i + 1), "--quiet",
                                                   f"--passes={p}", "--output-dir", ranks],
                                 capture_output=True, text=True, timeout=300)
            same = res.returncode == 0 and np.array_equal(
                np.load(os.path.join(threads, "out0.npy")),
                np.load(os.path.join(ranks, "out0.npy")))
            if not same:
                print(f"{path} with {p}: MPI DIFFERS\n{res.stdout[-2000:]}{res.stderr[-2000:]}")
                failed += 1
            mpi_checked += 1
    mpi = f", {mpi_checked} under MPI" if mpirun else ""
    print(f"{chunked} of {count} chunked ({producers} with their producers, "
          f"{sinks} into a chunked sum){mpi}, "
          + ("all match" if not failed else f"{failed} FAILED"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
