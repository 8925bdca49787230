#!/usr/bin/env python3
"""Import + propagate + partition time of StableHLO modules, 100 to 10,000 ops.

Generates chains of (dot_general with a replicated weight, broadcast_in_dim
of a bias, add, maximum with zero) blocks on a row-sharded [64, 64]
activation as JAX prints them (Shardy, mesh (8)), and times side by side
in one run: `trellis-opt --trellis-import-stablehlo` alone, import plus
`--trellis-global-to-manual`, and `--trellis-global-to-manual` alone on the
already imported Trellis IR (the partitioner's compile time the upstream
comparison reports). Median of 3 wall-clock runs of the whole tool, process
start included. Writes bench/results/import.md.

Usage (after scripts/build.sh):
  /usr/bin/python3 bench/import_scaling.py [--quick]
"""
import argparse
import os
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chain(blocks):
    """The module text and its number of StableHLO ops."""
    t = "tensor<64x64xf32>"
    lines = [
        "module @jit_chain attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {",
        '  sdy.mesh @mesh = <["x"=8]>',
        "  func.func public @main(%arg0: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}, "
        "%arg1: tensor<64x64xf32>, %arg2: tensor<64xf32>) -> (tensor<64x64xf32> {jax.result_info = \"result\", "
        "sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}) {",
        "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>",
        f"    %zero = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> {t}",
    ]
    ops = 2
    prev = "%arg0"
    for i in range(blocks):
        lines += [
            f"    %d{i} = stablehlo.dot_general {prev}, %arg1, contracting_dims = [1] x [0], "
            f"precision = [DEFAULT, DEFAULT] : ({t}, {t}) -> {t}",
            f"    %b{i} = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> {t}",
            f"    %a{i} = stablehlo.add %d{i}, %b{i} : {t}",
            f"    %r{i} = stablehlo.maximum %a{i}, %zero : {t}",
        ]
        ops += 4
        prev = f"%r{i}"
    lines += [f"    return {prev} : {t}", "  }", "}"]
    return "\n".join(lines) + "\n", ops + 1


def timed(cmd, runs=3):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "import.md"))
    parser.add_argument("--work", default="/tmp/trellis-import-scaling")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    opt = os.path.join(args.build_dir, "bin", "trellis-opt")
    os.makedirs(args.work, exist_ok=True)
    started = time.time()
    rows = []
    for target in ([100, 1000] if args.quick else [100, 300, 1000, 3000, 10000]):
        blocks = max(1, (target - 3) // 4)
        text, ops = chain(blocks)
        src = os.path.join(args.work, f"chain{ops}.mlir")
        imported = os.path.join(args.work, f"chain{ops}.trellis.mlir")
        open(src, "w").write(text)
        subprocess.run([opt, src, "--trellis-import-stablehlo", "-o", imported], check=True)
        t_import = timed([opt, src, "--trellis-import-stablehlo", "-o", os.devnull])
        t_all = timed([opt, src, "--trellis-import-stablehlo", "--trellis-global-to-manual",
                       "-o", os.devnull])
        t_part = timed([opt, imported, "--trellis-global-to-manual", "-o", os.devnull])
        rows.append((ops, t_import, t_all, t_part))
        print(f"{ops} ops: import {t_import:.0f} ms, import+partition {t_all:.0f} ms, "
              f"partition alone {t_part:.0f} ms", flush=True)
    elapsed = time.time() - started
    with open(args.out, "w") as f:
        f.write("## Importing StableHLO: time against size (issue 22)\n\n")
        f.write(f"Regenerate: `/usr/bin/python3 bench/import_scaling.py` after `scripts/build.sh` "
                f"(took {elapsed:.0f} s). Host: {os.cpu_count()} cores. Chains of (dot_general, "
                "broadcast_in_dim, add, maximum) blocks on a row-sharded 64x64 activation as JAX "
                "prints them (Shardy, mesh (8)); median of 3 wall-clock runs of `trellis-opt`, "
                "process start included. \"partition alone\" runs `--trellis-global-to-manual` on "
                "the already imported module.\n\n")
        f.write("| StableHLO ops | import ms | ms/op | import + propagate + partition ms | ms/op "
                "| partition alone ms |\n|---|---|---|---|---|---|\n")
        for ops, ti, ta, tp in rows:
            f.write(f"| {ops} | {ti:.0f} | {ti / ops:.3f} | {ta:.0f} | {ta / ops:.3f} | {tp:.0f} |\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
