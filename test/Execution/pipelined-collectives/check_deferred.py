#!/usr/bin/env python3
"""Runs a loop whose psum, psum_scatter, all_gather and all_to_all only
feed accumulators, as written and with spmd-pipeline-collectives (which
waits for each one iteration late); checks both against numpy.

Usage: check_deferred.py TRELLIS_OPT TRELLIS_RUN WORKDIR MESH AXES LAYERS
                         [--mpirun CMD]

MESH is the mesh's axis sizes ("4,2"), AXES the axes the collectives run
over ("x" or "x,y"; the axes are named x, y, z). The program (written
here) takes X [L, n r, c], split over AXES along dimension 1, and H0
[n r, c], split the same way. Iteration l of its shard_map loop sums X[l]
(psum), reduce-scatters it into row block l of a stacked accumulator,
gathers the carried h along its columns (then h = h / 2 + X[l]; every
device holds the whole gathered h, so the output is n copies) and exchanges X[l]'s column
blocks (all_to_all), adding each result to an accumulator. The expected
values are computed here from the global arrays. With --mpirun the
program runs under MPI, one device per rank (CMD is the mpirun command
line), without --reference. Prints one line per
form and output; exits 1 on a mismatch, or when the pipelined program
still has a blocking collective in the loop or lacks the four starts.
"""
import os
import subprocess
import sys

import numpy as np

NAMES = "xyz"


def program(mesh, axes, layers):
    n = int(np.prod([mesh[NAMES.index(a)] for a in axes]))
    ax = ", ".join(f'"{a}"' for a in axes)
    decl = ", ".join(f'"{NAMES[i]}"={s}' for i, s in enumerate(mesh))
    r, c, L = 2 * n, 4 * n, layers
    cb = c // n
    f = "xf32>"
    return n, r, c, f"""
trellis.mesh @mesh = <[{decl}]>
func.func @main(%x: tensor<{L}x{n * r}x{c}{f}, %h0: tensor<{n * r}x{c}{f})
    -> (tensor<{r}x{c}{f}, tensor<{L}x{2 * n}x{c}{f}, tensor<{n * r}x{n * c}{f},
        tensor<{n * r * n}x{cb}{f}) {{
  %op, %os, %og, %oa = spmd.shard_map @mesh
      in_specs = [[{{}}, {{{ax}}}, {{}}], [{{{ax}}}, {{}}]]
      out_specs = [[{{}}, {{}}], [{{}}, {{{ax}}}, {{}}], [{{{ax}}}, {{}}], [{{{ax}}}, {{}}]]
      (%x, %h0) : (tensor<{L}x{n * r}x{c}{f}, tensor<{n * r}x{c}{f})
      -> (tensor<{r}x{c}{f}, tensor<{L}x{2 * n}x{c}{f}, tensor<{n * r}x{n * c}{f},
          tensor<{n * r * n}x{cb}{f}) {{
  ^bb0(%xb: tensor<{L}x{r}x{c}{f}, %hb: tensor<{r}x{c}{f}):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cl = arith.constant {L} : index
    %half = arith.constant dense<0.5> : tensor<{r}x{c}{f}
    %p0 = arith.constant dense<0.0> : tensor<{r}x{c}{f}
    %s0z = arith.constant dense<0.0> : tensor<{L}x2x{c}{f}
    %s0 = spmd.pvary %s0z over [{ax}] : tensor<{L}x2x{c}{f} -> tensor<{L}x2x{c}{f}
    %g0z = arith.constant dense<0.0> : tensor<{r}x{n * c}{f}
    %g0 = spmd.pvary %g0z over [{ax}] : tensor<{r}x{n * c}{f} -> tensor<{r}x{n * c}{f}
    %a0z = arith.constant dense<0.0> : tensor<{r * n}x{cb}{f}
    %a0 = spmd.pvary %a0z over [{ax}] : tensor<{r * n}x{cb}{f} -> tensor<{r * n}x{cb}{f}
    %res:5 = scf.for %l = %c0 to %cl step %c1
        iter_args(%h = %hb, %ap = %p0, %as = %s0, %ag = %g0, %aa = %a0)
        -> (tensor<{r}x{c}{f}, tensor<{r}x{c}{f}, tensor<{L}x2x{c}{f},
            tensor<{r}x{n * c}{f}, tensor<{r * n}x{cb}{f}) {{
      %xl = tensor.extract_slice %xb[%l, 0, 0] [1, {r}, {c}] [1, 1, 1]
          : tensor<{L}x{r}x{c}{f} to tensor<{r}x{c}{f}
      %p = spmd.psum %xl over [{ax}] : tensor<{r}x{c}{f} -> tensor<{r}x{c}{f}
      %s = spmd.psum_scatter %xl over [{ax}] dim 0 tiled
          : tensor<{r}x{c}{f} -> tensor<2x{c}{f}
      %g = spmd.all_gather %h over [{ax}] dim 1 tiled
          : tensor<{r}x{c}{f} -> tensor<{r}x{n * c}{f}
      %a = spmd.all_to_all %xl over [{ax}] split 1 concat 0
          : tensor<{r}x{c}{f} -> tensor<{r * n}x{cb}{f}
      %hh = arith.mulf %h, %half : tensor<{r}x{c}{f}
      %hn = arith.addf %hh, %xl : tensor<{r}x{c}{f}
      %ap2 = arith.addf %ap, %p : tensor<{r}x{c}{f}
      %old = tensor.extract_slice %as[%l, 0, 0] [1, 2, {c}] [1, 1, 1]
          : tensor<{L}x2x{c}{f} to tensor<2x{c}{f}
      %sum = arith.addf %old, %s : tensor<2x{c}{f}
      %as2 = tensor.insert_slice %sum into %as[%l, 0, 0] [1, 2, {c}] [1, 1, 1]
          : tensor<2x{c}{f} into tensor<{L}x2x{c}{f}
      %ag2 = arith.addf %ag, %g : tensor<{r}x{n * c}{f}
      %aa2 = arith.addf %aa, %a : tensor<{r * n}x{cb}{f}
      scf.yield %hn, %ap2, %as2, %ag2, %aa2 : tensor<{r}x{c}{f}, tensor<{r}x{c}{f},
          tensor<{L}x2x{c}{f}, tensor<{r}x{n * c}{f}, tensor<{r * n}x{cb}{f}
    }}
    spmd.yield %res#1, %res#2, %res#3, %res#4 : tensor<{r}x{c}{f},
        tensor<{L}x2x{c}{f}, tensor<{r}x{n * c}{f}, tensor<{r * n}x{cb}{f}
  }}
  return %op, %os, %og, %oa : tensor<{r}x{c}{f}, tensor<{L}x{2 * n}x{c}{f},
      tensor<{n * r}x{n * c}{f}, tensor<{n * r * n}x{cb}{f}
}}
"""


