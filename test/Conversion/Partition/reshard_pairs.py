#!/usr/bin/env python3
"""Every pair of shardings of a 2-D tensor on a (2,4) mesh, executed.

Usage: reshard_pairs.py TRELLIS_RUN WORKDIR [--bytes TRELLIS_OPT]

A 2-D tensor on mesh ("a"=2, "b"=4) has 11 shardings (each axis splits
dimension 0, dimension 1 or nothing, in either order when both split the
same dimension). For each source sharding one function takes the tensor in
that sharding and returns it 11 times, once per target sharding; the
partitioner reshards at the return. Each function runs on 8 devices with
random inputs and every result is compared exactly with the input.
Prints one line per (source, target) pair; exits 1 on a failure.

With --bytes, each pair is also partitioned alone and trellis-comm-report's
bytes per device are printed next to the lower bound, computed here from
the blocks: the most bytes any device needs that its own block does not
hold. Each pair must move exactly that: below it the report or the
reshard is wrong, above it the reshard moves more than it must. The last
line counts the pairs at the bound.
"""
import itertools
import os
import subprocess
import sys

import numpy as np

from partition_runs import device_block, reported_bytes

AXES = ["a", "b"]


def shardings():
    out = []
    for placement in itertools.product([None, 0, 1], repeat=len(AXES)):
        dims = [[], []]
        for axis, d in zip(AXES, placement):
            if d is not None:
                dims[d].append(axis)
        for d0 in itertools.permutations(dims[0]):
            for d1 in itertools.permutations(dims[1]):
                out.append((list(d0), list(d1)))
    return out


def text(s):
    return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in s) + "]"


SIZES = {"a": 2, "b": 4}
SHAPE = (8, 16)
ELEMENT_BYTES = 4


def blocks(s):
    """Per device (row-major over a, b), its block as (lo, hi) per dim."""
    out = []
    for a in range(SIZES["a"]):
        for b in range(SIZES["b"]):
            out.append(device_block(s, SHAPE, {"a": a, "b": b}, SIZES))
    return out


def lower_bound(src, dst):
    worst = 0
    for have, need in zip(blocks(src), blocks(dst)):
        need_n = 1
        overlap = 1
        for (hl, hh), (nl, nh) in zip(have, need):
            need_n *= nh - nl
            overlap *= max(0, min(hh, nh) - max(hl, nl))
        worst = max(worst, (need_n - overlap) * ELEMENT_BYTES)
    return worst


def main():
    run, work = sys.argv[1], sys.argv[2]
    opt = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--bytes" else None
    at_bound = 0
    os.makedirs(work, exist_ok=True)
    all_s = shardings()
    assert len(all_s) == 11, len(all_s)
    failed = False
    for i, src in enumerate(all_s):
        results = ", ".join(
            f"tensor<8x16xi32> {{trellis.sharding = #trellis.sharding<@mesh, {text(t)}>}}"
            for t in all_s)
        rets = ", ".join("%x" for _ in all_s)
        types = ", ".join("tensor<8x16xi32>" for _ in all_s)
        module = f"""trellis.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<8x16xi32> {{trellis.sharding = #trellis.sharding<@mesh, {text(src)}>}})
    -> ({results}) {{
  return {rets} : {types}
}}
"""
        path = os.path.join(work, f"from{i}.mlir")
        with open(path, "w") as f:
            f.write(module)
        proc = subprocess.run(
            [run, path, "--random", str(i + 1), "--save-inputs", "--quiet",
             "--output-dir", os.path.join(work, f"from{i}")],
            capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            print(f"{text(src)}: FAIL to run\n{proc.stderr[-2000:]}")
            failed = True
            continue
        x = np.load(os.path.join(work, f"from{i}", "arg0.npy"))
        for j, dst in enumerate(all_s):
            y = np.load(os.path.join(work, f"from{i}", f"out{j}.npy"))
            ok = y.shape == x.shape and (y == x).all()
            extra = ""
            if opt:
                pair = os.path.join(work, f"pair{i}_{j}.mlir")
                with open(pair, "w") as f:
                    f.write(f"""trellis.mesh @mesh = <["a"=2, "b"=4]>
func.func @main(%x: tensor<8x16xi32> {{trellis.sharding = #trellis.sharding<@mesh, {text(src)}>}})
    -> (tensor<8x16xi32> {{trellis.sharding = #trellis.sharding<@mesh, {text(dst)}>}}) {{
  return %x : tensor<8x16xi32>
}}
""")
                got, bound = reported_bytes(opt, pair), lower_bound(src, dst)
                ok &= got == bound
                at_bound += got == bound
                extra = f" {got} B (bound {bound} B)"
            print(f"{text(src)} -> {text(dst)}: {'ok' if ok else 'FAIL'}{extra}")
            failed |= not ok
    if opt:
        print(f"pairs at the lower bound: {at_bound} of {len(all_s) ** 2}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
