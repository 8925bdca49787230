#!/usr/bin/env python3
"""Runs a partitioner corpus program on several meshes against its reference.

Usage: run_corpus.py [--mpi MPIRUN] [--resize OLD=NEW,...] TRELLIS_RUN
                     PROGRAM.mlir[,PROGRAM.mlir...] WORKDIR [MESH ...]

With --mpi (the mpirun command line, e.g. "mpirun --oversubscribe"), the
partitioned program also runs with --backend=mpi, one rank per device, and
its results must equal the in-process run's: bit for bit for integers,
within tolerance for floats (MPI may sum in another order).

PROGRAM is a template: `$MESH` becomes the mesh's `<[...]>` (auto axes),
`$EMESH` the same mesh with explicit axes, `$XMESH` the first axis explicit
and the others auto; `$0`, `$1`, `$2` name the mesh's first, second and third
axes ("a", "b", "c") and disappear (with their comma) from brace lists on
meshes that lack them. `#(N/0/1)` is N divided by the sizes of the
listed axes (an axis the mesh lacks counts 1): local shapes in shard_map
bodies. Type encodings left with no axes become plain types. Each MESH is like `2x4`; the default is the corpus set
(2), (4), (8), (2,2), (2,4), (4,2), (2,2,2). For each mesh the program is
partitioned and run, and every result is compared with the unpartitioned
program on one device (trellis-run --reference): exactly for integers,
within tolerance for floats. Prints one line per mesh; exits 1 on a failure.

--resize makes every static dimension of size OLD in a tensor type NEW
(e.g. 16=15,32=30: sizes the mesh axes do not divide, which the
partitioner pads); the programs given must stay valid under it.
"""
import os
import re
import subprocess
import sys

DEFAULT_MESHES = ["2", "4", "8", "2x2", "2x4", "4x2", "2x2x2"]
NAMES = ["a", "b", "c"]


def instantiate(text, sizes):
    axes = NAMES[:len(sizes)]

    def local(match):
        n = int(match.group(1))
        for k in match.group(2).split("/")[1:]:
            size = sizes[int(k)] if int(k) < len(sizes) else 1
            assert n % size == 0, f"{match.group(0)} does not divide"
            n //= size
        return str(n)

    text = re.sub(r"#\((\d+)((?:/\d)*)\)", local, text)
    mesh = "[" + ", ".join(f'"{n}"={s}' for n, s in zip(axes, sizes)) + "]"
    text = text.replace("$EMESH", f"<{mesh}, types = [{', '.join(['explicit'] * len(axes))}]>")
    types = ["explicit"] + ["auto"] * (len(axes) - 1)
    text = text.replace("$XMESH", f"<{mesh}, types = [{', '.join(types)}]>")
    text = text.replace("$MESH", f"<{mesh}>")

    def brace(match):
        items = [i.strip() for i in match.group(1).split(",") if i.strip()]
        kept = []
        for item in items:
            m = re.fullmatch(r"\$(\d)", item)
            if m:
                k = int(m.group(1))
                if k < len(axes):
                    kept.append(f'"{axes[k]}"')
            else:
                kept.append(item)
        return "{" + ", ".join(kept) + "}"

    # Brace lists of axes (dimension shardings) and bracket lists (collective
    # axes, manual_axes).
    text = re.sub(r"\{((?:\s*(?:\$\d|\"\w+\"|\?)\s*,?)*)\}", brace, text)

    def square(match):
        items = [i.strip() for i in match.group(1).split(",") if i.strip()]
        kept = []
        for item in items:
            m = re.fullmatch(r"\$(\d)", item)
            if m:
                if int(m.group(1)) < len(axes):
                    kept.append(f'"{axes[int(m.group(1))]}"')
            else:
                kept.append(item)
        return "[" + ", ".join(kept) + "]"

    text = re.sub(r"\[((?:\s*\$\d\s*,?)+)\]", square, text)
    # A type encoding left with no axes is written as the plain type (its
    # canonical form).
    text = re.sub(r", #trellis\.sharding<@\w+, \[\{\}(?:, \{\})*\]>", "", text)
    return text


