#!/usr/bin/env python3
"""Checks a gradient built by trellis-grad against central finite differences.

Usage: check_grad.py TRELLIS_RUN GRAD.mlir FUNC WRT DIR [options]

Runs FUNC_grad from GRAD.mlir (which still holds FUNC) on seeded random
inputs, then FUNC itself on the same inputs and on x +- h*v for random
directions v over the arguments in WRT ("0,2"), and checks

    (f(x + h v) - f(x - h v)) / 2h  ==  sum_k <grad_k, v_k>

within --tol (relative to the size of the terms), and that FUNC_grad's
leading results equal FUNC's. Meant for f64 programs. The finite
difference only executes FUNC, so it does not share code with the
gradient. Exit status 1 on a mismatch, or when every directional
derivative is 0 (a vacuous check) unless --allow-zero.

Options: --directions N (2), --h H (1e-5), --tol T (1e-6), --seed S (1),
--grad-entry NAME (FUNC_grad), --extra ARGS (passed to every trellis-run).

With --jvp, GRAD.mlir holds FUNC_jvp (trellis-grad jvp=true), which takes
FUNC's arguments and then tangents of those in WRT, and returns FUNC's
results and the tangent of the first: it runs on seeded random arguments
and tangents v, and its tangent must equal the finite difference along v.
"""
import argparse
import glob
import os
import shlex
import subprocess
import sys

import numpy as np


def arrays(d, prefix):
    n = len(glob.glob(os.path.join(d, prefix + "*.npy")))
    return [np.load(os.path.join(d, f"{prefix}{i}.npy")) for i in range(n)]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        sys.stdout.write(r.stderr)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited with {r.returncode}")


def call(a, extra, inputs, tag):
    """FUNC's results on `inputs` (a fresh trellis-run)."""
    d = os.path.join(a.dir, tag)
    os.makedirs(d, exist_ok=True)
    cmd = [a.trellis_run, a.module, "--entry", a.func, "--output-dir", d,
           "--quiet"] + extra
    for k, x in enumerate(inputs):
        path = os.path.join(d, f"in{k}.npy")
        np.save(path, x)
        cmd += ["--input", f"arg{k}={path}"]
    run(cmd)
    return arrays(d, "out")


