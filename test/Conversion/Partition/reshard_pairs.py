#!/usr/bin/env python3
"""Every pair of shardings of a 2-D tensor on a (2,4) mesh, executed.

Usage: reshard_pairs.py TRELLIS_RUN WORKDIR

A 2-D tensor on mesh ("a"=2, "b"=4) has 11 shardings (each axis splits
dimension 0, dimension 1 or nothing, in either order when both split the
same dimension). For each source sharding one function takes the tensor in
that sharding and returns it 11 times, once per target sharding; the
partitioner reshards at the return. Each function runs on 8 devices with
random inputs and every result is compared exactly with the input.
Prints one line per (source, target) pair; exits 1 on a failure.
"""
import itertools
import os
import subprocess
import sys

import numpy as np

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


def main():
    run, work = sys.argv[1], sys.argv[2]
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
            print(f"{text(src)} -> {text(dst)}: {'ok' if ok else 'FAIL'}")
            failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
