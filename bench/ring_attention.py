#!/usr/bin/env python3
"""Ring attention vs all-gather attention in virtual time (issue 28).

Both programs of bench/overlap/attention.py at S=2048, D=64 on 8 devices:
the ring attends to one key/value block per step while the next travels
by ppermute; the other all-gathers K and V first. Compute C = the
all-gather program's virtual makespan with no link model; for each ratio
r the link bandwidth is solved from its two ring all-gathers, 2 (n - 1)
(latency + block / bandwidth) = r C (the ring moves the same blocks). The
overlap bound is (r C + C) / max(r C, C). Each figure: the median of
--invocations trellis-run --clock=virtual invocations (spread in
parentheses), as bench/virtual_time.py measures.

Usage (after scripts/build.sh; about 2 minutes on 2 cores):
  /usr/bin/python3 bench/ring_attention.py
"""
import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "overlap"))
import attention  # noqa: E402
import collective_matmul  # noqa: E402
import virtual_time  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--S", type=int, default=2048)
    parser.add_argument("--D", type=int, default=64)
    parser.add_argument("--latency-us", type=float, default=20.0)
    parser.add_argument("--ratios", default="0.5,1,2")
    parser.add_argument("--invocations", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results",
                                                      "ring_attention.md"))
    args = parser.parse_args()
    args.trellis_run = os.path.join(args.build_dir, "bin", "trellis-run")
    args.device = ""
    n, S, D = args.devices, args.S, args.D
    block = (S // n) * D * 4
    ratios = [float(r) for r in args.ratios.split(",")]
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        programs = {}
        for kind in ("allgather", "ring"):
            programs[kind] = os.path.join(tmp, kind + ".mlir")
            attention.write(kind, n, S, D, programs[kind])
        nolink = virtual_time.measure(args, {k: (p, "", None, ())
                                             for k, p in programs.items()})
        compute = nolink["allgather"][0][0]
        links = {}
        for r in ratios:
            wire = r * compute * 1e3 / (2 * (n - 1)) - args.latency_us
            if wire <= 0:
                sys.exit(f"ratio {r}: the latency alone exceeds the budget")
            links[r] = (args.latency_us, block / wire / 1e3)
        timed = virtual_time.measure(args, {(k, r): (p, "", links[r], ())
                                            for r in ratios
                                            for k, p in programs.items()})
    elapsed = time.time() - started
    lines = [
        f"## Ring attention vs all-gather attention in virtual time "
        f"({n} devices, S={S}, D={D}, f32)",
        "",
        f"Regenerate: `/usr/bin/python3 bench/ring_attention.py` (after "
        f"`scripts/build.sh`; took {elapsed:.0f} s). trellis-run "
        f"--clock=virtual --warmup 1 --repeat {args.repeat}; medians of "
        f"{args.invocations} invocations, spread (max - min) / median in "
        f"parentheses. Latency {args.latency_us:g} us; bandwidth from the "
        "all-gathers' ring time = ratio x C. Host: "
        f"{collective_matmul.cpu_model()}, {os.cpu_count()} cores.",
        "",
        "No link model: " + ", ".join(
            f"{k} {v[0][0]:.4g} ms ({100 * v[0][1]:.1f}%)" for k, v in nolink.items())
        + f" (C = {compute:.4g} ms).",
        "",
        "| comm / compute | link GB/s | all-gather ms | ring ms | bound | "
        "ring speedup (of bound) | ring hidden |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in ratios:
        bound = (r * compute + compute) / max(r * compute, compute)
        g, ring = timed[("allgather", r)], timed[("ring", r)]
        speedup = g[0][0] / ring[0][0]
        lines.append(
            f"| {r:g}x | {links[r][1]:.3g} | {g[0][0]:.4g} ({100 * g[0][1]:.1f}%) | "
            f"{ring[0][0]:.4g} ({100 * ring[0][1]:.1f}%) | {bound:.2f}x | "
            f"{speedup:.2f}x ({100 * speedup / bound:.0f}%) | {100 * ring[1]:.0f}% |")
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
