#!/usr/bin/env python3
"""Training with trellis-grad: bytes, step time, and the loss curve.

1. Bytes per device (trellis-comm-report after partitioning) of the MLP
   loss of examples/training/mlp_dp_tp.mlir, forward alone and forward +
   backward (@loss_grad), against the hand-written optimum for its
   backward pass: one all-reduce over "data" per parameter gradient, no
   all-reduce over "model" and none of a scalar.
2. Time of @loss_grad against @loss (trellis-run --repeat, medians, in one
   run), for the example's sizes and for a wider MLP (same program,
   dimensions x SCALE), partitioned on the 2x4 mesh. The usual goal: a
   training step (forward + backward) at most 3.5x the forward.
3. Bytes per device of the backward passes of two shard_map programs
   (test/Autodiff/shard-map.mlir: the seed's data-parallel loss on 8
   devices, a DP x TP MLP on 2x4) built with seed 001's efficient
   transposes against the naive ones (trellis-grad naive=true: JAX before
   device-variance types), and of the transformer block example.
4. The loss per step of the example's 200 SGD steps, partitioned on 8
   devices and unpartitioned on 1 (trellis-strip-shardings), plotted on the
   same axes as an SVG (docs/images/mlp_loss_curve.svg), with the largest
   relative difference between the two curves.

Usage: bench/training.py [--build-dir build] [--svg PATH] [--repeat N]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "examples", "training", "mlp_dp_tp.mlir")


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return r


def loss_only(text, scale):
    """The example's @loss (and mesh), dimensions multiplied by `scale`."""
    start = text.index("trellis.mesh")
    end = text.index("// Filled in by trellis-grad")
    body = text[start:end]
    if scale != 1:
        def grow(m):
            dims = [str(int(d) * scale) for d in m.group(1).split("x")]
            return "tensor<" + "x".join(dims) + "xf32>"
        body = re.sub(r"tensor<([0-9x]+?)xf32>", grow, body)
        body = body.replace("dense<256.0>", f"dense<{256.0 * scale * scale}>")
    return body


def parse_report(text):
    """Per function: (collectives, bytes per device) and the op lines."""
    totals, lines, current = {}, {}, None
    for line in text.splitlines():
        m = re.match(r"// comm @(\w+)", line)
        if m:
            current = m.group(1)
            lines[current] = []
            continue
        m = re.match(r"//   total: (\d+) collectives?, (\d+) B per device", line)
        if m and current:
            totals[current] = (int(m.group(1)), int(m.group(2)))
        elif current and line.startswith("//   loc"):
            lines[current].append(line.split(") ", 1)[1])
    return totals, lines


def comm_totals(opt, path):
    """trellis-comm-report of the partitioned global-view program."""
    part = sh([opt, path, "--trellis-global-to-manual"]).stdout
    r = sh([opt, "--trellis-comm-report", "-o", os.devnull], input=part)
    return parse_report(r.stdout + r.stderr)


def comm_totals_manual(opt, path):
    """trellis-comm-report of a program whose collectives are written."""
    r = sh([opt, path, "--trellis-comm-report", "-o", os.devnull])
    return parse_report(r.stdout + r.stderr)


def median_ms(run, path, entry, repeat):
    out = sh([run, path, "--entry", entry, "--random", "1", "--repeat",
              str(repeat), "--warmup", "3", "--output-dir",
              tempfile.mkdtemp()]).stderr
    m = re.search(r"median ([0-9.]+) ms", out)
    return float(m.group(1))


