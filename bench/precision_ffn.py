#!/usr/bin/env python3
"""Seed 003's FFN block in bf16 against f32 on 8 devices (issue 23).

examples/seeds/ffn_naive.mlir (a 2x4 mesh, all_gather -> matmul -> gelu
-> matmul -> psum_scatter) with every dimension multiplied by SCALE, in f32
and converted to bf16 (test/Examples/to_bf16.py), run by trellis-run as
written and rewritten into a bidirectional collective matmul. The two
dtypes alternate run by run so that both see the same host; each run
reports the median of --repeat timed runs and the table gives the median
over ROUNDS runs and the bf16/f32 ratio.

Usage: bench/precision_ffn.py [--build-dir build] [--scale 16 32]
                              [--rounds 3] [--repeat 5]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEED = os.path.join(ROOT, "examples", "seeds", "ffn_naive.mlir")
TO_BF16 = os.path.join(ROOT, "test", "Examples", "to_bf16.py")


def scaled(text, scale):
    """Every tensor dimension times `scale` (the program's blocks and
    collectives all follow from its types)."""
    def grow(m):
        dims = [str(int(d) * scale) for d in m.group(1).split("x")]
        return "tensor<" + "x".join(dims) + "xf32>"
    return re.sub(r"tensor<([0-9x]+)xf32>", grow, text)


def median_ms(run, path, passes, repeat):
    cmd = [run, path, "--random", "1", "--repeat", str(repeat), "--warmup", "1"]
    if passes:
        cmd.append("--passes=" + passes)
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    m = re.search(r"median ([0-9.]+) ms", out.stdout + out.stderr)
    if not m:
        sys.exit(f"no timing in the output of {' '.join(cmd)}")
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--scale", type=int, nargs="+", default=[16, 32])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    run = os.path.join(args.build_dir, "bin", "trellis-run")
    work = tempfile.mkdtemp(prefix="trellis-ffn-")
    variants = [("as written (all_gather, psum_scatter)", ""),
                ("bidirectional collective matmul",
                 "spmd-collective-matmul{force bidirectional}")]
    print("| FFN (B, D, F) on 2x4 | program | f32 ms | bf16 ms | bf16/f32 |")
    print("|---|---|---|---|---|")
    for scale in args.scale:
        f32 = os.path.join(work, f"ffn_x{scale}.mlir")
        bf16 = os.path.join(work, f"ffn_x{scale}_bf16.mlir")
        with open(SEED) as f:
            open(f32, "w").write(scaled(f.read(), scale))
        subprocess.run([sys.executable, TO_BF16, f32, bf16], check=True)
        shape = f"({16 * scale}, {64 * scale}, {128 * scale})"
        for name, passes in variants:
            times = {"f32": [], "bf16": []}
            for _ in range(args.rounds):
                times["f32"].append(median_ms(run, f32, passes, args.repeat))
                times["bf16"].append(median_ms(run, bf16, passes, args.repeat))
            a = statistics.median(times["f32"])
            b = statistics.median(times["bf16"])
            print(f"| {shape} | {name} | {a:.1f} | {b:.1f} | {b / a:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
