#!/usr/bin/env python3
"""Collective matmul vs all-gather/reduce-scatter + matmul on seed 003's FFN.

Runs the FFN block of seed 003 (In[B@X, D@Y] -> all_gather + matmul -> gelu
-> matmul + psum_scatter -> Out[B@X, D@Y]) on a simulated mesh with
trellis-run, as written ("naive") and rewritten by spmd-collective-matmul
(unidirectional and bidirectional), with the modelled interconnect set so
that the naive program's communication takes 0.25x, 0.5x, 1x and 2x its
compute time, and without a link model. Writes a Markdown table, a CSV and
an SVG plot, and renders traces of one run of each program at 1x.

Calibration: this host has few cores and every device is a thread, so
"compute time" is what the naive program takes with no link model on this
host (all devices' compute sharing the cores), measured first. The modelled
communication of the naive program is that of ring algorithms: its
all_gather and its psum_scatter each take (n - 1) * (latency + chunk /
bandwidth), so for a ratio r the bandwidth is solved from
2 (n - 1) (latency + chunk / bandwidth) = r * compute.

The overlap bound is (comm + compute) / max(comm, compute): the speedup of a
perfect overlap of the naive program's communication and compute.

Usage (from the repository root, after scripts/build.sh):
  /usr/bin/python3 bench/collective_matmul.py            # a few minutes
  /usr/bin/python3 bench/collective_matmul.py --quick    # a smoke run
Only the Python standard library is used.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = [
    ("naive", ""),
    ("uni", "spmd-collective-matmul"),
    ("bidir", "spmd-collective-matmul{bidirectional}"),
]


def generate(args, path, template="ffn.mlir.in"):
    x, y = args.mesh
    sizes = {"X": x, "Y": y, "B": args.B, "D": args.D, "F": args.F,
             "BX": args.B // x, "BY": args.B // y, "DY": args.D // y,
             "FY": args.F // y}
    with open(os.path.join(ROOT, "bench", "collective_matmul", template)) as f:
        text = f.read()
    # Longest names first: @BX@ before @B@.
    for key in sorted(sizes, key=len, reverse=True):
        text = text.replace(f"@{key}@", str(sizes[key]))
    with open(path, "w") as f:
        f.write(text)


def cpu_busy_seconds():
    """CPU time (all processes) the host has spent busy since boot."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def run(args, program, passes, link=None, trace=None):
    """Median and min wall time (ms) of --repeat runs. An invocation during
    which other processes used a noticeable share of the CPU is repeated
    (up to 10 times): a concurrent build skews every number."""
    for attempt in range(10):
        busy, ours = cpu_busy_seconds(), os.times()
        wall = time.time()
        result = run_once(args, program, passes, link, trace)
        wall = time.time() - wall
        after = os.times()
        ours = (after.children_user + after.children_system -
                ours.children_user - ours.children_system)
        others = cpu_busy_seconds() - busy - ours
        if others < 0.1 * wall * (os.cpu_count() or 1):
            return result
        args.disturbed += 1
        time.sleep(5)
    return result


def run_once(args, program, passes, link=None, trace=None):
    """Median and min wall time (ms) of --repeat runs."""
    cmd = [args.trellis_run, program, "--random", "1", "--output-dir",
           os.path.join(args.tmp, "out"), "--repeat", str(args.repeat),
           "--warmup", str(args.warmup), "--compute-slots", str(args.slots)]
    # A variant's passes may carry trellis-run flags after a '|'.
    passes, *flags = passes.split("|")
    if passes:
        cmd += ["--passes", passes]
    cmd += flags
    if link:
        cmd += ["--link-latency-us", f"{link[0]:.6g}",
                "--link-bandwidth-gbps", f"{link[1]:.9g}"]
    if trace:
        cmd += ["--trace", trace]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{result.stderr}")
    m = re.search(r"median ([0-9.]+) ms, min ([0-9.]+) ms", result.stderr)
    if not m:
        sys.exit(f"no timing in the output of {' '.join(cmd)}:\n{result.stderr}")
    return float(m.group(1)), float(m.group(2))


