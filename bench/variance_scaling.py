#!/usr/bin/env python3
"""Compile time of spmd-check-variance, 1,000 to 40,000 ops in a shard_map.

Generates a shard_map over a 2x4 mesh whose body chains elementwise ops,
psums over "a" and scf.for loops carrying a tensor (one op in five of each
kind), and times side by side in one run: `trellis-opt` parsing and
printing the module, and the same with `--spmd-check-variance` (the
data-flow analysis plus the pvary/type rewrite). The difference is the
pass's own time; its ratio to parse + print says how heavy it is. Median
of 3 wall-clock runs of the whole tool. Writes bench/results/variance.md.

Usage (after scripts/build.sh):
  /usr/bin/python3 bench/variance_scaling.py [--quick]
"""
import argparse
import os
import tempfile

from import_scaling import timed  # median of 3 whole-tool runs, in ms

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def program(n):
    """A shard_map body of about `n` ops."""
    t = "tensor<4x16xf32>"
    lines = [
        'trellis.mesh @m = <["a"=2, "b"=4]>',
        "func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {",
        '  %y = spmd.shard_map @m in_specs = [[{"a"}, {"b"}]] '
        'out_specs = [[{"a"}, {"b"}]] (%x) : (tensor<8x64xf32>) -> '
        "tensor<8x64xf32> {",
        f"  ^bb0(%b: {t}):",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c4 = arith.constant 4 : index",
    ]
    prev = "%b"
    for i in range(n):
        k = i % 5
        if k == 0:
            lines.append(f"    %v{i} = arith.addf {prev}, %b : {t}")
        elif k == 1:
            lines.append(f'    %v{i} = spmd.psum {prev} over ["a"] : {t}')
        elif k == 2:
            lines.append(f"    %v{i} = arith.mulf {prev}, {prev} : {t}")
        elif k == 3:
            lines += [
                f"    %v{i} = scf.for %i{i} = %c0 to %c4 step %c1 "
                f"iter_args(%a{i} = {prev}) -> ({t}) {{",
                f"      %w{i} = arith.addf %a{i}, %b : {t}",
                f"      scf.yield %w{i} : {t}",
                "    }",
            ]
        else:
            lines.append(f"    %v{i} = arith.subf {prev}, %b : {t}")
        prev = f"%v{i}"
    lines += [f"    spmd.yield {prev} : {t}", "  }",
              "  return %y : tensor<8x64xf32>", "}"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    opt = os.path.join(args.build_dir, "bin", "trellis-opt")
    sizes = [1000, 4000] if args.quick else [1000, 4000, 10000, 40000]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = os.path.join(tmp, f"var{n}.mlir")
            with open(path, "w") as f:
                f.write(program(n))
            base = timed([opt, path, "-o", os.devnull]) / 1000
            typed = timed(
                [opt, path, "--spmd-check-variance", "-o", os.devnull]) / 1000
            rows.append((n, base, typed))
    out = [
        "# spmd-check-variance compile time",
        "",
        "Regenerate: `/usr/bin/python3 bench/variance_scaling.py` after "
        "`scripts/build.sh`. Host: 2 cores. Median of 3 whole-tool runs; "
        "'pass' = with the pass minus parse + print.",
        "",
        "| ops in the body | parse + print (s) | with spmd-check-variance (s) "
        "| pass (s) | pass / parse+print | pass per op (us) |",
        "|---|---|---|---|---|---|",
    ]
    for n, base, typed in rows:
        p = max(typed - base, 0.0)
        out.append(f"| {n} | {base:.3f} | {typed:.3f} | {p:.3f} | "
                   f"{p / base:.2f} | {p / n * 1e6:.1f} |")
    text = "\n".join(out) + "\n"
    print(text)
    if not args.quick:
        with open(os.path.join(ROOT, "bench", "results", "variance.md"),
                  "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
