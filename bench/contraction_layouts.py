#!/usr/bin/env python3
"""Contractions of JAX's layouts against a plain matmul of the same FLOPs.

JAX's dot_general prints contractions with unit dimensions, several batch
or row dimensions, batch dimensions in the middle and transposed results.
Each runs here as one trellis-run program on one device next to a plain
(m x k) @ (k x n) matmul of the same multiply-adds, alternating, and the
table gives each one's time and its time per FLOP over the plain matmul's
(1.0: the layout costs nothing). Before trellis-linalg-to-kernels brought every layout
to the kernels, the unit-dimension and several-batch forms ran as scalar
loops, about 100x slower.

Usage: bench/contraction_layouts.py [--build-dir build] [--repeat 5]
       [--scale S] [--out bench/results/contraction_layouts.md]
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name, einsum, sizes (scaled by --scale on the largest dimension)
CASES = [
    ("plain matmul", "mk,kn->mn", {"m": 1024, "k": 1024, "n": 2048}),
    ("unit dims (4096x1x1xK)", "mxyk,kn->mxyn",
     {"m": 1024, "x": 1, "y": 1, "k": 1024, "n": 2048}),
    ("rows b,s (bsd,df->bsf)", "bsd,df->bsf",
     {"b": 4, "s": 256, "d": 1024, "f": 2048}),
    ("rows apart (sbd,df->bsf)", "sbd,df->bsf",
     {"s": 256, "b": 4, "d": 1024, "f": 2048}),
    ("two batch dims", "abmk,abkn->abmn",
     {"a": 2, "b": 4, "m": 256, "k": 512, "n": 512}),
    ("batch in the middle", "mbk,bkn->bmn",
     {"m": 256, "b": 8, "k": 512, "n": 512}),
    ("two K dims (heads)", "mhd,hdn->mn",
     {"m": 1024, "h": 16, "d": 64, "n": 2048}),
    ("transposed result", "mk,kn->nm", {"m": 1024, "k": 1024, "n": 2048}),
]


def program(name, spec, sizes):
    ins, res = spec.split("->")
    a, b = ins.split(",")
    loops = list(dict.fromkeys(res + a + b))
    order = list(res) + [l for l in loops if l not in res]

    def amap(s):
        dims = ", ".join(f"d{order.index(l)}" for l in order)
        return f"affine_map<({dims}) -> ({', '.join(f'd{order.index(l)}' for l in s)})>"

    def ty(s):
        return "tensor<" + "x".join(str(sizes[l]) for l in s) + "xf32>"

    its = ", ".join('"parallel"' if l in res else '"reduction"' for l in order)
    return f"""func.func @main(%a: {ty(a)}, %b: {ty(b)}) -> {ty(res)} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {ty(res)}
  %f = linalg.fill ins(%zero : f32) outs(%e : {ty(res)}) -> {ty(res)}
  %r = linalg.generic {{indexing_maps = [{amap(a)}, {amap(b)}, {amap(res)}], iterator_types = [{its}]}}
      ins(%a, %b : {ty(a)}, {ty(b)}) outs(%f : {ty(res)}) {{
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  }} -> {ty(res)}
  return %r : {ty(res)}
}}
"""


def run_ms(run, path, repeat):
    """Median per-run time that trellis-run reports over `repeat` runs."""
    r = subprocess.run([run, path, "--random", "1", "--repeat", str(repeat),
                        "--warmup", "1"], capture_output=True, text=True,
                       timeout=900)
    if r.returncode != 0:
        sys.exit(f"{path}: trellis-run failed:\n{r.stderr}")
    if "remark" in r.stderr:
        sys.exit(f"{path}: a contraction ran as loops:\n{r.stderr}")
    for line in r.stderr.splitlines():
        if "median" in line:
            return float(line.split("median ")[1].split(" ms")[0])
    sys.exit(f"{path}: no timing line in:\n{r.stderr}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build-dir", default=os.path.join(HERE, "..", "build"))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--out", default=os.path.join(HERE, "results",
                                                 "contraction_layouts.md"))
    a = p.parse_args()
    run = os.path.join(a.build_dir, "bin", "trellis-run")
    work = tempfile.mkdtemp()
    rows = []
    for name, spec, sizes in CASES:
        path = os.path.join(work, f"case{len(rows)}.mlir")
        with open(path, "w") as f:
            f.write(program(name, spec, sizes))
        flops = 2 * math.prod(sizes.values())
        ms = run_ms(run, path, a.repeat)
        rows.append((name, spec, flops, ms))
        print(f"{name}: {ms:.1f} ms, {flops / ms / 1e6:.1f} GFLOP/s",
              flush=True)
    plain_per_flop = rows[0][3] / rows[0][2]
    lines = [
        "# Contraction layouts against a plain matmul",
        "",
        f"`{' '.join(['bench/contraction_layouts.py'] + sys.argv[1:])}` on "
        f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}; one device, "
        f"f32, median of {a.repeat} runs after a warm-up "
        "(trellis-run --repeat).",
        "",
        "| layout | einsum | GFLOP | ms | GFLOP/s | vs plain |",
        "|---|---|---|---|---|---|",
    ]
    for name, spec, flops, ms in rows:
        lines.append(f"| {name} | `{spec}` | {flops / 1e9:.2f} | {ms:.1f} | "
                     f"{flops / ms / 1e6:.1f} | "
                     f"{ms / flops / plain_per_flop:.2f} |")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