def expected(x, h0, n, r, c):
    L = x.shape[0]
    blocks = [x[:, i * r:(i + 1) * r] for i in range(n)]
    total = sum(blocks)                       # [L, r, c]
    p = total.sum(axis=0)
    s = total                                 # row block i of device i
    h, g = h0.copy(), np.zeros((r, n * c))
    for l in range(L):
        g += np.concatenate([h[i * r:(i + 1) * r] for i in range(n)], axis=1)
        h = h * 0.5 + x[l]
    cb = c // n
    a = np.concatenate([
        sum(np.concatenate([blocks[j][l][:, i * cb:(i + 1) * cb]
                            for j in range(n)]) for l in range(L))
        for i in range(n)])
    return [p, s, np.concatenate([g] * n), a]


def main():
    opt, run, work, mesh, axes, layers = sys.argv[1:7]
    mpirun = None
    if len(sys.argv) > 7:
        assert sys.argv[7] == "--mpirun"
        mpirun = sys.argv[8].split()
    mesh = [int(v) for v in mesh.split(",")]
    axes = axes.split(",")
    n, r, c, text = program(mesh, axes, int(layers))
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "deferred.mlir")
    with open(src, "w") as f:
        f.write(text)
    piped = subprocess.run([opt, src, "--spmd-pipeline-collectives"],
                           check=True, capture_output=True, text=True).stdout
    loop = piped[piped.index("scf.for"):piped.index("scf.yield")]
    blocking = [k for k in ("psum ", "psum_scatter ", "all_gather ",
                            "all_to_all ") if f"spmd.{k}" in loop]
    starts = sum(loop.count(f"spmd.{k}_start")
                 for k in ("psum", "psum_scatter", "all_gather", "all_to_all"))
    print(f"pipelined loop: {starts} starts, blocking {blocking}")
    ok = starts == 4 and not blocking
    rng = np.random.default_rng(7)
    x = rng.standard_normal((int(layers), n * r, c)).astype(np.float32)
    h0 = rng.standard_normal((n * r, c)).astype(np.float32)
    np.save(os.path.join(work, "x.npy"), x)
    np.save(os.path.join(work, "h0.npy"), h0)
    want = expected(x.astype(np.float64), h0.astype(np.float64), n, r, c)
    for form, passes in (("blocking", []),
                         ("pipelined", ["--passes=spmd-pipeline-collectives"])):
        out = os.path.join(work, form)
        cmd = [run, src, "--quiet", "--output-dir", out,
               "--input", "0=" + os.path.join(work, "x.npy"),
               "--input", "1=" + os.path.join(work, "h0.npy")] + passes
        if mpirun:
            cmd = mpirun + ["-np", str(int(np.prod(mesh))), run,
                            "--backend=mpi"] + cmd[1:]
        else:
            cmd.append("--reference")
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        sys.stdout.write(proc.stdout)
        if proc.returncode != 0:
            print(f"FAIL {form}: exited {proc.returncode}\n{proc.stderr[-3000:]}")
            return 1
        for i, (name, w) in enumerate(zip(("psum", "psum_scatter",
                                           "all_gather", "all_to_all"), want)):
            got = np.load(os.path.join(out, f"out{i}.npy"))
            err = float(np.abs(got - w).max()) if got.shape == w.shape else 1e9
            good = err < 1e-4 * max(1.0, float(np.abs(w).max()))
            ok &= good
            print(f"{form} {name} {list(got.shape)}: "
                  f"{'ok' if good else f'MISMATCH (error {err:.3g})'}")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