def check_jvp(a, wrt, extra):
    """Forward mode: FUNC_jvp's tangent against the finite difference."""
    entry = a.grad_entry or a.func + "_jvp"
    worst, nonzero = 0.0, False
    for t in range(a.directions):
        d = os.path.join(a.dir, f"jvp{t}")
        run([a.trellis_run, a.module, "--entry", entry, "--random",
             str(a.seed + t), "--output-dir", d, "--save-inputs", "--quiet"]
            + extra)
        args = arrays(d, "arg")
        outs = arrays(d, "out")
        xs, vs = args[:len(args) - len(wrt)], args[len(args) - len(wrt):]
        f_outs = call(a, extra, xs, f"f{t}")
        n = len(f_outs)
        if len(outs) != n + 1:
            print(f"FAIL: {entry} returns {len(outs)} arrays; {a.func} "
                  f"returns {n}, and one tangent")
            return 1
        for j, (fo, jo) in enumerate(zip(f_outs, outs)):
            if not np.allclose(fo, jo, rtol=1e-12, atol=1e-12,
                               equal_nan=True):
                print(f"FAIL: {entry} result #{j} differs from {a.func}'s")
                return 1
        plus, minus = list(xs), list(xs)
        for v, i in zip(vs, wrt):
            plus[i] = (xs[i] + a.h * v).astype(xs[i].dtype)
            minus[i] = (xs[i] - a.h * v).astype(xs[i].dtype)
        fp = call(a, extra, plus, f"p{t}")[0].astype(np.float64)
        fm = call(a, extra, minus, f"m{t}")[0].astype(np.float64)
        fd = (fp - fm) / (2 * a.h)
        ad = outs[n].astype(np.float64)
        scale = max(1.0, float(np.max(np.abs(f_outs[0]))),
                    float(np.max(np.abs(ad))))
        err = float(np.max(np.abs(fd - ad))) / scale
        worst = max(worst, err)
        nonzero |= float(np.max(np.abs(ad))) > 1e-12 * scale
        if err > a.tol:
            print(f"FAIL: direction {t}: finite difference {fd!r}, tangent "
                  f"{ad!r} (error {err:.3g} of scale {scale:.3g})")
            return 1
    if not nonzero and not a.allow_zero:
        print("FAIL: every tangent is 0; the check is vacuous")
        return 1
    print(f"OK {a.func}: tangent matches finite differences "
          f"(worst relative error {worst:.1e})")
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trellis_run")
    p.add_argument("module")
    p.add_argument("func")
    p.add_argument("wrt")
    p.add_argument("dir")
    p.add_argument("--directions", type=int, default=2)
    p.add_argument("--h", type=float, default=1e-5)
    p.add_argument("--tol", type=float, default=1e-6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--grad-entry")
    p.add_argument("--extra", default="")
    p.add_argument("--allow-zero", action="store_true")
    p.add_argument("--jvp", action="store_true")
    a = p.parse_args()
    extra = shlex.split(a.extra)
    wrt = [int(i) for i in a.wrt.split(",")]
    if a.jvp:
        return check_jvp(a, wrt, extra)
    grad_entry = a.grad_entry or a.func + "_grad"

    g_dir = os.path.join(a.dir, "grad")
    run([a.trellis_run, a.module, "--entry", grad_entry, "--random",
         str(a.seed), "--output-dir", g_dir, "--save-inputs", "--quiet"]
        + extra)
    xs = arrays(g_dir, "arg")
    g_outs = arrays(g_dir, "out")

    f_outs = call(a, extra, xs, "f")
    n = len(f_outs)
    if len(g_outs) != n + len(wrt):
        print(f"FAIL: {grad_entry} returns {len(g_outs)} arrays; {a.func} "
              f"returns {n} and {len(wrt)} gradients were asked for")
        return 1
    for j, (fo, go) in enumerate(zip(f_outs, g_outs)):
        if not np.allclose(fo, go, rtol=1e-12, atol=1e-12, equal_nan=True):
            print(f"FAIL: {grad_entry} result #{j} differs from {a.func}'s")
            return 1
    grads = g_outs[n:]
    for k, i in enumerate(wrt):
        if grads[k].shape != xs[i].shape:
            print(f"FAIL: gradient #{k} has shape {grads[k].shape}, argument "
                  f"#{i} {xs[i].shape}")
            return 1

    rng = np.random.default_rng(a.seed + 1000)
    worst = 0.0
    nonzero = False
    for t in range(a.directions):
        vs = [rng.standard_normal(xs[i].shape) for i in wrt]
        plus, minus = list(xs), list(xs)
        for v, i in zip(vs, wrt):
            plus[i] = (xs[i] + a.h * v).astype(xs[i].dtype)
            minus[i] = (xs[i] - a.h * v).astype(xs[i].dtype)
        lp = float(call(a, extra, plus, f"p{t}")[0])
        lm = float(call(a, extra, minus, f"m{t}")[0])
        fd = (lp - lm) / (2 * a.h)
        ad = sum(float(np.vdot(g.astype(np.float64), v))
                 for g, v in zip(grads, vs))
        scale = max(1.0, abs(float(f_outs[0])),
                    sum(float(np.abs(g).astype(np.float64).ravel()
                              @ np.abs(v).ravel()) for g, v in zip(grads, vs)))
        err = abs(fd - ad) / scale
        worst = max(worst, err)
        nonzero |= abs(ad) > 1e-12 * scale
        if err > a.tol:
            print(f"FAIL: direction {t}: finite difference {fd!r}, gradient "
                  f"{ad!r} (error {err:.3g} of scale {scale:.3g})")
            return 1
    if not nonzero and not a.allow_zero:
        print("FAIL: every directional derivative is 0; the check is vacuous")
        return 1
    print(f"OK {a.func}: gradient matches finite differences "
          f"(worst relative error {worst:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
