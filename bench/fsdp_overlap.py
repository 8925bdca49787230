#!/usr/bin/env python3
"""FSDP MLP: each layer's weight gather blocking, split in place, and
pipelined one layer ahead, in virtual time (issue 28, item 2).

bench/overlap/fsdp.py's program on N devices (B rows each, D features, L
layers). Compute C = the blocking program's virtual makespan with no link
model; for each ratio r the link bandwidth is solved from the L gathers'
ring time, L (n - 1) (latency + D/n D 4 / bandwidth) = r C. Four forms:
blocking (as written), in-place (spmd-async-collectives{kinds=all}: the
gather is split but each layer needs its own weights at once, so nothing
overlaps) and pipelined (spmd-pipeline-collectives: layer l+1's gather
runs during layer l); --overlap is trellis-run's flag, which should find
the pipelined form by itself. Bounds, from the modelled communication M = r C
and each run's own compute C' (its busiest device's; the host's CPU time
varies by a few percent between runs): max(M, C'), which the issue's
target refers to, and the pipeline's own, g + (L - 1) max(g, c) + c with
g = M / L and c = C' / L (the first gather and the last layer cannot
overlap anything).
Each figure: the median of --invocations trellis-run --clock=virtual
invocations (spread in parentheses), as bench/virtual_time.py measures.

--train measures a training step instead: loss_grad (trellis-grad) of
fsdp.py --train. It runs the forward loop twice (once for the loss, once
in the backward shard_map to recompute the residuals: trellis-grad does
not save a shard_map's residuals yet) and its backward loop gathers each
layer's weights again and reduce-scatters its weight gradient, so the
step communicates 4 L rings of the same bytes: M = 4 L (n - 1) (latency +
D/n D 4 / bandwidth) = r C. Pipelined there also defers each
reduce-scatter's wait to the next backward iteration. Only max(M, C') is
given as the bound.

Usage (after scripts/build.sh; a few minutes on 2 cores):
  /usr/bin/python3 bench/fsdp_overlap.py
  /usr/bin/python3 bench/fsdp_overlap.py --train
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "overlap"))
import collective_matmul  # noqa: E402
import fsdp  # noqa: E402
import virtual_time  # noqa: E402

FORMS = [
    ("blocking", ""),
    ("in-place", "spmd-async-collectives{kinds=all}"),
    ("pipelined", "spmd-pipeline-collectives"),
    ("--overlap", ("--overlap",)),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--devices", type=int, default=8)
    parser.add_argument("--B", type=int, default=64)
    parser.add_argument("--D", type=int, default=512)
    parser.add_argument("--L", type=int, default=32)
    parser.add_argument("--latency-us", type=float, default=2.0)
    parser.add_argument("--ratios", default="0.5,1,2")
    parser.add_argument("--invocations", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--train", action="store_true",
                        help="measure forward + backward (loss_grad)")
    parser.add_argument("--out", default="",
                        help="default: bench/results/fsdp_overlap[_train].md")
    args = parser.parse_args()
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "fsdp_overlap" +
                                ("_train" if args.train else "") + ".md")
    args.trellis_run = os.path.join(args.build_dir, "bin", "trellis-run")
    args.device = ""
    args.extra = ["--entry", "loss_grad"] if args.train else []
    rings = 4 if args.train else 1
    n, B, D, L = args.devices, args.B, args.D, args.L
    block = D // n * D * 4
    ratios = [float(r) for r in args.ratios.split(",")]
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        program = os.path.join(tmp, "fsdp.mlir")
        fsdp.write(n, B, D, L, program, args.train)
        if args.train:
            forward, program = program, os.path.join(tmp, "fsdp_grad.mlir")
            subprocess.run([os.path.join(args.build_dir, "bin", "trellis-opt"),
                            forward, "--trellis-grad", "-o", program],
                           check=True)
        nolink = virtual_time.measure(
            args, {name: (program, passes, None, ()) for name, passes in FORMS})
        compute = nolink["blocking"][0][0]
        links = {}
        for r in ratios:
            wire = r * compute * 1e3 / (rings * L * (n - 1)) - args.latency_us
            if wire <= 0:
                sys.exit(f"ratio {r}: the latency alone exceeds the budget")
            links[r] = (args.latency_us, block / wire / 1e3)
        timed = virtual_time.measure(
            args, {(name, r): (program, passes, links[r], ())
                   for r in ratios for name, passes in FORMS})
    elapsed = time.time() - started
    what = ("training step (loss_grad): weight gathers and gradient "
            "reduce-scatters" if args.train else "weight gathers")
    lines = [
        f"## FSDP MLP {what} blocking vs pipelined in virtual time "
        f"({n} devices, B={B} rows each, D={D}, L={L} layers, f32)",
        "",
        f"Regenerate: `/usr/bin/python3 bench/fsdp_overlap.py"
        f"{' --train' if args.train else ''}` (after "
        f"`scripts/build.sh`; took {elapsed:.0f} s). trellis-run "
        f"--clock=virtual --warmup 1 --repeat {args.repeat}; medians of "
        f"{args.invocations} invocations, spread (max - min) / median in "
        f"parentheses. Latency {args.latency_us:g} us; bandwidth from the "
        f"{rings * L} {'rings' if args.train else 'gathers'}' time = "
        f"ratio x C. Host: "
        f"{collective_matmul.cpu_model()}, {os.cpu_count()} cores.",
        "",
        "No link model: " + ", ".join(
            f"{k} {v[0][0]:.4g} ms ({100 * v[0][1]:.1f}%)"
            for k, v in nolink.items()) + f" (C = {compute:.4g} ms).",
        "",
        "| comm / compute | link GB/s | blocking ms | in-place ms | "
        "pipelined ms | max(M, C') | pipelined / max | pipeline bound "
        "| pipelined hidden | --overlap ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in ratios:
        b, i, p, o = (timed[(name, r)] for name, _ in FORMS)
        own = p[2]
        bound = max(r * compute, own)
        g, c = r * compute / L, own / L
        fill = g + (L - 1) * max(g, c) + c
        fill_text = "-" if args.train else f"{fill:.4g}"
        lines.append(
            f"| {r:g}x | {links[r][1]:.3g} | {b[0][0]:.4g} ({100 * b[0][1]:.1f}%) | "
            f"{i[0][0]:.4g} ({100 * i[0][1]:.1f}%) | "
            f"{p[0][0]:.4g} ({100 * p[0][1]:.1f}%) | {bound:.4g} | "
            f"{p[0][0] / bound:.3f} | {fill_text} | {100 * p[1]:.0f}% | "
            f"{o[0][0]:.4g} ({100 * o[0][1]:.1f}%) |")
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
