#!/usr/bin/env python3
"""Checks the dot-product identity of a transposed function.

Usage: check_transpose.py F_DIR T_DIR NONLINEAR
       check_transpose.py --run TRELLIS_RUN F.mlir T.mlir FUNC NONLINEAR DIR

The second form first runs FUNC from F.mlir with `trellis-run --random 1
--save-inputs` into DIR/f, then FUNC_t from T.mlir with `--random 2` for the
cotangents and f's non-linear arguments passed back with `--input`, into
DIR/t, and then checks.

F_DIR holds a run of f (argK.npy inputs, outJ.npy outputs), T_DIR a run of
its transpose t(f), whose inputs are f's non-linear arguments followed by
one cotangent per output of f, and whose outputs are one cotangent per
linear argument of f. NONLINEAR lists f's non-linear argument indices
("0,2", or "-" for none). For a linear f,

    sum_k <t(f)(w, y)_k, x_k> = sum_j <y_j, f(w, x)_j>

must hold up to float rounding.
"""
import glob
import os
import subprocess
import sys

import numpy as np


def arrays(d, prefix):
    n = len(glob.glob(os.path.join(d, prefix + "*.npy")))
    return [np.load(os.path.join(d, f"{prefix}{i}.npy")).astype(np.float64)
            for i in range(n)]


def run(trellis_run, f_mlir, t_mlir, func, nonlinear, out):
    f_dir, t_dir = os.path.join(out, "f"), os.path.join(out, "t")
    subprocess.run([trellis_run, f_mlir, "--entry", func, "--random", "1",
                    "--output-dir", f_dir, "--save-inputs", "--quiet"],
                   check=True)
    args = [trellis_run, t_mlir, "--entry", func + "_t", "--random", "2",
            "--output-dir", t_dir, "--save-inputs", "--quiet"]
    if nonlinear != "-":
        for k, i in enumerate(nonlinear.split(",")):
            args += ["--input", f"arg{k}={os.path.join(f_dir, f'arg{i}.npy')}"]
    subprocess.run(args, check=True)
    return f_dir, t_dir


def main():
    if sys.argv[1] == "--run":
        trellis_run, f_mlir, t_mlir, func, nonlinear, out = sys.argv[2:8]
        f_dir, t_dir = run(trellis_run, f_mlir, t_mlir, func, nonlinear, out)
    else:
        f_dir, t_dir, nonlinear = sys.argv[1:4]
    nonlinear = [] if nonlinear == "-" else [int(i) for i in nonlinear.split(",")]
    f_args, f_outs = arrays(f_dir, "arg"), arrays(f_dir, "out")
    t_args, t_outs = arrays(t_dir, "arg"), arrays(t_dir, "out")
    linear = [i for i in range(len(f_args)) if i not in nonlinear]
    if len(t_args) != len(nonlinear) + len(f_outs) or len(t_outs) != len(linear):
        print(f"FAIL: t(f) takes {len(t_args)} and returns {len(t_outs)} arrays; "
              f"f has {len(nonlinear)} non-linear arguments, {len(f_outs)} "
              f"outputs and {len(linear)} linear arguments")
        return 1
    for k, i in enumerate(nonlinear):
        if not np.array_equal(t_args[k], f_args[i]):
            print(f"FAIL: t(f) argument {k} is not f's argument {i}")
            return 1
    ys = t_args[len(nonlinear):]
    lhs = sum(float(np.vdot(t_outs[k], f_args[i])) for k, i in enumerate(linear))
    rhs = sum(float(np.vdot(y, out)) for y, out in zip(ys, f_outs))
    scale = max(1.0, sum(float(np.abs(t).sum() * np.abs(f_args[i]).max())
                         for t, i in zip(t_outs, linear)))
    if abs(lhs - rhs) > 1e-5 * scale:
        print(f"FAIL: <t(f)(y), x> = {lhs!r} but <y, f(x)> = {rhs!r}")
        return 1
    print(f"OK <t(f)(y), x> = <y, f(x)> = {rhs:.6g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
