#!/usr/bin/env python3
"""MoE block: whole all_to_alls vs ppermute steps pipelined with the experts
vs all_to_alls chunked by the compiler, in virtual time (issue 28).

Both programs of bench/overlap/moe.py on 8 devices (T tokens per device,
capacity T, D, F), and the all_to_all one rewritten by
spmd-chunk-all-to-all{chunks=K} + spmd-async-collectives{kinds=all}
("chunked": K all_to_alls of capacity slices, each chunk's experts
overlapping the next chunk's dispatch and the previous one's combine),
and the same program with `trellis-run --overlap` (the pass's default
threshold and chunk count). Compute C = the all_to_all program's virtual makespan
with no link model; for each ratio r the link bandwidth is solved from its
two all_to_alls' ring time, (n - 1) (2 latency + (C D + C F) 4 / bandwidth)
= r C. The generic overlap bound (r C + C) / max(r C, C) assumes all
compute can hide communication; here the hand-written pipeline only
overlaps the experts (the routing and dispatch come before its first
send, the combine after its last receive); the chunked program computes
the dispatch, the experts and the combine (a sum over the capacity
slots, each chunk adding to the ones before) chunk by chunk, so all of
them can hide communication except the first chunk's dispatch, before
anything can be sent, and the last chunk's combine, after everything is
received. The "chunk bound" is (C + r C) / max(C, r C + (Dc + Cb) / K),
with Dc and Cb the dispatch's and the combine's shares of the block's
multiply-adds times C (an estimate: it takes time to be proportional to
multiply-adds). Each figure: the median of --invocations
trellis-run --clock=virtual invocations (spread in parentheses), as
bench/virtual_time.py measures.

Usage (after scripts/build.sh; a few minutes on 2 cores):
  /usr/bin/python3 bench/moe_overlap.py
"""
import argparse
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "overlap"))
import collective_matmul  # noqa: E402
import moe  # noqa: E402
import virtual_time  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--T", type=int, default=128)
    parser.add_argument("--D", type=int, default=512)
    parser.add_argument("--F", type=int, default=512)
    parser.add_argument("--latency-us", type=float, default=20.0)
    parser.add_argument("--ratios", default="0.5,1,2")
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--invocations", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results",
                                                      "moe_overlap.md"))
    args = parser.parse_args()
    args.trellis_run = os.path.join(args.build_dir, "bin", "trellis-run")
    args.device = ""
    n, T, D, F = args.devices, args.T, args.D, args.F
    per_block = T * (D + F) * 4  # one dispatch and one combine block
    ratios = [float(r) for r in args.ratios.split(",")]
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        programs = {}
        for kind in ("alltoall", "pipelined"):
            programs[kind] = os.path.join(tmp, kind + ".mlir")
            moe.write(kind, n, T, D, F, programs[kind])
        chunked = ("spmd-chunk-all-to-all{chunks=%d threshold-bytes=0},"
                   "spmd-async-collectives{kinds=all}" % args.chunks)
        variants = {"alltoall": (programs["alltoall"], ""),
                    "pipelined": (programs["pipelined"], ""),
                    "chunked": (programs["alltoall"], chunked),
                    "overlap": (programs["alltoall"], ("--overlap",))}
        nolink = virtual_time.measure(args, {k: (p, passes, None, ())
                                             for k, (p, passes) in variants.items()})
        compute = nolink["alltoall"][0][0]
        links = {}
        for r in ratios:
            wire = r * compute * 1e3 / (n - 1) - 2 * args.latency_us
            if wire <= 0:
                sys.exit(f"ratio {r}: the latency alone exceeds the budget")
            links[r] = (args.latency_us, per_block / wire / 1e3)
        timed = virtual_time.measure(args, {(k, r): (p, passes, links[r], ())
                                            for r in ratios
                                            for k, (p, passes) in variants.items()})
    elapsed = time.time() - started
    expert_macs = n * T * D * F
    dispatch_macs = n * T * T * D
    all_macs = expert_macs + dispatch_macs + T * n * T * F
    lines = [
        f"## MoE block: all_to_all vs pipelined ppermutes vs chunked "
        f"all_to_alls in virtual time "
        f"({n} devices, T={T} tokens each, capacity {T}, D={D}, F={F}, f32)",
        "",
        f"Regenerate: `/usr/bin/python3 bench/moe_overlap.py` (after "
        f"`scripts/build.sh`; took {elapsed:.0f} s). trellis-run "
        f"--clock=virtual --warmup 1 --repeat {args.repeat}; medians of "
        f"{args.invocations} invocations, spread (max - min) / median in "
        f"parentheses. Latency {args.latency_us:g} us; bandwidth from the "
        "two all_to_alls' ring time = ratio x C. Host: "
        f"{collective_matmul.cpu_model()}, {os.cpu_count()} cores.",
        "",
        "No link model: " + ", ".join(
            f"{k} {v[0][0]:.4g} ms ({100 * v[0][1]:.1f}%)" for k, v in nolink.items())
        + f" (C = {compute:.4g} ms). The experts are "
        f"{100 * expert_macs / all_macs:.0f}% of the block's multiply-adds, "
        f"the dispatch {100 * dispatch_macs / all_macs:.0f}%, the combine "
        f"{100 * (all_macs - expert_macs - dispatch_macs) / all_macs:.0f}%. "
        f"pipelined: hand-written ppermute steps; chunked: the all_to_all "
        f"program with `--passes='{chunked}'`; --overlap: the all_to_all "
        f"program with `trellis-run --overlap` (the pass's defaults: "
        f"blocks of {T * D * 4 / 1024:g} KiB to each device "
        + (f"take {min(8, max(2, T * D * 4 // 65536))} chunks, lowered to "
           "a divisor of the capacity)." if T * D * 4 >= 65536 else
           "are under the 64 KiB threshold: not chunked)."),
        "",
        "| comm / compute | link GB/s | all_to_all ms | pipelined ms | "
        "chunked ms | bound | chunk bound | pipelined speedup | "
        "chunked speedup (of chunk bound) | chunked hidden | "
        "--overlap ms | --overlap speedup |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    # The first chunk's dispatch and the last chunk's combine cannot
    # overlap communication.
    unhidden = (all_macs - expert_macs) / all_macs * compute / args.chunks
    for r in ratios:
        bound = (r * compute + compute) / max(r * compute, compute)
        attainable = (r * compute + compute) / max(compute,
                                                    r * compute + unhidden)
        a, p, c, o = (timed[(k, r)] for k in ("alltoall", "pipelined",
                                               "chunked", "overlap"))
        lines.append(
            f"| {r:g}x | {links[r][1]:.3g} | {a[0][0]:.4g} ({100 * a[0][1]:.1f}%) | "
            f"{p[0][0]:.4g} ({100 * p[0][1]:.1f}%) | "
            f"{c[0][0]:.4g} ({100 * c[0][1]:.1f}%) | {bound:.2f}x | "
            f"{attainable:.2f}x | {a[0][0] / p[0][0]:.2f}x | "
            f"{a[0][0] / c[0][0]:.2f}x "
            f"({100 * a[0][0] / c[0][0] / attainable:.0f}%) | "
            f"{100 * c[1]:.0f}% | {o[0][0]:.4g} ({100 * o[0][1]:.1f}%) | "
            f"{a[0][0] / o[0][0]:.2f}x |")
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