def svg(curves, path):
    w, h, pad = 640, 360, 50
    n = max(len(c) for _, c, _ in curves)
    hi = max(float(np.max(c)) for _, c, _ in curves)
    lo = min(float(np.min(c)) for _, c, _ in curves)
    ly = lambda v: pad + (h - 2 * pad) * (1 - (np.log10(v) - np.log10(lo)) /
                                          (np.log10(hi) - np.log10(lo)))
    lx = lambda i: pad + (w - 2 * pad) * i / (n - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">'
           f'examples/training/mlp_dp_tp.mlir: loss per SGD step</text>',
           f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" '
           f'stroke="black"/>',
           f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" '
           f'stroke="black"/>',
           f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">step</text>',
           f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" '
           f'text-anchor="middle">loss (log scale)</text>']
    for i in range(0, n, 50):
        out.append(f'<text x="{lx(i)}" y="{h - pad + 16}" '
                   f'text-anchor="middle">{i}</text>')
    for e in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1):
        v = 10.0 ** e
        if lo <= v <= hi:
            out.append(f'<text x="{pad - 6}" y="{ly(v) + 4}" '
                       f'text-anchor="end">{v:g}</text>')
    for k, (label, c, style) in enumerate(curves):
        pts = " ".join(f"{lx(i):.1f},{ly(v):.1f}" for i, v in enumerate(c))
        out.append(f'<polyline points="{pts}" fill="none" {style}/>')
        out.append(f'<line x1="{w - 230}" y1="{pad + 10 + 18 * k}" '
                   f'x2="{w - 200}" y2="{pad + 10 + 18 * k}" {style}/>')
        out.append(f'<text x="{w - 195}" y="{pad + 14 + 18 * k}">{label}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--svg", default=os.path.join(ROOT, "docs", "images",
                                                 "mlp_loss_curve.svg"))
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--scale", type=int, default=8)
    a = p.parse_args()
    opt = os.path.join(a.build_dir, "bin", "trellis-opt")
    run = os.path.join(a.build_dir, "bin", "trellis-run")
    tmp = tempfile.mkdtemp()
    text = open(EXAMPLE).read()

    print("## Bytes per device, 2x4 mesh (trellis-comm-report)\n")
    src = os.path.join(tmp, "loss.mlir")
    with open(src, "w") as f:
        f.write(loss_only(text, 1))
    grad = os.path.join(tmp, "grad.mlir")
    sh([opt, src, "--trellis-grad", "-o", grad])
    totals, lines = comm_totals(opt, grad)
    fwd, both = totals["loss"], totals["loss_grad"]
    # The optimum backward: an all-reduce over "data" (2 devices: 2(n-1)/n
    # = 1x the buffer) of each parameter's local gradient block.
    optimum = 4 * (16 * 16 + 16 + 16 * 8)
    print("| program | collectives | bytes per device |")
    print("|---|---|---|")
    print(f"| forward (@loss) | {fwd[0]} | {fwd[1]} |")
    print(f"| forward + backward (@loss_grad) | {both[0]} | {both[1]} |")
    print(f"| backward alone | {both[0] - fwd[0]} | {both[1] - fwd[1]} |")
    print(f"| hand-written backward: 3 gradient all-reduces over data | 3 | "
          f"{optimum} |")
    print("\n@loss_grad's collectives:")
    for line in lines["loss_grad"]:
        print("    " + line)

    print(f"\n## Time of forward + backward vs forward, 2x4 mesh "
          f"(medians of {a.repeat})\n")
    print("| sizes | @loss ms | @loss_grad ms | ratio |")
    print("|---|---|---|---|")
    for scale in (1, a.scale):
        src = os.path.join(tmp, f"loss{scale}.mlir")
        with open(src, "w") as f:
            f.write(loss_only(text, scale))
        grad = os.path.join(tmp, f"grad{scale}.mlir")
        sh([opt, src, "--trellis-grad", "-o", grad])
        tf = median_ms(run, grad, "loss", a.repeat)
        tg = median_ms(run, grad, "loss_grad", a.repeat)
        dims = f"x {32 * scale}x{16 * scale}, w1 {16 * scale}x{64 * scale}"
        print(f"| {dims} | {tf:.3f} | {tg:.3f} | {tg / tf:.2f} |")

    print("\n## shard_map backward passes: efficient vs naive transposes\n")
    shard_maps = os.path.join(ROOT, "test", "Autodiff", "shard-map.mlir")
    print("| program | forward B | efficient fwd+bwd B | naive fwd+bwd B |")
    print("|---|---|---|---|")
    per_mode = {}
    for mode in ("false", "true"):
        out = os.path.join(tmp, f"sm-{mode}.mlir")
        sh([opt, shard_maps, f"--trellis-grad=naive={mode}", "-o", out])
        per_mode[mode] = comm_totals_manual(opt, out)
    for name in ("dp_loss", "mlp_2d"):
        t_eff, l_eff = per_mode["false"]
        t_naive, l_naive = per_mode["true"]
        print(f"| {name} | {t_eff[name][1]} | {t_eff[name + '_grad'][1]} | "
              f"{t_naive[name + '_grad'][1]} |")
    for mode, label in (("false", "efficient"), ("true", "naive")):
        print(f"\n@dp_loss_grad's collectives ({label}):")
        for line in per_mode[mode][1]["dp_loss_grad"]:
            print("    " + line)

    print("\n## Transformer block example: bytes per device, 2x4\n")
    tb = os.path.join(tmp, "tb.mlir")
    sh([opt, os.path.join(ROOT, "examples", "training",
                          "transformer_block.mlir"),
        "--trellis-import-stablehlo", "--inline",
        "--trellis-grad=funcs=main wrt=1,2,3,4,5,6,7,8", "-o", tb])
    # The gradient is private (the training loop calls it); make it public
    # so that partitioning does not inline it away.
    text_tb = open(tb).read().replace("func.func private @main_grad(",
                                      "func.func @main_grad(")
    open(tb, "w").write(text_tb)
    totals, lines = comm_totals(opt, tb)
    print(f"forward (@main): {totals['main'][0]} collectives, "
          f"{totals['main'][1]} B; forward + backward (@main_grad): "
          f"{totals['main_grad'][0]} collectives, {totals['main_grad'][1]} B")
    for line in lines["main_grad"]:
        print("    " + line)

    print("\n## Loss curve: 200 steps, 8 devices vs 1 device\n")
    full = os.path.join(tmp, "train.mlir")
    sh([opt, EXAMPLE, "--trellis-grad", "-o", full])
    one = os.path.join(tmp, "train1.mlir")
    sh([opt, full, "--trellis-strip-shardings", "-o", one])
    curves = []
    for path, tag in ((full, "8"), (one, "1")):
        d = os.path.join(tmp, "out" + tag)
        sh([run, path, "--entry", "train", "--random", "1", "--output-dir", d,
            "--quiet"])
        curves.append(np.load(os.path.join(d, "out0.npy")).astype(np.float64))
    diff = float(np.max(np.abs(curves[0] - curves[1]) / np.abs(curves[1])))
    print(f"loss {curves[0][0]:.4g} -> {curves[0][-1]:.4g} (8 devices), "
          f"{curves[1][0]:.4g} -> {curves[1][-1]:.4g} (1 device); largest "
          f"relative difference per step {diff:.2e}")
    svg([("partitioned, 8 devices (2x4)", curves[0],
          'stroke="#1f77b4" stroke-width="3"'),
         ("unpartitioned, 1 device", curves[1],
          'stroke="#d62728" stroke-width="1.5" stroke-dasharray="6,4"')],
        a.svg)
    print(f"plot: {os.path.relpath(a.svg, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
