#!/usr/bin/env python3
"""Runs a program in-process and under mpirun; compares the outputs.

Usage: compare_backends.py MPIRUN TRELLIS_RUN NP WORKDIR PROGRAM [ARGS...]

MPIRUN is the mpirun command line (one string). The program runs with
`TRELLIS_RUN PROGRAM ARGS --output-dir WORKDIR/threads` and with
`MPIRUN -np NP TRELLIS_RUN --backend=mpi PROGRAM ARGS --output-dir
WORKDIR/mpi`; every outN.npy must be equal bit for bit for integers and
within tolerance for floats (MPI may reduce in another order). Prints one
line per output ("exact" or "close") and "OK <program>"; exits 1 otherwise.
"""
import glob
import os
import subprocess
import sys

import numpy as np


def main():
    mpirun, run, np_, work, program = sys.argv[1:6]
    args = sys.argv[6:]
    name = os.path.splitext(os.path.basename(program))[0]
    threads, mpi = os.path.join(work, "threads"), os.path.join(work, "mpi")
    for cmd in ([run, program, *args, "--quiet", "--output-dir", threads],
                mpirun.split() + ["-np", np_, run, "--backend=mpi", program, *args,
                                  "--quiet", "--output-dir", mpi]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            print(f"FAIL {name}: {' '.join(cmd)} exited {proc.returncode}")
            print(proc.stdout[-2000:] + proc.stderr[-2000:])
            return 1
    files = sorted(glob.glob(os.path.join(threads, "out*.npy")))
    ok = bool(files)
    for a in files:
        x = np.load(a)
        y = np.load(os.path.join(mpi, os.path.basename(a)))
        if x.shape != y.shape or x.dtype != y.dtype:
            verdict = f"DIFFERENT {y.dtype}{y.shape} vs {x.dtype}{x.shape}"
        elif np.array_equal(x, y):
            verdict = "exact"
        elif x.dtype.kind == "f" and np.allclose(
                x, y, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(x).max()))):
            verdict = "close"
        else:
            verdict = f"DIFFERENT (max error {float(np.abs(x - y).max())})"
        ok &= not verdict.startswith("DIFFERENT")
        print(f"{name} {os.path.basename(a)} {x.dtype}{list(x.shape)}: {verdict}")
    print(("OK " if ok else "FAIL ") + name)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
