"""Running partitioned test programs, shared by the partitioner's
executed tests (reshard_pairs.py, halo_programs.py, roll_programs.py,
uneven_programs.py, concat_programs.py).
"""
import os
import subprocess

import numpy as np


def reported_bytes(opt, path):
    """Bytes per device PATH sends once partitioned
    (--trellis-global-to-manual), by trellis-comm-report's total."""
    proc = subprocess.run([opt, path, "--trellis-global-to-manual",
                           "--trellis-comm-report", "-o", os.devnull],
                          capture_output=True, text=True, timeout=300)
    for line in (proc.stdout + proc.stderr).splitlines():
        if "total:" in line:
            return int(line.split(",")[1].split("B per device")[0])
    raise RuntimeError(f"no comm report for {path}:\n{proc.stderr}")


def run_with_reference(run, path, seed, outdir):
    """Runs PATH on random inputs (SEED) with --reference, saving inputs
    and results in OUTDIR. Returns (error, inputs, out0): the tail of the
    tool's output when it failed (inputs and out0 then None), else None
    and the arrays as saved."""
    proc = subprocess.run(
        [run, path, "--random", str(seed), "--reference", "--quiet",
         "--save-inputs", "--output-dir", outdir],
        capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return proc.stdout[-1500:] + proc.stderr[-1500:], None, None
    inputs = []
    while os.path.exists(os.path.join(outdir, f"arg{len(inputs)}.npy")):
        inputs.append(np.load(os.path.join(outdir, f"arg{len(inputs)}.npy")))
    return None, inputs, np.load(os.path.join(outdir, "out0.npy"))


def write_and_run(run, work, stem, seed, text, name):
    """Writes TEXT to WORKDIR/STEM.mlir and runs it as run_with_reference
    does (outputs in WORKDIR/STEM). Returns (path, inputs, out0), inputs
    and out0 None after printing "NAME: FAIL to run" when it failed."""
    path = os.path.join(work, f"{stem}.mlir")
    with open(path, "w") as f:
        f.write(text)
    error, ins, got = run_with_reference(run, path, seed,
                                         os.path.join(work, stem))
    if error:
        print(f"{name}: FAIL to run\n{error}")
    return path, ins, got


def device_block(s, shape, coord, sizes):
    """The block of an array of SHAPE laid out by S (per dimension, its
    axes) held by the device at COORD (axis -> position) on a mesh of
    SIZES (axis -> size): (lo, hi) per dimension. Blocks are ceil(n /
    count), the last ones cut at n when the axes do not divide n."""
    box = []
    for d, axes in enumerate(s):
        index, count = 0, 1
        for axis in axes:
            index = index * sizes[axis] + coord[axis]
            count *= sizes[axis]
        extent = -(-shape[d] // count)
        box.append((min(index * extent, shape[d]),
                    min((index + 1) * extent, shape[d])))
    return box
