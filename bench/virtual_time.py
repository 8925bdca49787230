#!/usr/bin/env python3
"""Collective matmul in virtual time (trellis-run --clock=virtual).

Seed 003's FFN (bench/collective_matmul/ffn.mlir.in) on a 1x8 mesh, written
naively and rewritten by spmd-collective-matmul (uni- and bidirectional,
and in 2 row blocks), timed by the devices' virtual clocks: compute by each
thread's CPU time, communication by the link model (docs/Interconnect.md).
Unlike bench/collective_matmul.py (wall clock), the figures do not depend
on how many cores the host has.

Calibration: compute C = the naive program's virtual makespan with no link
model; for each ratio r the link bandwidth is solved from the naive
program's ring communication 2 (n - 1) (latency + chunk / bandwidth) = r C.
The overlap bound is (r C + C) / max(r C, C).

Every figure is the median of --invocations trellis-run invocations (each
reporting the makespan of a run that replays every compute segment at its
fastest over --repeat runs), with the spread (max - min) / median. A second
table measures the naive and bidirectional programs at 1x on both cores,
on one (taskset -c 0) and beside a busy loop.

With --program fsdp the program is a fully sharded layer's weight gather
instead (bench/collective_matmul/fsdp_gather.mlir.in: x[B@Y, D] @
all_gather(W[D@Y, F]), the rhs-contracting form, no microbatched
variants; its naive ring communication is (n - 1) (latency + chunk /
bandwidth)).

With --device NAME (a trellis-run device profile: matmuls at their
roofline time, other compute scaled) the programs run as a dry run on that
chip, the ratios are set the same way, and one more row uses the profile's
own links.

Usage (after scripts/build.sh; about 10 minutes on 2 cores, 3 with
--device):
  /usr/bin/python3 bench/virtual_time.py
  /usr/bin/python3 bench/virtual_time.py --device tpu-v5e --latency-us 1
  /usr/bin/python3 bench/virtual_time.py --quick     # smoke run
  /usr/bin/python3 bench/virtual_time.py --program fsdp   # about 3 minutes
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import collective_matmul  # noqa: E402  (the FFN template's generator)

VARIANTS = [
    ("naive", ""),
    ("uni", "spmd-collective-matmul"),
    ("bidir", "spmd-collective-matmul{bidirectional}"),
    ("uni-mb2", "spmd-collective-matmul{microbatches=2}"),
    ("bidir-mb2", "spmd-collective-matmul{bidirectional microbatches=2}"),
]


def invoke(args, program, passes, link, prefix=()):
    """One trellis-run invocation: its reported makespan (ms), the share of
    communication hidden behind compute and the busiest device's compute
    (ms)."""
    report = os.path.join(args.tmp, "clocks.json")
    cmd = list(prefix) + [args.trellis_run, program, "--random", "1", "--quiet",
                          "--clock=virtual", "--clock-report", report,
                          "--warmup", "1", "--repeat", str(args.repeat)]
    if args.device:
        cmd += ["--device", args.device, "--dry-run"]
    else:
        cmd += ["--output-dir", os.path.join(args.tmp, "out")]
    if isinstance(passes, tuple):
        cmd += list(passes)  # trellis-run flags, e.g. ("--overlap",)
    elif passes:
        cmd += ["--passes", passes]
    cmd += getattr(args, "extra", [])
    if link == "profile":
        pass  # the device profile's links
    elif link is None:
        cmd += ["--link-latency-us", "0", "--link-bandwidth-gbps", "0"]
    else:
        cmd += ["--link-latency-us", f"{link[0]:.6g}",
                "--link-bandwidth-gbps", f"{link[1]:.9g}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(report) as f:
        data = json.load(f)
    shown = data["replayed"] or sorted(
        data["runs"], key=lambda r: r["makespan_us"])[len(data["runs"]) // 2]
    compute = max(d["compute_us"] for d in shown["devices"]) / 1e3
    return shown["makespan_us"] / 1e3, shown["hidden_fraction"], compute


def summary(values):
    s = sorted(values)
    mid = s[len(s) // 2]
    return mid, (s[-1] - s[0]) / mid


def measure(args, configs):
    """configs: {key: (program, passes, link, prefix)}; every configuration
    once per round, interleaved, for --invocations rounds."""
    got = {key: [] for key in configs}
    for _ in range(args.invocations):
        for key, (program, passes, link, prefix) in configs.items():
            got[key].append(invoke(args, program, passes, link, prefix))
    return {key: (summary([v[0] for v in vals]),
                  sorted(v[1] for v in vals)[len(vals) // 2],
                  sorted(v[2] for v in vals)[len(vals) // 2])
            for key, vals in got.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--program", choices=("ffn", "fsdp"), default="ffn")
    parser.add_argument("--B", type=int, default=0,
                        help="default 512 (ffn), 4096 (fsdp)")
    parser.add_argument("--D", type=int, default=0,
                        help="default 8192 (ffn), 2048 (fsdp)")
    parser.add_argument("--F", type=int, default=2048)
    parser.add_argument("--latency-us", type=float, default=20.0)
    parser.add_argument("--ratios", default="0.25,0.5,1,2")
    parser.add_argument("--invocations", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--device", default="",
                        help="a trellis-run --device profile (dry runs)")
    parser.add_argument("--out", default="",
                        help="default: bench/results/virtual_time[_DEVICE].md")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    fsdp = args.program == "fsdp"
    args.B = args.B or (4096 if fsdp else 512)
    args.D = args.D or (2048 if fsdp else 8192)
    if fsdp:
        del VARIANTS[3:]
    if args.quick:
        args.B, args.D, args.F, args.invocations = 128, 1024, 512, 2
        if fsdp:
            args.B, args.D = 1024, 512
        args.latency_us = 1.0
        for i in range(1, len(VARIANTS)):
            name, passes = VARIANTS[i]
            VARIANTS[i] = (name, passes.replace("matmul{", "matmul{force ")
                           if "{" in passes else passes + "{force}")
    args.trellis_run = os.path.join(args.build_dir, "bin", "trellis-run")
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "virtual_time" +
                                ("_fsdp" if fsdp else "") +
                                (f"_{args.device}" if args.device else "") + ".md")
    args.mesh = (1, 8)
    n = 8
    # The bytes of one chunk, and how many chunks the naive program's rings
    # send one after the other (all_gather and psum_scatter for the FFN).
    chunk = (args.D // n) * (args.F if fsdp else args.B) * 4
    steps = (n - 1) if fsdp else 2 * (n - 1)
    ratios = [float(r) for r in args.ratios.split(",")]
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        program = os.path.join(tmp, args.program + ".mlir")
        collective_matmul.generate(
            args, program, "fsdp_gather.mlir.in" if fsdp else "ffn.mlir.in")
        nolink = measure(args, {name: (program, passes, None, ())
                                for name, passes in VARIANTS})
        compute = nolink["naive"][0][0]
        print("no link model: " + ", ".join(
            f"{k} {v[0][0]:.4g} ms" for k, v in nolink.items()), flush=True)
        links = {}
        for r in ratios:
            wire = r * compute * 1e3 / steps - args.latency_us
            if wire <= 0:
                sys.exit(f"ratio {r}: the latency alone exceeds the budget")
            links[r] = (args.latency_us, chunk / wire / 1e3)
        timed = measure(args, {(name, r): (program, passes, links[r], ())
                               for r in ratios for name, passes in VARIANTS})
        own = measure(args, {name: (program, passes, "profile", ())
                             for name, passes in VARIANTS}) if args.device else None
        hosts = {}
        for name, passes in ((VARIANTS[0], VARIANTS[2]) if not args.device else ()):
            for label, prefix in (("both cores", ()),
                                  ("taskset -c 0", ("taskset", "-c", "0"))):
                hosts[(name, label)] = measure(
                    args, {0: (program, passes, links[1.0] if 1.0 in links
                               else links[ratios[0]], prefix)})[0]
            busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            try:
                hosts[(name, "beside a busy loop")] = measure(
                    args, {0: (program, passes, links[1.0] if 1.0 in links
                               else links[ratios[0]], ())})[0]
            finally:
                busy.kill()
                busy.wait()
    elapsed = time.time() - started

    names = [name for name, _ in VARIANTS]
    lines = [
        (f"## A fully sharded layer's weight gather (FSDP) in virtual time, 1x8 "
         f"mesh (x[B@Y, D] @ all_gather(W[D@Y, F]); B={args.B}, D={args.D}, "
         f"F={args.F})" if fsdp else
         f"## Seed 003 FFN in virtual time, 1x8 mesh (B={args.B}, D={args.D}, F={args.F})")
        + (f", on {args.device} (dry runs)" if args.device else ""),
        "",
        f"Regenerate: `/usr/bin/python3 bench/virtual_time.py"
        f"{' --program fsdp' if fsdp else ''}"
        f"{' --quick' if args.quick else ''}"
        f"{f' --device {args.device} --latency-us {args.latency_us:g}' if args.device else ''}` (after "
        f"`scripts/build.sh`; took {elapsed:.0f} s). trellis-run "
        f"--clock=virtual --warmup 1 --repeat {args.repeat} (one device "
        "computes at a time; the makespan is that of a run replaying each "
        "compute segment at its fastest over the repeats); every figure is "
        f"the median of {args.invocations} invocations, with the spread "
        "(max - min) / median in parentheses. Links: latency "
        f"{args.latency_us:g} us per hop, bandwidth set so that the naive "
        "program's ring communication is the ratio times its compute "
        f"(naive with no link model: C = {compute:.4g} ms). Host: "
        f"{collective_matmul.cpu_model()}, {os.cpu_count()} cores.",
        "",
        "No link model (virtual compute only): " + ", ".join(
            f"{k} {v[0][0]:.4g} ms ({100 * v[0][1]:.1f}%)" for k, v in nolink.items()) + ".",
        "",
        "| comm / compute | link GB/s | " + " | ".join(f"{k} ms" for k in names) +
        " | bound | " + " | ".join(f"{k} speedup (of bound)" for k in names[1:]) +
        " | " + " | ".join(f"{k} hidden" for k in names[1:]) + " |",
        "|---" * (2 + len(names) + 1 + 2 * (len(names) - 1)) + "|",
    ]
    for r in ratios:
        bound = (r * compute + compute) / max(r * compute, compute)
        naive = timed[("naive", r)][0][0]
        cells = [f"{r:g}x", f"{links[r][1]:.3g}"]
        cells += [f"{timed[(k, r)][0][0]:.4g} ({100 * timed[(k, r)][0][1]:.1f}%)"
                  for k in names]
        cells.append(f"{bound:.2f}x")
        cells += [f"{naive / timed[(k, r)][0][0]:.2f}x "
                  f"({100 * naive / timed[(k, r)][0][0] / bound:.0f}%)"
                  for k in names[1:]]
        cells += [f"{100 * timed[(k, r)][1]:.0f}%" for k in names[1:]]
        lines.append("| " + " | ".join(cells) + " |")
    if own:
        naive = own["naive"][0][0]
        lines += ["", f"With {args.device}'s own links: " + ", ".join(
            f"{k} {v[0][0]:.4g} ms ({100 * v[0][1]:.1f}%)" +
            (f", {naive / v[0][0]:.2f}x" if k != "naive" else "")
            for k, v in own.items()) + "."]
    if not hosts:
        text = "\n".join(lines) + "\n"
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
        print(text)
        return
    lines += [
        "",
        "Determinism at 1x: the same invocations on both cores, on one core "
        "and beside a busy loop (a Python `while True` on the host):",
        "",
        "| program | both cores ms | taskset -c 0 ms | beside a busy loop ms | "
        "largest difference from both cores |",
        "|---|---|---|---|---|",
    ]
    for name in ("naive", "bidir"):
        base = hosts[(name, "both cores")][0][0]
        vals = [hosts[(name, label)][0] for label in
                ("both cores", "taskset -c 0", "beside a busy loop")]
        worst = max(abs(v[0] - base) / base for v in vals)
        lines.append(f"| {name} | " + " | ".join(
            f"{v[0]:.4g} ({100 * v[1]:.1f}%)" for v in vals) +
            f" | {100 * worst:.1f}% |")
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