def resize(text, sizes):
    """`text` with each static dimension of a tensor type that `sizes`
    (old -> new) names resized."""
    def one(match):
        dims = [sizes.get(int(d), int(d)) for d in match.group(1).split("x")]
        return "tensor<" + "x".join(map(str, dims)) + match.group(2)
    return re.sub(r"tensor<((?:\d+x)*\d+)(x[a-z])", one, text)


def compare_npy(a_dir, b_dir):
    """Compares every outN.npy of two runs; returns (ok, description)."""
    import glob
    import numpy as np
    notes = []
    ok = True
    files = sorted(glob.glob(os.path.join(a_dir, "out*.npy")))
    if not files:
        return False, "no outputs"
    for a in files:
        b = os.path.join(b_dir, os.path.basename(a))
        if not os.path.exists(b):
            return False, f"{os.path.basename(a)} missing"
        x, y = np.load(a), np.load(b)
        if x.shape != y.shape or x.dtype != y.dtype:
            return False, f"{os.path.basename(a)}: {y.dtype}{y.shape} vs {x.dtype}{x.shape}"
        if np.array_equal(x, y):
            notes.append("exact")
        elif x.dtype.kind == "f" and np.allclose(
                x, y, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(x).max()))):
            notes.append("close")
        else:
            ok = False
            notes.append("DIFFERENT")
    return ok, ", ".join(notes)


def main():
    args = sys.argv[1:]
    mpirun = None
    sizes_map = {}
    while args and args[0] in ("--mpi", "--resize"):
        if args[0] == "--mpi":
            mpirun = args[1].split()
        else:
            sizes_map = {int(a): int(b) for a, b in
                         (item.split("=") for item in args[1].split(","))}
        args = args[2:]
    run, programs, work = args[0], args[1], args[2]
    meshes = args[3:] or DEFAULT_MESHES
    os.makedirs(work, exist_ok=True)
    failed = False
    for program in programs.split(","):
        failed |= run_program(run, program, work, meshes, mpirun, sizes_map)
    return 1 if failed else 0


def run_program(run, program, work, meshes, mpirun, sizes_map):
    """Runs PROGRAM on each mesh; returns whether any failed."""
    with open(program) as f:
        template = f.read()
    name = os.path.splitext(os.path.basename(program))[0]
    out = os.path.join(work, name)
    failed = False
    for mesh in meshes:
        sizes = [int(s) for s in mesh.split("x")]
        path = os.path.join(work, f"{name}.{mesh}.mlir")
        with open(path, "w") as f:
            f.write(resize(instantiate(template, sizes), sizes_map))
        proc = subprocess.run([run, path, "--random", "7", "--reference", "--quiet",
                               "--output-dir", os.path.join(out, mesh)],
                              capture_output=True, text=True, timeout=300)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("reference:")]
        ok = proc.returncode == 0 and lines and all(": match" in l for l in lines)
        status = "ok" if ok else "FAIL"
        extra = ""
        if ok and mpirun:
            devices = 1
            for s in sizes:
                devices *= s
            mpi = subprocess.run(mpirun + ["-np", str(devices), run, "--backend=mpi", path,
                                           "--random", "7", "--quiet", "--output-dir",
                                           os.path.join(out, mesh + "-mpi")],
                                 capture_output=True, text=True, timeout=300)
            same, notes = compare_npy(os.path.join(out, mesh), os.path.join(out, mesh + "-mpi"))
            ok = mpi.returncode == 0 and same
            status = "ok" if ok else "FAIL"
            extra = f", mpi: {notes}"
            if not ok:
                proc = mpi
        print(f"{name} mesh ({mesh.replace('x', ',')}): {status} ({len(lines)} results{extra})")
        if not ok:
            failed = True
            sys.stdout.write(proc.stdout[-3000:])
            sys.stdout.write(proc.stderr[-3000:])
    return failed


if __name__ == "__main__":
    sys.exit(main())
