#!/usr/bin/env python3
"""Runs all_gather, psum, psum_scatter and all_to_all blocking and split
into start/wait by spmd-async-collectives{kinds=all}; checks both against
numpy.

Usage: check_async.py TRELLIS_RUN WORKDIR MESH AXES [--mpirun CMD]

MESH is the mesh's axis sizes ("4,2"), AXES the axes the collectives run
over ("x", "y" or "x,y"; the mesh's axes are named x, y, z). The program
(written here) takes X, split over AXES along dimension 0, and W,
replicated; its shard_map body gathers X, sums it, reduce-scatters X @ W
and exchanges X's column blocks (all_to_all), with the matmul placed
after the collectives so that the async form has compute to overlap. The
expected results are computed here with numpy from the group's blocks.
With --mpirun the program runs under MPI, one device per rank (CMD is the
mpirun command line). Prints one line per mode and output; exits 1 on a
mismatch, or when the async run's lowered module does not start each of
the four collectives asynchronously (or the blocking one does).
"""
import os
import subprocess
import sys

import numpy as np

NAMES = "xyz"


def program(mesh, axes):
    n = int(np.prod([mesh[NAMES.index(a)] for a in axes]))
    ax = ", ".join(f'"{a}"' for a in axes)
    decl = ", ".join(f'"{NAMES[i]}"={s}' for i, s in enumerate(mesh))
    r, c = 4, 8 * n
    return n, f"""
trellis.mesh @mesh = <[{decl}]>
func.func @main(%x: tensor<{r * n}x{c}xf32>, %w: tensor<{c}x{c}xf32>)
    -> (tensor<{r * n * n}x{c}xf32>, tensor<{r * n}x{c}xf32>,
        tensor<{r * n}x8xf32>, tensor<{r * n * n}x8xf32>) {{
  %g, %s, %p, %t = spmd.shard_map @mesh in_specs = [[{{{ax}}}, {{}}], [{{}}, {{}}]]
      out_specs = [[{{{ax}}}, {{}}], [{{{ax}}}, {{}}], [{{{ax}}}, {{}}], [{{{ax}}}, {{}}]]
      (%x, %w) : (tensor<{r * n}x{c}xf32>, tensor<{c}x{c}xf32>)
      -> (tensor<{r * n * n}x{c}xf32>, tensor<{r * n}x{c}xf32>,
          tensor<{r * n}x8xf32>, tensor<{r * n * n}x8xf32>) {{
  ^bb0(%xb: tensor<{r}x{c}xf32>, %wb: tensor<{c}x{c}xf32>):
    %gb = spmd.all_gather %xb over [{ax}] dim 0 tiled : tensor<{r}x{c}xf32> -> tensor<{r * n}x{c}xf32>
    %sb = spmd.psum %xb over [{ax}] : tensor<{r}x{c}xf32>
    %tb = spmd.all_to_all %xb over [{ax}] split 1 concat 0 : tensor<{r}x{c}xf32> -> tensor<{r * n}x8xf32>
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<{r}x{c}xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<{r}x{c}xf32>) -> tensor<{r}x{c}xf32>
    %m = linalg.matmul ins(%xb, %wb : tensor<{r}x{c}xf32>, tensor<{c}x{c}xf32>)
                       outs(%init : tensor<{r}x{c}xf32>) -> tensor<{r}x{c}xf32>
    %pb = spmd.psum_scatter %m over [{ax}] dim 1 tiled : tensor<{r}x{c}xf32> -> tensor<{r}x8xf32>
    spmd.yield %gb, %sb, %pb, %tb : tensor<{r * n}x{c}xf32>, tensor<{r}x{c}xf32>, tensor<{r}x8xf32>, tensor<{r * n}x8xf32>
  }}
  return %g, %s, %p, %t : tensor<{r * n * n}x{c}xf32>, tensor<{r * n}x{c}xf32>, tensor<{r * n}x8xf32>, tensor<{r * n * n}x8xf32>
}}
"""


def expected(x, w, n):
    blocks = np.split(x, n, axis=0)
    g = np.concatenate([x] * n)
    s = np.concatenate([sum(blocks)] * n)
    m = [b @ w for b in blocks]
    total = sum(m)
    p = np.concatenate([total[:, 8 * k:8 * k + 8] for k in range(n)])
    t = np.concatenate(
        [np.concatenate([b[:, 8 * k:8 * k + 8] for b in blocks]) for k in range(n)])
    return [g, s, p, t]


def main():
    run, work, mesh_text, axes_text = sys.argv[1:5]
    mpirun = None
    if len(sys.argv) > 5:
        assert sys.argv[5] == "--mpirun"
        mpirun = sys.argv[6].split()
    mesh = [int(v) for v in mesh_text.split(",")]
    axes = axes_text.split(",")
    n, text = program(mesh, axes)
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "prog.mlir")
    with open(path, "w") as f:
        f.write(text)
    rng = np.random.default_rng(7)
    # Small integers: every sum is exact, so each order of summation (MPI's
    # included) gives the numpy value bit for bit.
    x = rng.integers(-4, 5, size=(4 * n, 8 * n)).astype(np.float32)
    w = rng.integers(-2, 3, size=(8 * n, 8 * n)).astype(np.float32)
    np.save(os.path.join(work, "x.npy"), x)
    np.save(os.path.join(work, "w.npy"), w)
    want = expected(x, w, n)
    devices = int(np.prod(mesh))
    ok = True
    for mode, passes in (("blocking", []),
                         ("async", ["--passes=spmd-async-collectives{kinds=all}"])):
        out = os.path.join(work, mode)
        cmd = [run, path, "--input", "0=" + os.path.join(work, "x.npy"),
               "--input", "1=" + os.path.join(work, "w.npy"), "--quiet", *passes]
        # The lowered module, from an in-process run (under MPI every rank
        # would print it, interleaved); its outputs go elsewhere, so that
        # the MPI run's are the ones checked.
        dump = cmd + ["--dump-llvm-dialect", "--output-dir", out]
        if mpirun:
            dump[-1] = out + "-threads"
            cmd += ["--output-dir", out]
        proc = subprocess.run(dump, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            print(f"FAIL {mode}: exited {proc.returncode}\n{proc.stderr[-3000:]}")
            return 1
        starts = proc.stderr.count("call @trellis_rt_collective_start")
        waits = proc.stderr.count("call @trellis_rt_collective_wait")
        if mpirun:
            cmd = mpirun + ["-np", str(devices)] + cmd[:1] + ["--backend=mpi"] + cmd[1:]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                print(f"FAIL {mode}: exited {proc.returncode}\n{proc.stderr[-3000:]}")
                return 1
        print(f"{mode}: {starts} starts, {waits} waits")
        if (starts, waits) != ((4, 4) if mode == "async" else (0, 0)):
            ok = False
        for k, name in enumerate(["all_gather", "psum", "psum_scatter", "all_to_all"]):
            got = np.load(os.path.join(out, f"out{k}.npy"))
            same = got.shape == want[k].shape and np.array_equal(got, want[k])
            print(f"{mode} {name} {list(got.shape)}: {'ok' if same else 'MISMATCH'}")
            ok &= same
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