def measure(args, configs):
    """configs: [(key, program, passes, link)]. Runs every configuration
    once per round (--repeat each), for --rounds rounds; returns key ->
    (median over rounds of each round's median, min over all runs)."""
    results = {key: [] for key, _, _, _ in configs}
    for _ in range(args.rounds):
        for key, program, passes, link in configs:
            results[key].append(run(args, program, passes, link))
    summary = {}
    for key, values in results.items():
        medians = sorted(v[0] for v in values)
        summary[key] = (medians[len(medians) // 2], min(v[1] for v in values))
    return summary


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def huge_pages(args):
    """Whether trellis-run backs malloc's heaps with huge pages here (it
    re-executes itself with glibc tunables; docs/Design.md)."""
    result = subprocess.run(
        [args.trellis_run, os.path.join(ROOT, "examples", "seeds", "ffn_naive.mlir"),
         "--quiet", "--print-process-setup", "--output-dir",
         os.path.join(args.tmp, "setup")],
        capture_output=True, text=True)
    m = re.search(r"re-executed with malloc tunables: (yes|no)", result.stderr)
    return m.group(1) if m else "unknown"


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def plot(rows, path, title):
    """Speedup over naive vs communication/compute ratio, with the bound."""
    w, h, left, bottom, top, right = 640, 400, 60, 50, 40, 150
    xs = [r["ratio"] for r in rows]
    ymax = max(max(v for k, v in r.items() if k == "bound" or k in
                   ("uni", "bidir") or ("-mb" in k and not k.endswith("ms")))
               for r in rows) * 1.1
    ymin = 0.0

    def px(i):
        return left + (i + 0.5) / len(xs) * (w - left - right)

    def py(v):
        return top + (1 - (v - ymin) / (ymax - ymin)) * (h - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           'font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="20" font-size="13" font-weight="bold">{title}</text>',
           f'<line x1="{left}" y1="{py(ymin)}" x2="{w - right}" y2="{py(ymin)}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{py(ymin)}" stroke="black"/>']
    v = 0.0
    while v <= ymax:
        out.append(f'<line x1="{left}" y1="{py(v):.1f}" x2="{w - right}" y2="{py(v):.1f}" '
                   'stroke="#dddddd"/>')
        out.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.1f}x</text>')
        v += 0.5
    for i, x in enumerate(xs):
        out.append(f'<text x="{px(i):.1f}" y="{py(ymin) + 18:.1f}" '
                   f'text-anchor="middle">{x:g}x</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 10}" text-anchor="middle">'
               'modelled communication / compute (naive program)</text>')
    series = [("bound", "#444444", "overlap bound", "6,4"),
              ("uni", "#1f5fa8", "unidirectional", ""),
              ("bidir", "#e69f00", "bidirectional", "")]
    colours = ["#2a9d8f", "#9b59b6", "#7f8c8d", "#d35400"]
    for i, key in enumerate(k for k in rows[0] if "-mb" in k and not k.endswith("ms")):
        series.append((key, colours[i % len(colours)], key, "2,2"))
    for key, colour, label, dash in series:
        pts = " ".join(f"{px(i):.1f},{py(r[key]):.1f}" for i, r in enumerate(rows))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                   f'stroke-width="2" stroke-dasharray="{dash}"/>')
        for i, r in enumerate(rows):
            out.append(f'<circle cx="{px(i):.1f}" cy="{py(r[key]):.1f}" r="3" fill="{colour}"/>')
    out.append(f'<line x1="{left}" y1="{py(1):.1f}" x2="{w - right}" y2="{py(1):.1f}" '
               'stroke="#c0392b" stroke-width="1"/>')
    ly = top + 10
    for key, colour, label, dash in series + [("", "#c0392b", "naive (1x)", "")]:
        out.append(f'<line x1="{w - right + 10}" y1="{ly}" x2="{w - right + 34}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>')
        out.append(f'<text x="{w - right + 40}" y="{ly + 4}">{label}</text>')
        ly += 18
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--mesh", default="1x8", help="X x Y mesh (default 1x8)")
    parser.add_argument("--B", type=int, default=512)
    parser.add_argument("--D", type=int, default=8192)
    parser.add_argument("--F", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=5,
                        help="every configuration runs once per round")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs per trellis-run invocation")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--slots", type=int, default=0,
                        help="--compute-slots for trellis-run (default 0: the OS "
                        "time-slices all device threads over the cores)")
    parser.add_argument("--latency-us", type=float, default=20.0)
    parser.add_argument("--ratios", default="0.25,0.5,1,2")
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "bench", "results"))
    parser.add_argument("--no-traces", dest="traces", action="store_false",
                        help="skip the trace SVGs of each program at 1x")
    parser.add_argument("--picture",
                        default=os.path.join(ROOT, "docs", "images",
                                             "collective-matmul-trace.svg"),
                        help="where to copy the trace of the bidirectional "
                        "rewrite at 1x (the picture in docs/)")
    parser.add_argument("--wait-idle", type=float, default=0.5, metavar="LOAD",
                        help="first wait until the 1-minute load average is "
                        "below LOAD (0: do not wait)")
    parser.add_argument("--microbatches", default="2",
                        help="comma-separated row-block counts k: adds "
                        "uni-mbk and bidir-mbk, the rewrite with "
                        "microbatches=k (empty: none)")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and few repeats (a smoke run)")
    args = parser.parse_args()
    for k in [int(v) for v in args.microbatches.split(",") if v]:
        VARIANTS.append((f"uni-mb{k}", f"spmd-collective-matmul{{microbatches={k}}}"))
        VARIANTS.append((f"bidir-mb{k}",
                         f"spmd-collective-matmul{{bidirectional microbatches={k}}}"))
    if args.quick:
        # Small enough to be under the pass's size threshold: force it.
        args.B, args.D, args.F, args.rounds = 128, 512, 512, 1
        VARIANTS[1:] = [(name, passes.replace("matmul{", "matmul{force ")
                         if "{" in passes else passes + "{force}")
                        for name, passes in VARIANTS[1:]]
    args.mesh = tuple(int(v) for v in args.mesh.split("x"))
    args.disturbed = 0
    args.trellis_run = os.path.join(args.build_dir, "bin", "trellis-run")
    os.makedirs(args.out_dir, exist_ok=True)
    ratios = [float(r) for r in args.ratios.split(",")]
    x, y = args.mesh
    n = y
    chunk_bytes = (args.B // x) * (args.D // y) * 4

    if args.wait_idle:
        # Another build or benchmark on this host skews every number: wait
        # (up to 20 minutes) for the load to settle first.
        deadline = time.time() + 1200
        while loadavg() > args.wait_idle and time.time() < deadline:
            time.sleep(15)

    with tempfile.TemporaryDirectory() as tmp:
        args.tmp = tmp
        program = os.path.join(tmp, "ffn.mlir")
        generate(args, program)
        loads = [loadavg()]
        started = time.time()

        # Compute time: the programs with no link model.
        nolink = measure(args, [((name, None), program, passes, None)
                                for name, passes in VARIANTS])
        nolink = {name: v for (name, _), v in nolink.items()}
        compute = nolink["naive"][0]
        print(f"no link model: " + ", ".join(
            f"{k} {v[0]:.1f} ms" for k, v in nolink.items()), flush=True)

        # Then every link speed, all configurations interleaved round by
        # round so that a disturbance of the host hits them alike.
        links = {}
        for ratio in ratios:
            comm = ratio * compute
            wire_us = comm * 1e3 / (2 * (n - 1)) - args.latency_us
            if wire_us <= 0:
                sys.exit(f"ratio {ratio}: the latency alone exceeds the budget")
            links[ratio] = (args.latency_us, chunk_bytes / wire_us / 1e3)
        times = measure(args, [((name, ratio), program, passes, links[ratio])
                               for ratio in ratios for name, passes in VARIANTS])
        loads.append(loadavg())
        rows = []
        for ratio in ratios:
            comm = ratio * compute
            row = {"ratio": ratio, "comm_ms": comm, "compute_ms": compute,
                   "bandwidth_gbps": links[ratio][1],
                   "bound": (comm + compute) / max(comm, compute)}
            for name, _ in VARIANTS:
                row[name + "_ms"], row[name + "_min_ms"] = times[(name, ratio)]
            for name, _ in VARIANTS[1:]:
                row[name] = row["naive_ms"] / row[name + "_ms"]
            rows.append(row)
            print(f"{ratio:g}x: comm {comm:.1f} ms (bandwidth {links[ratio][1]:.4g} GB/s): " +
                  ", ".join(f"{k} {row[k + '_ms']:.1f} ms" for k, _ in VARIANTS) +
                  "; speedup " + ", ".join(f"{k} {row[k]:.2f}x" for k, _ in VARIANTS[1:]) +
                  f", bound {row['bound']:.2f}x", flush=True)

        # Below the size threshold: a small FFN where the rewrite does not
        # pay; the pass with its default threshold leaves it alone.
        small = None
        if not args.quick:
            saved = args.B, args.D, args.F
            args.B, args.D, args.F = 64, 1024, 256
            small_program = os.path.join(tmp, "ffn_small.mlir")
            generate(args, small_program)
            small_chunk = (args.B // x) * (args.D // y) * 4
            small_compute = measure(args, [("c", small_program, "", None)])["c"][0]
            wire_us = 0.25 * small_compute * 1e3 / (2 * (n - 1)) - args.latency_us
            link = (args.latency_us, small_chunk / max(wire_us, 0.001) / 1e3)
            small = measure(args, [
                ("naive", small_program, "", link),
                ("default", small_program, "spmd-collective-matmul", link),
                ("forced", small_program, "spmd-collective-matmul{force}", link)])
            small.update({"sizes": (args.B, args.D, args.F),
                          "gathered_bytes": (args.B // x) * args.D * 4,
                          "compute": small_compute})
            args.B, args.D, args.F = saved
            print(f"small FFN at 0.25x: naive {small['naive'][0]:.2f} ms, default "
                  f"{small['default'][0]:.2f} ms, forced {small['forced'][0]:.2f} ms",
                  flush=True)

        if args.traces:
            ratio = 1.0
            comm = ratio * compute
            wire_us = comm * 1e3 / (2 * (n - 1)) - args.latency_us
            link = (args.latency_us, chunk_bytes / wire_us / 1e3)
            for name, passes in VARIANTS:
                trace = os.path.join(tmp, f"{name}.json")
                saved = args.repeat, args.warmup
                args.repeat, args.warmup = 2, 1
                run(args, program, passes, link, trace)
                args.repeat, args.warmup = saved
                subprocess.run([sys.executable,
                                os.path.join(ROOT, "scripts", "render-trace.py"),
                                trace, os.path.join(args.out_dir, f"trace-{name}-1x.svg"),
                                "--title", f"seed 003 FFN, {name}, "
                                f"comm = 1x compute, mesh {x}x{y}"], check=True)
                if name == "bidir" and args.picture and not args.quick:
                    os.makedirs(os.path.dirname(args.picture), exist_ok=True)
                    subprocess.run(
                        [sys.executable,
                         os.path.join(ROOT, "scripts", "render-trace.py"), trace,
                         args.picture, "--title",
                         "seed 003 FFN rewritten by spmd-collective-matmul "
                         "(bidirectional), 1x8 mesh, modelled links: naive "
                         "comm = 1x compute"], check=True)
        elapsed = time.time() - started

    # Outputs.
    name = "collective_matmul" + ("_quick" if args.quick else "")
    with open(os.path.join(args.out_dir, name + ".csv"), "w", newline="") as f:
        fields = (["ratio", "comm_ms", "compute_ms", "bandwidth_gbps"] +
                  [f"{k}{suffix}" for k, _ in VARIANTS for suffix in ("_ms", "_min_ms")] +
                  [k for k, _ in VARIANTS[1:]] + ["bound"])
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for r in rows:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v)
                             for k, v in r.items()})
    title = (f"seed 003 FFN on a {x}x{y} mesh (B={args.B}, D={args.D}, F={args.F})")
    plot(rows, os.path.join(args.out_dir, name + ".svg"), title)
    command = ("/usr/bin/python3 bench/collective_matmul.py" +
               ("" if args.traces else " --no-traces") +
               (" --quick" if args.quick else "") +
               ("" if args.mesh == (1, 8) else f" --mesh {x}x{y}") +
               (f" --rounds {args.rounds}"
                if args.rounds != 5 and not args.quick else "") +
               (f" --microbatches {args.microbatches}"
                if args.microbatches != "2" else ""))
    lines = [
        f"## {title}",
        "",
        f"Regenerate: `{command}` (after `scripts/build.sh`; took {elapsed:.0f} s).",
        f"Each configuration: {args.rounds} rounds (interleaved with the others) "
        f"of trellis-run --compute-slots {args.slots} --repeat {args.repeat} "
        f"--warmup {args.warmup}; times in ms are the median over rounds of each "
        "round's median (min over all runs in parentheses).",
        f"Host: {cpu_model()}, {os.cpu_count()} cores for {x * y} device "
        "threads (" + ("they time-share the cores" if (os.cpu_count() or 1) < x * y
                       else "one core each, the transfer engine beside them")
        + "). Invocations during which other processes used "
        f"over 10% of the CPU were repeated ({args.disturbed} times). "
        f"malloc heaps on huge pages: {huge_pages(args)}.",
        "",
        "No link model (shared-memory copies only): "
        + ", ".join(f"{k} {v[0]:.1f} ({v[1]:.1f})" for k, v in nolink.items())
        + "; rewritten / naive: " + ", ".join(
            f"{k} {nolink['naive'][0] / nolink[k][0]:.2f}x" for k, _ in VARIANTS[1:]) + ".",
        "",
        "| comm / compute | link GB/s | naive | uni | bidir | speedup uni | "
        "speedup bidir | bound | uni / bound | bidir / bound | bidir bound (half traffic) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        half = (r["comm_ms"] + r["compute_ms"]) / max(r["comm_ms"] / 2, r["compute_ms"])
        lines.append(
            f"| {r['ratio']:g}x ({r['comm_ms']:.0f} ms) | {r['bandwidth_gbps']:.3g} | "
            f"{r['naive_ms']:.1f} ({r['naive_min_ms']:.1f}) | "
            f"{r['uni_ms']:.1f} ({r['uni_min_ms']:.1f}) | "
            f"{r['bidir_ms']:.1f} ({r['bidir_min_ms']:.1f}) | "
            f"{r['uni']:.2f}x | {r['bidir']:.2f}x | {r['bound']:.2f}x | "
            f"{100 * r['uni'] / r['bound']:.0f}% | {100 * r['bidir'] / r['bound']:.0f}% | "
            f"{half:.2f}x ({100 * r['bidir'] / half:.0f}%) |")
    lines.append("")
    extra = [k for k, _ in VARIANTS[3:]]
    if extra:
        lines += [
            "Split into row blocks (`microbatches=k`: the FFN chain in k blocks of "
            "rows whose unrolled steps interleave), against the same naive runs:",
            "",
            "| comm / compute | " + " | ".join(extra) + " | " +
            " | ".join(f"speedup {k}" for k in extra) + " | " +
            " | ".join(f"{k} / bound" for k in extra) + " |",
            "|---|" + "---|" * (3 * len(extra))]
        for r in rows:
            lines.append(
                f"| {r['ratio']:g}x | " +
                " | ".join(f"{r[k + '_ms']:.1f} ({r[k + '_min_ms']:.1f})" for k in extra) +
                " | " + " | ".join(f"{r[k]:.2f}x" for k in extra) + " | " +
                " | ".join(f"{100 * r[k] / r['bound']:.0f}%" for k in extra) + " |")
        lines.append("")
    if small:
        b, d, f_ = small["sizes"]
        lines += [
            f"Below the threshold: the same FFN with B={b}, D={d}, F={f_} (the "
            f"gathered operand is {small['gathered_bytes'] // 1024} KiB, under the "
            "default `threshold-bytes` of 1 MiB) at 0.25x: naive "
            f"{small['naive'][0]:.2f} ms, `spmd-collective-matmul` (default "
            f"threshold, does not fire) {small['default'][0]:.2f} ms, with `force` "
            f"{small['forced'][0]:.2f} ms "
            f"({small['naive'][0] / small['forced'][0]:.2f}x of naive).",
            ""]
    with open(os.path.join(args.out_dir, name + ".md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
